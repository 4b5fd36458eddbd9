/** Show preparation against a real onair server: rundowns, items, play next, update on air, undo, the schedule. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OnairApiError, type Channel, type OnairClient, type RundownItem, type Scene } from '../src/index.js';
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

/** A channel with a strap whose `name` belongs to each instance (an item input). */
async function strapChannel(name: string): Promise<{ channel: Channel; scene: Scene }> {
  const channel = await client.channels.create({ name });
  const scene = await client.scenes.create(channel.id, {
    name: 'Strap',
    definition: {
      layer: 20,
      inputs: [{ name: 'name', type: 'text', default: '', scope: 'item' }],
      elements: [{ type: 'text', x: 100, y: 900, width: 800, height: 80, text: '{name}', fontSize: 48 }],
    },
  });
  return { channel, scene };
}

it('runs a rundown: items, focus, play next with the item values, update on air, undo and redo, stop', async () => {
  const { channel, scene } = await strapChannel('SDK rundown');
  const rundown = await client.rundowns.create(channel.id, { name: 'Match' });
  expect(rundown).toMatchObject({ channelId: channel.id, name: 'Match', items: [], focus: null, version: 1 });
  const a = await client.rundowns.addItem(channel.id, rundown.id, { sceneId: scene.id, values: { name: 'Anna' } });
  const b = await client.rundowns.addItem(channel.id, rundown.id, { sceneId: scene.id, values: { name: 'Ben' } });
  const c = await client.rundowns.duplicateItem(channel.id, rundown.id, b.id);
  expect(c).toMatchObject({ values: { name: 'Ben' }, state: 'ready', version: 1 });
  expect((await client.rundowns.list(channel.id)).data.map((r) => r.id)).toEqual([rundown.id]);
  const read = await client.rundowns.get(channel.id, rundown.id);
  expect(read.items.map((i) => i.id)).toEqual([a.id, b.id, c.id]);
  expect(read.focus).toBe(a.id);

  const played = await client.rundowns.playNext(channel.id, rundown.id);
  expect(played.program).toMatchObject([{ sceneId: scene.id, itemId: a.id, values: { name: 'Anna' } }]);
  const updated = await client.playout.update(channel.id, { values: { name: 'Anna (updated)' } });
  expect(updated.program[0]?.values).toEqual({ name: 'Anna (updated)' });
  const undone = await client.playout.undo(channel.id);
  expect(undone.program[0]?.values).toEqual({ name: 'Anna' });
  expect((await client.playout.redo(channel.id)).program[0]?.values).toEqual({ name: 'Anna (updated)' });

  const focused = await client.rundowns.focus(channel.id, rundown.id, { itemId: c.id });
  expect(focused.focus).toBe(c.id);
  const cued = await client.rundowns.cue(channel.id, rundown.id);
  expect(cued.preview).toMatchObject([{ itemId: c.id, values: { name: 'Ben' } }]);
  const stopped = await client.rundowns.stop(channel.id, rundown.id, { itemId: a.id });
  expect(stopped.program).toEqual([]);
  expect((await client.rundowns.get(channel.id, rundown.id)).items.map((i) => i.state)).toEqual([
    'done',
    'ready',
    'preview',
  ]);

  // An item straight from the bus routes, and the next step of what is on air (this scene has none).
  const onAir = await client.playout.program(channel.id, { itemId: b.id });
  expect(onAir.program).toMatchObject([{ itemId: b.id, values: { name: 'Ben' } }]);
  await expect(client.playout.continue(channel.id)).rejects.toMatchObject({ status: 404, code: 'unknown_trigger' });

  await client.rundowns.deleteItem(channel.id, rundown.id, b.id);
  const { version } = await client.rundowns.get(channel.id, rundown.id);
  const renamed = await client.rundowns.update(channel.id, rundown.id, { name: 'Final', version });
  expect(renamed.name).toBe('Final');
  await client.rundowns.delete(channel.id, rundown.id);
  await expect(client.rundowns.get(channel.id, rundown.id)).rejects.toMatchObject({ code: 'not_found' });
});

it('refuses a stale edit with 409 version_conflict and the item as it is now in `current`', async () => {
  const { channel, scene } = await strapChannel('SDK conflict');
  const rundown = await client.rundowns.create(channel.id, { name: 'Match' });
  const item = await client.rundowns.addItem(channel.id, rundown.id, { sceneId: scene.id, label: 'First' });
  const edited = await client.rundowns.updateItem(channel.id, rundown.id, item.id, { label: 'Mine', version: 1 });
  expect(edited.version).toBe(2);
  const error = await client.rundowns
    .updateItem(channel.id, rundown.id, item.id, { label: 'Theirs', version: 1 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OnairApiError);
  const conflict = error as OnairApiError;
  expect(conflict).toMatchObject({ status: 409, code: 'version_conflict' });
  expect(conflict.current as RundownItem).toMatchObject({ id: item.id, label: 'Mine', version: 2 });
  expect(conflict.problem.version).toBe(2);
  await expect(client.playout.undo(channel.id)).rejects.toMatchObject({ status: 409, code: 'nothing_to_undo' });
});

it('schedules a take, lists it, cancels it, and refuses a time in the past', async () => {
  const { channel, scene } = await strapChannel('SDK schedule');
  await client.playout.preview(channel.id, { sceneId: scene.id, values: { name: 'Later' } });
  const at = new Date(Date.now() + 600_000);
  const scheduled = await client.schedule.create(channel.id, { at, op: { kind: 'take' } });
  expect(scheduled).toMatchObject({ op: { kind: 'take' }, actor: { type: 'key' } });
  expect(Date.parse(scheduled.at)).toBe(at.getTime());
  expect((await client.schedule.list(channel.id)).data.map((s) => s.id)).toEqual([scheduled.id]);
  await client.schedule.cancel(channel.id, scheduled.id);
  expect((await client.schedule.list(channel.id)).data).toEqual([]);
  await expect(client.schedule.cancel(channel.id, scheduled.id)).rejects.toMatchObject({ code: 'not_found' });
  const past = new Date(Date.now() - 60_000).toISOString();
  await expect(client.schedule.create(channel.id, { at: past, op: { kind: 'take' } })).rejects.toMatchObject({
    status: 400,
    code: 'invalid_request',
  });
});

it('lists the history newest first with its actor: a cue, a take, the undo of the take; paged and iterated', async () => {
  const { channel, scene } = await strapChannel('SDK history');
  const me = await client.me();
  const key = (await client.keys.list()).data.find((k) => k.id === me.key?.id);
  await client.playout.preview(channel.id, { sceneId: scene.id, values: { name: 'Anna' } });
  await client.playout.take(channel.id);
  await client.playout.undo(channel.id);
  const { data, nextCursor } = await client.history.list(channel.id);
  expect(data.map((a) => a.kind)).toEqual(['undo', 'take', 'cue']);
  expect(nextCursor).toBeNull();
  expect(data[0]!.of).toBe(data[1]!.id);
  expect(data[1]!.of).toBeUndefined();
  for (const action of data) {
    expect(action.actor).toEqual({ type: 'key', id: key!.id, name: key!.name });
    expect(Number.isNaN(Date.parse(action.at))).toBe(false);
  }
  expect(data[0]!.frame).toBeGreaterThan(data[2]!.frame);

  const first = await client.history.list(channel.id, { limit: 2 });
  expect(first.data.map((a) => a.id)).toEqual([data[0]!.id, data[1]!.id]);
  expect(first.nextCursor).not.toBeNull();
  const rest = await client.history.list(channel.id, { limit: 2, cursor: first.nextCursor! });
  expect(rest.data.map((a) => a.id)).toEqual([data[2]!.id]);
  const all: string[] = [];
  for await (const action of client.history.listAll(channel.id, { limit: 1 })) all.push(action.id);
  expect(all).toEqual(data.map((a) => a.id));
});

it('runs a rundown over the live socket: creates, play next, update, undo and redo; state has rundowns and schedule', async () => {
  const { channel, scene } = await strapChannel('SDK live rundown');
  const live = client.live(channel.id);
  try {
    await live.ready(15_000);
    const { rundown } = await live.rundowns.create({ name: 'Live' });
    expect(rundown).toMatchObject({ channelId: channel.id, name: 'Live', items: [] });
    const renamed = await live.rundowns.update(rundown.id, { name: 'Live show', version: rundown.version });
    expect(renamed.rundown).toMatchObject({ name: 'Live show', version: rundown.version + 1 });
    const { item: anna } = await live.rundowns.addItem(rundown.id, { sceneId: scene.id, values: { name: 'Anna' } });
    const { item: ben } = await live.rundowns.addItem(rundown.id, { sceneId: scene.id, values: { name: 'Ben' } });
    expect(anna).toMatchObject({ sceneId: scene.id, values: { name: 'Anna' }, state: 'ready' });
    const focused = await live.rundowns.focus(rundown.id, { move: 'first' });
    expect(focused.rundown.focus).toBe(anna.id);
    await live.waitFor((s) => s.rundowns[rundown.id]?.items.length === 2, 10_000);

    const { frame } = await live.rundowns.playNext(rundown.id);
    const played = await live.waitFor((s) => s.frame >= frame && s.program.length === 1, 10_000);
    expect(played.program).toMatchObject([{ itemId: anna.id, values: { name: 'Anna' } }]);
    await live.waitFor((s) => s.rundowns[rundown.id]?.items[0]?.state === 'program', 10_000);
    await live.update({ values: { name: 'Anna (live)' } });
    await live.waitFor((s) => s.program[0]?.values.name === 'Anna (live)', 10_000);
    await live.undo();
    await live.waitFor((s) => s.program[0]?.values.name === 'Anna', 10_000);
    await live.undo();
    await live.waitFor((s) => s.program.length === 0, 10_000);
    await live.redo();
    await live.waitFor((s) => s.program[0]?.itemId === anna.id, 10_000);

    // Cue and cut take an instance: a scene with its values, or a rundown item.
    await live.preview({ sceneId: scene.id, values: { name: 'Guest' } });
    await live.waitFor((s) => s.preview[0]?.values.name === 'Guest', 10_000);
    await live.program({ itemId: ben.id });
    await live.waitFor((s) => s.program[0]?.itemId === ben.id && s.program[0]?.values.name === 'Ben', 10_000);
    await expect(live.continue()).rejects.toMatchObject({ code: 'unknown_trigger' });
    await live.rundowns.stop(rundown.id, { itemId: ben.id });
    await live.waitFor((s) => s.program.length === 0, 10_000);

    const scheduled = await client.schedule.create(channel.id, {
      at: new Date(Date.now() + 600_000),
      op: { kind: 'take' },
    });
    await live.waitFor((s) => s.schedule.some((op) => op.id === scheduled.id), 10_000);
    const copy = await live.rundowns.duplicateItem(rundown.id, ben.id);
    const { item: edited } = await live.rundowns.updateItem(rundown.id, copy.item.id, {
      label: 'Copy',
      version: copy.item.version,
    });
    expect(edited.label).toBe('Copy');
    await live.rundowns.deleteItem(rundown.id, copy.item.id);
    await live.rundowns.delete(rundown.id);
    await live.waitFor((s) => s.rundowns[rundown.id] === undefined, 10_000);
  } finally {
    live.close();
  }
});
