/**
 * Restart on the same data dir (docs/api.md, "Channels" and "Operations"): channels, scenes, input values, clocks and
 * both buses (every layer) come back from SQLite, and renderers that reconnect get them in their snapshot and keep
 * the frame sequence.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  patchInputs,
  stableState,
  type Api,
  type Channel,
  type List,
  type Scene,
} from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { isFrame, RenderClient, type FrameMessage } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(() => server.url, server.key);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(channelId: string, token: string): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channelId, { token });
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

/**
 * Two channels: one on air with values set and its game clock running, one with a scene cued in preview, nothing
 * on air, and its clock set and stopped.
 */
async function populate() {
  const live = await createChannelWithScoreboard(call, 'Live');
  await patchInputs(call, live.channelId, { scoreA: 7, scoreB: 3, home: 'Lions', period: 2 });
  await patchInputs(call, live.channelId, { period: null }); // back to the default: must stay the default
  expectStatus(await call('POST', `/v1/channels/${live.channelId}/clocks/gameClock`, { action: 'start' }), 200);
  const cued = await createChannelWithScoreboard(call, 'Cued');
  const lower = expectStatus(
    await call<Scene>('POST', `/v1/channels/${cued.channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    201,
  );
  expectStatus(await call('POST', `/v1/channels/${cued.channelId}/clear`), 200);
  expectStatus(await call('POST', `/v1/channels/${cued.channelId}/preview`, { sceneId: lower.id }), 200);
  await patchInputs(call, cued.channelId, { name: 'Ada Lovelace', accent: '#00ff88' });
  expectStatus(
    await call('POST', `/v1/channels/${cued.channelId}/clocks/gameClock`, { action: 'set', ms: 90_000 }),
    200,
  );
  return { live, cued, lowerId: lower.id };
}

async function snapshotOfApi(channelIds: string[]) {
  const channels = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200);
  const perChannel = await Promise.all(
    channelIds.map(async (id) => ({
      state: stableState(await getState(call, id)),
      scenes: expectStatus(await call<List<Scene>>('GET', `/v1/channels/${id}/scenes`), 200),
    })),
  );
  // The port is part of the URLs and changes with the restart.
  const urls = (c: Channel) => ({ ...c, outputUrl: new URL(c.outputUrl).search, previewUrl: '' });
  return { channels: channels.data.map(urls), perChannel };
}

it('brings back channels, scenes, inputs and program/preview after a restart', async () => {
  const { live, cued, lowerId } = await populate();
  const before = await snapshotOfApi([live.channelId, cued.channelId]);
  expect(before.channels).toHaveLength(2);
  expect(before.perChannel[0]!.state).toMatchObject({
    program: [{ sceneId: live.sceneId, layer: 10 }],
    inputs: { scoreA: 7, scoreB: 3, home: 'Lions', away: 'AWAY', period: 1 },
    clocks: { gameClock: { running: true, ms: 720_000 } },
  });
  expect(before.perChannel[1]!.state).toMatchObject({
    program: [],
    preview: [{ sceneId: lowerId, layer: 20 }],
    clocks: { gameClock: { running: false, ms: 90_000 } },
  });

  await server.restart();

  expect(await snapshotOfApi([live.channelId, cued.channelId])).toEqual(before);
});

it('gives a reconnecting renderer everything in its snapshot, and frames continue from it', async () => {
  const { live, cued, lowerId } = await populate();
  const first = await connect(live.channelId, live.token);
  const beforeSnapshot = structuredClone(first.mirror!);

  await server.restart();
  // The old socket is closed by the drain; a renderer reconnects to the new address.
  expect((await first.closed).code).toBe(1001);
  const again = await connect(live.channelId, live.token);
  const snapshotFrame = again.mirror!.frame;
  expect(again.mirror).toEqual(beforeSnapshot);
  expect(again.mirror).toMatchObject({
    program: [{ sceneId: live.sceneId, layer: 10 }],
    inputs: { scoreA: 7, scoreB: 3, home: 'Lions', period: 1 },
    clocks: { gameClock: { running: true, ms: 720_000 } },
  });
  expect(Object.keys(again.mirror!.scenes)).toEqual([live.sceneId]);

  const cuedClient = await connect(cued.channelId, cued.token);
  expect(cuedClient.mirror).toMatchObject({
    program: [],
    preview: [{ sceneId: lowerId, layer: 20 }],
    inputs: { name: 'Ada Lovelace', accent: '#00ff88' },
  });

  // The next frame after the restart follows on from the snapshot (no false gap, no silent one).
  const result = await patchInputs(call, live.channelId, { scoreB: 4 });
  const frame = await again.next<FrameMessage>((m) => isFrame(m) && m.frame === result.frame);
  expect(frame.prev).toBe(snapshotFrame);
  expect(again.gaps).toBe(0);
  expect(again.mirror!.inputs.scoreB).toBe(4);
});

it('keeps a rotated output token and refuses the old one after a restart', async () => {
  const { live } = await populate();
  const rotated = expectStatus(await call<Channel>('POST', `/v1/channels/${live.channelId}/output-token`), 200);
  const newToken = new URL(rotated.outputUrl).searchParams.get('token')!;

  await server.restart();

  await expect(RenderClient.connect(server.url, live.channelId, { token: live.token })).rejects.toMatchObject({
    status: 401,
  });
  const client = await connect(live.channelId, newToken);
  expect(client.mirror!.inputs.scoreA).toBe(7);
});

it('forgets a deleted channel and a deleted scene across a restart', async () => {
  const { live, cued, lowerId } = await populate();
  expectStatus(await call('DELETE', `/v1/channels/${live.channelId}`), 204);
  // A scene in preview cannot be deleted: take it to air and clear it first.
  expectStatus(await call('POST', `/v1/channels/${cued.channelId}/take`), 200);
  expectStatus(await call('POST', `/v1/channels/${cued.channelId}/clear`, { sceneId: lowerId }), 200);
  expectStatus(await call('DELETE', `/v1/channels/${cued.channelId}/scenes/${lowerId}`), 204);

  await server.restart();

  const channels = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200);
  expect(channels.data.map((c) => c.id)).toEqual([cued.channelId]);
  expect((await call('GET', `/v1/channels/${live.channelId}/state`)).status).toBe(404);
  const scenes = expectStatus(await call<List<Scene>>('GET', `/v1/channels/${cued.channelId}/scenes`), 200);
  expect(scenes.data.map((s) => s.id)).toEqual([cued.sceneId]);
  expect(await getState(call, cued.channelId)).toMatchObject({ program: [], preview: [] });
});
