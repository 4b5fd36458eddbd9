/**
 * The as-run log across kill -9 (docs/as-run.md, "When the server stops"): an interval bounded by acknowledged ops is
 * exact, since its lines are written in the ticks that answered them; the interval still on air when the process
 * died is ended at restart where the server last saw it on air, flagged `endInferred`, and what the restored program
 * holds begins again, taken by the server's restart.
 */
import fs from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { queryDb } from './helpers/access-fixtures.js';
import { api, expectStatus, type Channel, type Scene, type State } from './helpers/api.js';
import type { AsRunLine, AsRunPage } from './helpers/as-run.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { spawnServer, type ChildServer } from './helpers/spawn-server.js';

const children: ChildServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(dir: string): Promise<ChildServer> {
  const child = await spawnServer({ ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info', ONAIR_DB_SYNC: 'full' });
  children.push(child);
  return child;
}

// Two server processes and a wait for the 5 s heartbeat: 60 s for a busy machine.
it('after kill -9, the interval on air is ended where last seen and flagged; the one before it is exact', async () => {
  const dir = makeDataDir();
  dirs.push(dir);
  const first = await start(dir);
  const call = api(first.url, TEST_KEY);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Crash', fps: 25 }), 201);
  const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
  const strap = expectStatus(
    await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }),
    201,
  );
  const cut = async (name: string) =>
    expectStatus(await call<State>('POST', path('program'), { sceneId: strap.id, values: { name } }), 200).frame;
  const tookA = await cut('Ada');
  const tookB = await cut('Bo');

  // The heartbeat marks the open interval as seen on air; then the process dies without a word.
  const seen = await vi.waitFor(
    () => {
      const [row] = queryDb<{ seen_at: string | null }>(dir, 'SELECT seen_at FROM as_run WHERE end_at IS NULL');
      expect(row?.seen_at).toEqual(expect.any(String));
      return Date.parse(row!.seen_at!);
    },
    { timeout: 20_000, interval: 100 },
  );
  const killedAt = Date.now();
  await first.kill('SIGKILL');

  const second = await start(dir);
  const after = api(second.url, TEST_KEY);
  const lines = expectStatus(await after<AsRunPage>('GET', path('as-run')), 200).data;
  expect(lines.map((l) => [l.values.name, l.endInferred])).toEqual([
    ['Ada', false],
    ['Bo', true],
    ['Bo', false],
  ]);
  const [a, b, again] = lines as [AsRunLine, AsRunLine, AsRunLine];
  expect(a).toMatchObject({ startFrame: tookA, endFrame: tookB, clearedBy: { type: 'key' } });
  expect(b).toMatchObject({ startFrame: tookB, clearedBy: null });
  // Ended on the frame the server was last seen in, never after it died.
  expect(Date.parse(b.endAt!)).toBeGreaterThan(seen - 40);
  expect(Date.parse(b.endAt!)).toBeLessThanOrEqual(Math.min(seen, killedAt));
  expect(b.durationMs).toBe(Date.parse(b.endAt!) - Date.parse(b.startAt));
  expect(again).toMatchObject({
    values: b.values,
    endAt: null,
    takenBy: { type: 'system', id: 'restart', name: 'onair restart' },
  });
  expect(Date.parse(again.startAt)).toBeGreaterThanOrEqual(killedAt - 40);
  // The restored program is on air.
  const state = expectStatus(await after<State>('GET', path('state')), 200);
  expect(state.program.map((e) => e.values.name)).toEqual(['Bo']);
});
