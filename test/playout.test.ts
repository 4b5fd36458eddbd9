/**
 * Playout (docs/api.md, "Playout"): cue into preview, take to air, cut straight to air, clear, and what deleting a
 * scene does to the buses. REST answers and renderer snapshots/frames must agree.
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
let score: Scene;
let strap: Scene;
let renderer: RenderClient;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Playout' }), 201);
  channelId = channel.id;
  score = await addScoreboard(call, channelId);
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

/** POSTs a playout op, expects 200 with a State, and returns the frame renderers got for it. */
async function playout(op: string, body?: object): Promise<{ state: State; frame: FrameMessage }> {
  const since = renderer.mark();
  const state = expectStatus(await call<State>('POST', `/v1/channels/${channelId}/${op}`, body), 200);
  expect(stableState(state)).toEqual(stableState(await getState(call, channelId)));
  const frame = await renderer.next<FrameMessage>((m) => isFrame(m) && m.frame === state.frame, { since });
  return { state, frame };
}

it('starts with nothing on air and nothing cued', async () => {
  expect(renderer.mirror).toMatchObject({ program: null, preview: null });
  expect(await getState(call, channelId)).toMatchObject({ program: null, preview: null });
});

it('cues a scene into preview without putting it on air', async () => {
  const { state, frame } = await playout('preview', { sceneId: score.id });
  expect(state).toMatchObject({ preview: { sceneId: score.id }, program: null });
  expect(frame.preview).toEqual({ sceneId: score.id });
  expect(frame).not.toHaveProperty('program');
  expect(renderer.mirror).toMatchObject({ preview: { sceneId: score.id }, program: null });
});

it('takes the cued scene to air', async () => {
  await playout('preview', { sceneId: strap.id });
  const { state, frame } = await playout('take');

  expect(state.program?.sceneId).toBe(strap.id);
  expect(Date.parse(state.program!.since)).not.toBeNaN();
  expect(frame.program).toEqual(state.program);
  expect(renderer.mirror!.program).toEqual(state.program);
});

it('takes and clears with no body, with or without a JSON Content-Type, and refuses any other body', async () => {
  const json = { headers: { 'content-type': 'application/json' } };
  const path = (op: string) => `/v1/channels/${channelId}/${op}`;
  await playout('preview', { sceneId: strap.id });
  expect(expectStatus(await call<State>('POST', path('take'), undefined, json), 200).program?.sceneId).toBe(strap.id);
  expect(expectStatus(await call<State>('POST', path('clear'), undefined, json), 200).program).toBeNull();
  await playout('preview', { sceneId: strap.id });
  expect(expectStatus(await call<State>('POST', path('take'), {}), 200).program?.sceneId).toBe(strap.id);
  expectProblem(await call('POST', path('clear'), { layer: 'all' }), 400, 'invalid_request');
  expectProblem(await call('POST', path('clear'), undefined, { raw: '[]' }), 400, 'invalid_request');
  expect((await getState(call, channelId)).program?.sceneId).toBe(strap.id);
});

it('refuses take with an empty preview with 409 preview_empty, changing nothing', async () => {
  const before = stableState(await getState(call, channelId));
  const since = renderer.mark();

  expectProblem(await call('POST', `/v1/channels/${channelId}/take`), 409, 'preview_empty');

  expect(stableState(await getState(call, channelId))).toEqual(before);
  expect(await renderer.collectFor(100, since)).toEqual([]);
});

it('cuts a scene straight to air, replacing what was there, and leaves preview alone', async () => {
  await playout('preview', { sceneId: strap.id });
  await playout('program', { sceneId: score.id });
  expect(renderer.mirror).toMatchObject({ program: { sceneId: score.id }, preview: { sceneId: strap.id } });

  const { state, frame } = await playout('program', { sceneId: strap.id });
  expect(state).toMatchObject({ program: { sceneId: strap.id }, preview: { sceneId: strap.id } });
  expect(frame.program?.sceneId).toBe(strap.id);
});

it('refuses to cue or cut a scene of another channel with 404', async () => {
  const other = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
  const foreign = await addScoreboard(call, other.id);
  const before = stableState(await getState(call, channelId));

  expectProblem(await call('POST', `/v1/channels/${channelId}/program`, { sceneId: foreign.id }), 404, 'not_found');
  expectProblem(await call('POST', `/v1/channels/${channelId}/preview`, { sceneId: 'sc_nope' }), 404, 'not_found');

  expect(stableState(await getState(call, channelId))).toEqual(before);
});

it('clears the air', async () => {
  await playout('program', { sceneId: score.id });
  const { state, frame } = await playout('clear');
  expect(state.program).toBeNull();
  expect(frame.program).toBeNull();
  expect(renderer.mirror!.program).toBeNull();
});

it('takes the on-air scene off air when it is deleted, and out of preview too', async () => {
  await playout('preview', { sceneId: score.id });
  await playout('program', { sceneId: score.id });
  const since = renderer.mark();

  expectStatus(await call('DELETE', `/v1/channels/${channelId}/scenes/${score.id}`), 204);

  const frame = await renderer.next<FrameMessage>((m) => isFrame(m) && m.removedScenes !== undefined, { since });
  expect(frame.removedScenes).toEqual([score.id]);
  expect(frame.program).toBeNull();
  expect(frame.preview).toBeNull();
  expect(await getState(call, channelId)).toMatchObject({ program: null, preview: null });
  expect(renderer.mirror).toMatchObject({ program: null, preview: null });
  expect(Object.keys(renderer.mirror!.scenes)).toEqual([strap.id]);
  // Its inputs went with it: no scene of the channel declares them any more.
  expect(Object.keys((await getState(call, channelId)).inputs)).toEqual(['name', 'title', 'accent']);
  const patch = await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 });
  expectProblem(patch, 400, 'unknown_input');
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
    expect(late.mirror).toMatchObject({ program: { sceneId: score.id }, preview: { sceneId: strap.id } });
  } finally {
    late.close();
  }
});
