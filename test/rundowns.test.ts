/**
 * Show preparation over REST and the WebSocket (docs/rundowns.md): instances with their own values on preview and
 * program, update on air, rundowns with shared focus and versioned edits, play next, stop, take at a time, undo and
 * redo, and who did each thing. A real server, real renderer sockets.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type Channel, type Scene, type State } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

interface Item {
  id: string;
  sceneId: string;
  values: Record<string, unknown>;
  label: string;
  state: string;
  version: number;
  durationMs: number | null;
}
interface Rundown {
  id: string;
  name: string;
  items: Item[];
  focus: string | null;
  version: number;
}

let server: TestServer;
let call: Api;
let channelId: string;
let strap: Scene;

/** A lower third whose name and title belong to each instance (item inputs). */
async function itemStrap(): Promise<Scene> {
  const scene = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    201,
  );
  const definition = scene.definition as { inputs: { name: string; scope?: string }[] };
  for (const input of definition.inputs) if (input.name === 'name' || input.name === 'title') input.scope = 'item';
  return expectStatus(
    await call<Scene>('PUT', `/v1/channels/${channelId}/scenes/${scene.id}`, { name: 'Strap', definition }),
    200,
  );
}

beforeEach(async () => {
  server = await startTestServer();
  call = api(() => server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Show' }), 201);
  channelId = channel.id;
  strap = await itemStrap();
});

afterEach(async () => {
  await server.dispose();
});

const path = (rest: string) => `/v1/channels/${channelId}/${rest}`;
const post = async <T = State>(rest: string, body?: object, status = 200) =>
  expectStatus(await call<T>('POST', path(rest), body), status);

it('keeps program and preview values apart: cue B while A is on air, take moves B with its values', async () => {
  await post('program', { sceneId: strap.id, values: { name: 'Anna A' } });
  const cued = await post('preview', { sceneId: strap.id, values: { name: 'Ben B', title: 'Coach' } });
  expect(cued.program[0]).toMatchObject({ sceneId: strap.id, itemId: null, values: { name: 'Anna A' } });
  expect(cued.preview[0]).toMatchObject({ sceneId: strap.id, values: { name: 'Ben B', title: 'Coach' } });
  const taken = await post('take');
  expect(taken.program[0]?.values).toEqual({ name: 'Ben B', title: 'Coach' });
  expect(taken.preview).toEqual([]);
  // A channel input is not an instance's: it is set with PATCH …/inputs.
  expectProblem(
    await call('POST', path('preview'), { sceneId: strap.id, values: { accent: '#000000' } }),
    400,
    'invalid_request',
  );
  expectProblem(
    await call('POST', path('preview'), { sceneId: strap.id, values: { nmae: 'x' } }),
    400,
    'unknown_input',
  );
  expectProblem(
    await call('POST', path('preview'), { sceneId: strap.id, values: { name: 5 } }),
    400,
    'invalid_request',
  );
});

it('updates on air at the next frame with its own event and actor; an item edit never reaches program', async () => {
  const rundown = await post<Rundown>('rundowns', { name: 'Match' }, 201);
  const item = await post<Item>(`rundowns/${rundown.id}/items`, { sceneId: strap.id, values: { name: 'Anna A' } }, 201);
  await post(`rundowns/${rundown.id}/play-next`);
  const edited = expectStatus(
    await call<Item>('PATCH', path(`rundowns/${rundown.id}/items/${item.id}`), {
      values: { name: 'Typo fixed' },
      version: 1,
    }),
    200,
  );
  expect(edited.version).toBe(2);
  expect((await getState(call, channelId)).program[0]?.values).toEqual({ name: 'Anna A' });

  const renderer = await RenderClient.connect(server.url, channelId, { key: server.key });
  await renderer.next((m) => m.type === 'snapshot');
  const since = renderer.mark();
  const updated = await post('update', { values: { name: 'Anna Updated' } });
  expect(updated.program[0]).toMatchObject({ itemId: item.id, values: { name: 'Anna Updated' } });
  await renderer.next(
    (m) =>
      m.type === 'frame' &&
      (m as { program?: { values: Record<string, unknown> }[] }).program?.[0]?.values.name === 'Anna Updated',
    { since },
  );
  renderer.close();
  const events = expectStatus(
    await call<{ data: { type: string; data: Record<string, unknown> }[] }>(
      'GET',
      `/v1/events?channelId=${channelId}&limit=100`,
    ),
    200,
  );
  const onAir = events.data.find((e) => e.type === 'channel.updated_on_air');
  expect(onAir?.data).toMatchObject({
    values: { name: 'Anna Updated' },
    previous: { name: 'Anna A' },
    actor: { type: 'key' },
  });
  expectProblem(await call('POST', path('update'), { layer: 3, values: { name: 'x' } }), 404, 'not_found');
});

it('runs a rundown: items with states, shared focus, cue, take, play next, stop, duplicate, reorder, delete', async () => {
  const rundown = await post<Rundown>('rundowns', { name: 'Match' }, 201);
  const a = await post<Item>(
    `rundowns/${rundown.id}/items`,
    { sceneId: strap.id, values: { name: 'A' }, label: 'Host' },
    201,
  );
  const b = await post<Item>(`rundowns/${rundown.id}/items`, { sceneId: strap.id, values: { name: 'B' } }, 201);
  const c = await post<Item>(`rundowns/${rundown.id}/items/${b.id}/duplicate`, undefined, 201);
  expect(c).toMatchObject({ values: { name: 'B' }, state: 'ready', version: 1 });
  const read = async () => expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200);
  expect((await read()).items.map((i) => i.id)).toEqual([a.id, b.id, c.id]);
  expect((await read()).focus).toBe(a.id);

  const cued = await post(`rundowns/${rundown.id}/cue`);
  expect(cued.preview[0]).toMatchObject({ itemId: a.id, values: { name: 'A' } });
  expect((await read()).items[0]?.state).toBe('preview');
  await post('take');
  expect((await read()).items[0]?.state).toBe('program');

  // Focus moves for everyone; play next plays the item after the one on air, and moves on.
  expectStatus(await call<Rundown>('POST', path(`rundowns/${rundown.id}/focus`), { move: 'next' }), 200);
  const played = await post(`rundowns/${rundown.id}/play-next`);
  expect(played.program[0]).toMatchObject({ itemId: b.id, values: { name: 'B' } });
  let now = await read();
  expect(now.items.map((i) => i.state)).toEqual(['done', 'program', 'ready']);
  expect(now.focus).toBe(c.id);

  const stopped = await post(`rundowns/${rundown.id}/stop`, { itemId: b.id });
  expect(stopped.program).toEqual([]);
  now = await read();
  expect(now.items[1]?.state).toBe('done');

  // Reorder: c first. Delete: a.
  expectStatus(await call('PATCH', path(`rundowns/${rundown.id}/items/${c.id}`), { position: 0, version: 1 }), 200);
  expect((await read()).items.map((i) => i.id)).toEqual([c.id, a.id, b.id]);
  expectStatus(await call('DELETE', path(`rundowns/${rundown.id}/items/${a.id}`)), 204);
  expect((await read()).items.map((i) => i.id)).toEqual([c.id, b.id]);
  expectProblem(await call('POST', path(`rundowns/${rundown.id}/cue`), { itemId: 'it_nope' }), 404, 'not_found');
  expectProblem(await call('POST', path(`rundowns/rd_nope/cue`)), 404, 'not_found');
});

it('answers a stale edit with 409 version_conflict and the current item, changing nothing', async () => {
  const rundown = await post<Rundown>('rundowns', { name: 'Match' }, 201);
  const item = await post<Item>(`rundowns/${rundown.id}/items`, { sceneId: strap.id, values: { name: 'A' } }, 201);
  const itemPath = path(`rundowns/${rundown.id}/items/${item.id}`);
  expectStatus(await call('PATCH', itemPath, { label: 'First operator', version: 1 }), 200);
  const res = await call<{ code: string; current: Item; version: number }>('PATCH', itemPath, {
    label: 'Second',
    version: 1,
  });
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({
    code: 'version_conflict',
    version: 2,
    current: { label: 'First operator', version: 2 },
  });
  const rundownNow = expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200);
  expect(rundownNow.items[0]?.label).toBe('First operator');
  const renamed = await call('PATCH', path(`rundowns/${rundown.id}`), { name: 'Other', version: 99 });
  expect(renamed.status).toBe(409);
});

it('refuses an item whose scene was deleted, with a clear conflict', async () => {
  const other = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Bug', template: 'logo-bug' }), 201);
  const rundown = await post<Rundown>('rundowns', { name: 'Match' }, 201);
  const item = await post<Item>(`rundowns/${rundown.id}/items`, { sceneId: other.id }, 201);
  expectStatus(await call('DELETE', path(`scenes/${other.id}`)), 204);
  expectProblem(await call('POST', path(`rundowns/${rundown.id}/cue`), { itemId: item.id }), 409, 'conflict');
});

it('undoes a take, a clear-all and a value change, and redoes them; nothing to undo is a 409', async () => {
  const score = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Score', template: 'scoreboard' }), 201);
  expectProblem(await call('POST', path('undo')), 409, 'nothing_to_undo');
  await post('program', { sceneId: score.id });
  await post('preview', { sceneId: strap.id, values: { name: 'Next' } });
  const beforeTake = await getState(call, channelId);
  await post('take');
  const undone = await post('undo');
  expect(undone.program.map(({ sceneId, itemId, values }) => ({ sceneId, itemId, values }))).toEqual(
    beforeTake.program.map(({ sceneId, itemId, values }) => ({ sceneId, itemId, values })),
  );
  expect(undone.preview).toEqual(beforeTake.preview);
  const redone = await post('redo');
  expect(redone.program.map((e) => e.sceneId).sort()).toEqual([score.id, strap.id].sort());

  const beforeClear = await getState(call, channelId);
  await post('clear');
  const back = await post('undo');
  expect(back.program.map((e) => [e.sceneId, e.values])).toEqual(beforeClear.program.map((e) => [e.sceneId, e.values]));

  expectStatus(await call('PATCH', path('inputs'), { scoreA: 3 }), 200);
  expect((await post('undo')).inputs.scoreA).toBe(0);
  expect((await post('redo')).inputs.scoreA).toBe(3);
});

it('lists the history with who did each action, and undoes across a restart from the stored history', async () => {
  const score = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Score', template: 'scoreboard' }), 201);
  await post('program', { sceneId: strap.id, values: { name: 'On air' } });
  await post('update', { values: { name: 'Updated' } });
  await post('preview', { sceneId: score.id });
  await post('take');
  interface Action {
    id: string;
    kind: string;
    actor: { type: string; id: string };
    of?: string;
  }
  const history = expectStatus(await call<{ data: Action[] }>('GET', path('history')), 200).data;
  expect(history.map((a) => a.kind)).toEqual(['take', 'cue', 'update', 'cut']);
  for (const a of history) expect(a.actor.type).toBe('key');

  await server.restart();
  const undone = await post('undo');
  expect(undone.program.map((e) => e.sceneId)).toEqual([strap.id]);
  expect(undone.preview.map((e) => e.sceneId)).toEqual([score.id]);
  const after = expectStatus(await call<{ data: Action[] }>('GET', path('history')), 200).data;
  expect(after[0]).toMatchObject({ kind: 'undo', of: history[0]!.id });
  // Paged, newest first.
  const page = expectStatus(
    await call<{ data: Action[]; nextCursor: string | null }>('GET', path('history?limit=2')),
    200,
  );
  expect(page.data.map((a) => a.id)).toEqual(after.slice(0, 2).map((a) => a.id));
  expect(page.nextCursor).not.toBeNull();
});
