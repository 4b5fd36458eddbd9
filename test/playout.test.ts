/**
 * Playout (docs/api.md, "Playout"): each bus holds one scene per layer. Cue into preview, take every cued layer (or
 * one) to air, cut straight to air, clear a layer, a scene or everything, and what a scene on a bus forbids (deleting
 * it, moving it to another layer). REST answers and renderer snapshots/frames must agree.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  addScoreboard,
  api,
  expectStatus,
  getState,
  stableState,
  type Api,
  type Channel,
  type Scene,
  type State,
} from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { isFrame, RenderClient, type FrameMessage } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let channelId: string;
/** The scoreboard template draws on layer 10, the lower third on layer 20. */
let score: Scene;
let score2: Scene;
let strap: Scene;
let renderer: RenderClient;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Playout' }), 201);
  channelId = channel.id;
  score = await addScoreboard(call, channelId);
  score2 = await addScoreboard(call, channelId, 'Score 2');
  strap = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    201,
  );
  // Adding a scene is answered before the tick that publishes it; a playout op waits for a tick, so after
  // this (a no-op: nothing is on air) the scenes are committed and the state no longer moves on its own.
  expectStatus(await call('POST', `/v1/channels/${channelId}/clear`), 200);
  const token = new URL(channel.outputUrl).searchParams.get('token')!;
  renderer = await RenderClient.connect(server.url, channelId, { token });
  await renderer.next((m) => m.type === 'snapshot');
});

afterEach(async () => {
  renderer.close();
  await server.dispose();
});

const path = (op: string) => `/v1/channels/${channelId}/${op}`;

/** POSTs a playout op, expects 200 with a State, and returns the frame renderers got for it. */
async function playout(op: string, body?: object): Promise<{ state: State; frame: FrameMessage }> {
  const since = renderer.mark();
  const state = expectStatus(await call<State>('POST', path(op), body), 200);
  expect(stableState(state)).toEqual(stableState(await getState(call, channelId)));
  const frame = await renderer.next<FrameMessage>((m) => isFrame(m) && m.frame === state.frame, { since });
  return { state, frame };
}

const scenesOf = (bus: { sceneId: string }[]) => bus.map((e) => e.sceneId);

it('starts with nothing on air and nothing cued', async () => {
  expect(score.layer).toBe(10);
  expect(strap.layer).toBe(20);
  expect(renderer.mirror).toMatchObject({ program: [], preview: [] });
  expect(await getState(call, channelId)).toMatchObject({ program: [], preview: [] });
});

it('cues a scene into preview on its layer, replacing what was cued there, without putting it on air', async () => {
  await playout('preview', { sceneId: strap.id });
  const { state, frame } = await playout('preview', { sceneId: score.id });
  expect(state).toMatchObject({ program: [] });
  expect(state.preview).toEqual([
    { sceneId: score.id, layer: 10, itemId: null, values: {} },
    { sceneId: strap.id, layer: 20, itemId: null, values: {} },
  ]);
  expect(frame.preview).toEqual(state.preview);
  expect(frame).not.toHaveProperty('program');

  await playout('preview', { sceneId: score2.id });
  expect(renderer.mirror!.preview).toEqual([
    { sceneId: score2.id, layer: 10, itemId: null, values: {} },
    { sceneId: strap.id, layer: 20, itemId: null, values: {} },
  ]);
});

it('takes every cued layer to air in one frame and empties preview', async () => {
  await playout('preview', { sceneId: strap.id });
  await playout('preview', { sceneId: score.id });
  const since = renderer.mark();
  const { state, frame } = await playout('take');

  expect(scenesOf(state.program)).toEqual([score.id, strap.id]);
  expect(state.program.map((e) => e.layer)).toEqual([10, 20]);
  expect(Date.parse(state.program[0]!.since)).not.toBeNaN();
  expect(state.preview).toEqual([]);
  expect(frame.program).toEqual(state.program);
  expect(frame.preview).toEqual([]);
  // A take animates every layer (no cut).
  expect(frame).not.toHaveProperty('cutLayers');
  expect(renderer.messages.slice(since).filter(isFrame)).toHaveLength(1);
  expect(renderer.mirror).toMatchObject({ program: state.program, preview: [] });
});

it('takes one layer only; a layer with nothing cued is 409 preview_empty', async () => {
  await playout('preview', { sceneId: strap.id });
  await playout('preview', { sceneId: score.id });
  const { state } = await playout('take', { layer: 20 });
  expect(scenesOf(state.program)).toEqual([strap.id]);
  expect(state.preview).toEqual([{ sceneId: score.id, layer: 10, itemId: null, values: {} }]);
  expectProblem(await call('POST', path('take'), { layer: 20 }), 409, 'preview_empty');
});

it('takes and clears with no body, with or without a JSON Content-Type, and refuses any other body', async () => {
  const json = { headers: { 'content-type': 'application/json' } };
  await playout('preview', { sceneId: strap.id });
  expect(scenesOf(expectStatus(await call<State>('POST', path('take'), undefined, json), 200).program)).toEqual([
    strap.id,
  ]);
  expect(expectStatus(await call<State>('POST', path('clear'), undefined, json), 200).program).toEqual([]);
  await playout('preview', { sceneId: strap.id });
  expect(scenesOf(expectStatus(await call<State>('POST', path('take'), {}), 200).program)).toEqual([strap.id]);
  expectProblem(await call('POST', path('clear'), { layer: 'all' }), 400, 'invalid_request');
  expectProblem(await call('POST', path('clear'), undefined, { raw: '[]' }), 400, 'invalid_request');
  expect(scenesOf((await getState(call, channelId)).program)).toEqual([strap.id]);
});

it('refuses take with an empty preview with 409 preview_empty, changing nothing', async () => {
  const before = stableState(await getState(call, channelId));
  const since = renderer.mark();

  expectProblem(await call('POST', path('take')), 409, 'preview_empty');

  expect(stableState(await getState(call, channelId))).toEqual(before);
  expect(await renderer.collectFor(100, since)).toEqual([]);
});

it('cuts a scene straight to air on its layer, replacing what was there alone, and leaves preview alone', async () => {
  await playout('preview', { sceneId: score2.id });
  await playout('program', { sceneId: strap.id });
  await playout('program', { sceneId: score.id });
  expect(renderer.mirror!.program.map((e) => e.sceneId)).toEqual([score.id, strap.id]);

  const { state, frame } = await playout('program', { sceneId: score2.id });
  expect(scenesOf(state.program)).toEqual([score2.id, strap.id]);
  expect(state.preview).toEqual([{ sceneId: score2.id, layer: 10, itemId: null, values: {} }]);
  expect(frame.cutLayers).toEqual([10]);
  expect(frame.program).toEqual(state.program);
});

it('refuses to cue or cut a scene of another channel with 404', async () => {
  const other = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
  const foreign = await addScoreboard(call, other.id);
  const before = stableState(await getState(call, channelId));

  expectProblem(await call('POST', path('program'), { sceneId: foreign.id }), 404, 'not_found');
  expectProblem(await call('POST', path('preview'), { sceneId: 'sc_nope' }), 404, 'not_found');

  expect(stableState(await getState(call, channelId))).toEqual(before);
});

it('clears a layer, a scene, or the whole air', async () => {
  await playout('program', { sceneId: score.id });
  await playout('program', { sceneId: strap.id });
  expect(scenesOf((await playout('clear', { layer: 20 })).state.program)).toEqual([score.id]);
  await playout('program', { sceneId: strap.id });
  expect(scenesOf((await playout('clear', { sceneId: score.id })).state.program)).toEqual([strap.id]);
  await playout('program', { sceneId: score.id });
  const { state, frame } = await playout('clear');
  expect(state.program).toEqual([]);
  expect(frame.program).toEqual([]);
  expect(renderer.mirror!.program).toEqual([]);
});

it('refuses to delete a scene on program or in preview (409); once off both, deleting removes its inputs', async () => {
  await playout('program', { sceneId: strap.id });
  await playout('preview', { sceneId: strap.id });
  const onAir = expectProblem(await call('DELETE', `/v1/channels/${channelId}/scenes/${strap.id}`), 409, 'conflict');
  expect(onAir.detail).toMatch(/on program on layer 20 and in preview on layer 20/);

  await playout('clear');
  await playout('take');
  await playout('clear');
  expect(await getState(call, channelId)).toMatchObject({ program: [], preview: [] });
  // A renderer holds only the definitions of scenes on a bus: the strap's went when it left both.
  expect(Object.keys(renderer.mirror!.scenes)).toEqual([]);
  const since = renderer.mark();
  expectStatus(await call('DELETE', `/v1/channels/${channelId}/scenes/${strap.id}`), 204);

  const frame = await renderer.next<FrameMessage>((m) => isFrame(m) && m.removedInputs !== undefined, { since });
  expect(frame.removedScenes).toBeUndefined();
  expect(frame.removedInputs).toEqual(['name', 'title', 'accent']);
  expect(renderer.mirror!.inputs).not.toHaveProperty('title');
  // Its inputs went with it: no scene of the channel declares them any more.
  expect(Object.keys((await getState(call, channelId)).inputs)).not.toContain('title');
  expectProblem(await call('PATCH', `/v1/channels/${channelId}/inputs`, { title: 'x' }), 400, 'unknown_input');
});

it('refuses to move a scene on a bus to another layer (409), and allows it once the scene is off the buses', async () => {
  const scene = expectStatus(
    await call<Scene & { definition: Record<string, unknown> }>('GET', `/v1/channels/${channelId}/scenes/${strap.id}`),
    200,
  );
  const moved = { definition: { ...scene.definition, layer: 42 } };
  await playout('preview', { sceneId: strap.id });

  const refused = expectProblem(
    await call('PUT', `/v1/channels/${channelId}/scenes/${strap.id}`, moved),
    409,
    'conflict',
  );
  expect(refused.detail).toMatch(/in preview on layer 20.*from 20 to 42/);
  // The same definition on its own layer is still accepted.
  expectStatus(
    await call('PUT', `/v1/channels/${channelId}/scenes/${strap.id}`, { definition: scene.definition }),
    200,
  );

  await playout('take');
  await playout('clear');
  const put = expectStatus(await call<Scene>('PUT', `/v1/channels/${channelId}/scenes/${strap.id}`, moved), 200);
  expect(put.layer).toBe(42);
  const { state } = await playout('preview', { sceneId: strap.id });
  expect(state.preview).toEqual([{ sceneId: strap.id, layer: 42, itemId: null, values: {} }]);
});

it('gives a renderer that connects later the buses in its snapshot', async () => {
  await playout('preview', { sceneId: strap.id });
  await playout('program', { sceneId: score.id });
  const token = new URL(
    expectStatus(await call<Channel>('GET', `/v1/channels/${channelId}`), 200).outputUrl,
  ).searchParams.get('token')!;
  const late = await RenderClient.connect(server.url, channelId, { token });
  try {
    await late.next((m) => m.type === 'snapshot');
    expect(late.mirror).toEqual(renderer.mirror);
    expect(late.mirror).toMatchObject({
      program: [{ sceneId: score.id, layer: 10 }],
      preview: [{ sceneId: strap.id, layer: 20 }],
    });
  } finally {
    late.close();
  }
});
