/**
 * Which scene definitions a connection is sent (docs/api.md, "Real-time WebSocket", "Connecting"): by default only the
 * scenes on program or preview; with `scenes=all` (keys and sessions only), every scene. A renderer of a channel with
 * many scenes must not pay for the ones that are not on air.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addScoreboard, api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  isFrame,
  RenderClient,
  UpgradeRefused,
  type FrameMessage,
  type SnapshotMessage,
  type WsAuth,
} from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let channelId: string;
let token: string;
let score: Scene;
let strap: Scene;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Scopes' }), 201);
  channelId = channel.id;
  token = new URL(channel.outputUrl).searchParams.get('token')!;
  score = await addScoreboard(call, channelId);
  strap = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    201,
  );
  expectStatus(await call('POST', `/v1/channels/${channelId}/program`, { sceneId: score.id }), 200);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(auth: WsAuth): Promise<{ client: RenderClient; snapshot: SnapshotMessage }> {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  const snapshot = await client.next<SnapshotMessage>((m) => m.type === 'snapshot');
  return { client, snapshot };
}

const ids = (scenes: { id: string }[] | undefined) => (scenes ?? []).map((s) => s.id).sort();

/** Runs a REST call and returns the frame `client` got for it (the one with the answer's frame number). */
async function frameFor(client: RenderClient, method: string, op: string, body?: object): Promise<FrameMessage> {
  const since = client.mark();
  const answer = expectStatus(await call<{ frame: number }>(method, `/v1/channels/${channelId}/${op}`, body), 200);
  return client.next<FrameMessage>((m) => isFrame(m) && m.frame === answer.frame, { since });
}

it('sends a renderer only the scenes on the buses: cued and taken scenes arrive, cleared ones are forgotten', async () => {
  const { client: renderer, snapshot } = await connect({ token });
  const { client: operator, snapshot: full } = await connect({ key: server.key, scenes: 'all' });
  expect(ids(snapshot.scenes)).toEqual([score.id]);
  expect(ids(full.scenes)).toEqual(ids([score, strap]));

  // Cueing the strap brings its definition, to the renderer as to the operator view that already had it.
  const cued = await frameFor(renderer, 'POST', 'preview', { sceneId: strap.id });
  expect(ids(cued.scenes)).toEqual([strap.id]);
  expect(cued.scenes![0]).toEqual({ id: strap.id, name: 'Strap', definition: strap.definition });
  expect(ids(Object.values(renderer.mirror!.scenes))).toEqual(ids([score, strap]));

  // Taking it keeps it on a bus (program now): nothing to send again.
  const taken = await frameFor(renderer, 'POST', 'take');
  expect(taken.scenes).toBeUndefined();
  expect(taken.removedScenes).toBeUndefined();

  // Clearing the score's layer takes it off both buses: the renderer may forget it; the operator view keeps it.
  const cleared = await frameFor(renderer, 'POST', 'clear', { layer: 10 });
  expect(cleared.removedScenes).toEqual([score.id]);
  expect(ids(Object.values(renderer.mirror!.scenes))).toEqual([strap.id]);
  await expect.poll(() => ids(Object.values(operator.mirror!.scenes))).toEqual(ids([score, strap]));
  const operatorFrame = operator.messages.find((m) => isFrame(m) && m.frame === cleared.frame) as FrameMessage;
  expect(operatorFrame.removedScenes).toBeUndefined();

  // Back on air: the definition comes again.
  const back = await frameFor(renderer, 'POST', 'program', { sceneId: score.id });
  expect(ids(back.scenes)).toEqual([score.id]);
});

it('sends a renderer edits of on-bus scenes only; a scenes=all connection gets every edit', async () => {
  const { client: renderer } = await connect({ token });
  const { client: operator } = await connect({ key: server.key, scenes: 'all' });
  const since = { renderer: renderer.mark(), operator: operator.mark() };

  // An edit to the strap, on neither bus.
  const put = { name: 'Strap 2', definition: strap.definition };
  expectStatus(await call('PUT', `/v1/channels/${channelId}/scenes/${strap.id}`, put), 200);
  const seen = await operator.next<FrameMessage>((m) => isFrame(m) && m.scenes !== undefined, {
    since: since.operator,
  });
  expect(seen.scenes).toMatchObject([{ id: strap.id, name: 'Strap 2' }]);
  // The renderer got the same frame (inputs are sent again after any edit), without the definition.
  const same = await renderer.next<FrameMessage>((m) => isFrame(m) && m.frame === seen.frame, {
    since: since.renderer,
  });
  expect(same.scenes).toBeUndefined();
  expect(same.prev).toBe(seen.prev);

  // An edit to the score, on air: the renderer gets it too.
  const mark = renderer.mark();
  const onAir = { name: 'Score 2', definition: score.definition };
  expectStatus(await call('PUT', `/v1/channels/${channelId}/scenes/${score.id}`, onAir), 200);
  const edited = await renderer.next<FrameMessage>((m) => isFrame(m) && m.scenes !== undefined, { since: mark });
  expect(edited.scenes).toMatchObject([{ id: score.id, name: 'Score 2' }]);
});

it('sends a deleted scene that was on no bus to scenes=all connections only', async () => {
  const { client: renderer } = await connect({ token });
  const { client: operator } = await connect({ key: server.key, scenes: 'all' });
  const since = { renderer: renderer.mark(), operator: operator.mark() };
  expectStatus(await call('DELETE', `/v1/channels/${channelId}/scenes/${strap.id}`), 204);
  const gone = await operator.next<FrameMessage>((m) => isFrame(m) && m.removedScenes !== undefined, {
    since: since.operator,
  });
  expect(gone.removedScenes).toEqual([strap.id]);
  const same = await renderer.next<FrameMessage>((m) => isFrame(m) && m.frame === gone.frame, {
    since: since.renderer,
  });
  expect(same.removedScenes).toBeUndefined();
});

it('refuses scenes=all with an output token (403) and an unknown scope (400)', async () => {
  const refusal = async (auth: WsAuth) => {
    const err = await RenderClient.connect(server.url, channelId, auth).then(
      (c) => (c.close(), null),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpgradeRefused);
    const { status, body } = err as UpgradeRefused;
    return { status, code: (JSON.parse(body) as { code: string }).code };
  };
  expect(await refusal({ token, scenes: 'all' })).toEqual({ status: 403, code: 'forbidden' });
  expect(await refusal({ key: server.key, scenes: 'every' })).toEqual({ status: 400, code: 'invalid_request' });
  expect(await refusal({ token, scenes: '' })).toEqual({ status: 400, code: 'invalid_request' });
  // The default, said out loud, is accepted from a token.
  const { snapshot } = await connect({ token, scenes: 'buses' });
  expect(ids(snapshot.scenes)).toEqual([score.id]);
});
