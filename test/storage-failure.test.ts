/**
 * When the disk stops confirming writes (fdatasync of the WAL fails), nothing more is acknowledged and the
 * health check says why, until a restart recovers from what is on disk. The failure is made for real: the
 * descriptor the store flushes through is closed underneath it (found through /proc), so its next
 * fdatasync fails with EBADF. The production default, ONAIR_DB_SYNC=full, is the mode that flushes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { api, createChannelWithScoreboard, expectStatus, getState } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { breakFlusher } from './helpers/flusher-fd.js';

let handle: ServerHandle | undefined;
let dir: string | undefined;

afterEach(async () => {
  await handle?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  handle = undefined;
  dir = undefined;
});

it('a failed flush to disk: PATCH answers 503 unavailable, /healthz says storage failed', async () => {
  dir = makeDataDir();
  handle = await startServer(loadConfig({ ...serverEnv(dir), ONAIR_DB_SYNC: 'full' }));
  const call = api(handle.baseUrl, TEST_KEY);
  const { channelId } = await createChannelWithScoreboard(call);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
  expectStatus(await call('GET', '/healthz'), 200);

  // The flush fails for real: /dev/null takes the place of the descriptor the store flushes the WAL through.
  breakFlusher(path.join(dir, 'onair.db-wal'));

  const refused = await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 2 });
  expectProblem(refused, 503, 'unavailable');
  expect(refused.headers.get('retry-after')).toBe('1');
  // Every later write is refused too, even though the next fdatasync might "succeed".
  expectProblem(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 3 }), 503, 'unavailable');
  const health = expectProblem(await call('GET', '/healthz'), 503, 'unavailable');
  expect(health.detail).toMatch(/restart the server/);
  // Reads still work: what is on air is shown, it just is not promised.
  expect((await getState(call, channelId)).inputs).toMatchObject({ scoreA: 3 });
});
