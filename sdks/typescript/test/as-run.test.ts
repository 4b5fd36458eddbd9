/** The as-run log against a real onair server: the intervals a take, an update and a clear make, as JSON and CSV. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OnairClient } from '../src/index.js';
import { clientFor, startServer, type SdkServer } from './helpers.js';

let sdk: SdkServer;
let client: OnairClient;

beforeAll(async () => {
  sdk = await startServer();
  client = clientFor(sdk);
});

afterAll(async () => {
  await sdk?.dispose();
});

it('lists what was on program, a page at a time and by time range, and exports the same page as CSV', async () => {
  const channel = await client.channels.create({ name: 'SDK as-run', fps: 25 });
  const strap = await client.scenes.create(channel.id, { name: 'Strap', template: 'lower-third' });
  const before = new Date();
  await client.playout.program(channel.id, { sceneId: strap.id, values: { name: 'Anna' } });
  await client.playout.update(channel.id, { values: { title: 'Coach' } });
  await client.playout.program(channel.id, { sceneId: strap.id, values: { name: 'Ben' } });
  await client.playout.clear(channel.id);

  const page = await client.asRun.list(channel.id);
  expect(page.nextCursor).toBeNull();
  expect(page.data.map((l) => [l.values.name, l.updatedValues?.title ?? null, l.endAt !== null])).toEqual([
    ['Anna', 'Coach', true],
    ['Ben', null, true],
  ]);
  expect(page.data[0]).toMatchObject({
    sceneId: strap.id,
    label: 'Strap',
    takenBy: { type: 'key' },
    endInferred: false,
  });
  expect(page.data[0]!.durationMs).toBe(Date.parse(page.data[0]!.endAt!) - Date.parse(page.data[0]!.startAt));

  const names: unknown[] = [];
  for await (const line of client.asRun.listAll(channel.id, { limit: 1, from: before })) names.push(line.values.name);
  expect(names).toEqual(['Anna', 'Ben']);
  expect((await client.asRun.list(channel.id, { to: page.data[1]!.startAt })).data).toHaveLength(1);

  const csv = await client.asRun.csv(channel.id);
  const [header, ...rows] = csv.trimEnd().split('\r\n');
  expect(header!.split(',').slice(0, 3)).toEqual(['id', 'layer', 'sceneId']);
  expect(rows.map((r) => r.split(',')[0])).toEqual(page.data.map((l) => l.id));
});
