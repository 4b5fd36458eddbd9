/**
 * Expired sessions and used one-time tokens do not pile up: the server deletes them when it starts and
 * every hour after.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { expectStatus } from './helpers/api.js';
import { login, queryDb, setupOwner, sleepUntil } from './helpers/access-fixtures.js';
import { makeDataDir, serverEnv } from './helpers/server.js';

const dir = makeDataDir();
let handle: ServerHandle | undefined;

afterEach(async () => {
  await handle?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = async () => {
  handle = await startServer(loadConfig({ ...serverEnv(dir), ONAIR_SESSION_TTL_S: '1' }));
  return { url: `http://127.0.0.1:${handle.port}`, handle };
};
const count = (table: string) => queryDb<{ n: number }>(dir, `SELECT count(*) AS n FROM ${table}`)[0]!.n;

it('deletes expired sessions and used setup tokens at the next start', async () => {
  const first = await start();
  const owner = await setupOwner(first);
  expectStatus(await login(first.url, owner.email), 200);
  expect(count('sessions')).toBe(2);
  expect(count('one_time_tokens')).toBe(1);
  await sleepUntil(Date.now() + 1_100);
  await first.handle.stop();

  await start();
  await expect.poll(() => count('sessions'), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => count('one_time_tokens'), { timeout: 15_000 }).toBe(0);
});
