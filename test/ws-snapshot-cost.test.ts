/**
 * What snapshots cost (docs/api.md, "Real-time WebSocket", "Ordering and resync", "Slow consumers"). A `scenes=all`
 * snapshot carries every scene's whole definition: with 50 scenes of about 60 KB it is 3 MB, and a connection may ask
 * for 10 in 10 s.
 * The server serialises a channel's scenes once per change, not once per snapshot; these tests check that what it
 * sends still follows every change, and that a connection asking for snapshots it does not read is closed with 4100
 * once they pile up, instead of the server queueing all of them.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Scene } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { openConnections, RenderClient, type SnapshotMessage, type WsAuth } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let channelId: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId } = await createChannelWithScoreboard(call));
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(auth: WsAuth): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

/** A valid definition of about `kb` KB: text elements of 3,900 characters each. */
function definitionOf(kb: number, label: string): object {
  const elements = Array.from({ length: Math.ceil(kb / 4) }, (_, i) => ({
    type: 'text',
    x: 0,
    y: i * 10,
    width: 100,
    height: 10,
    text: `${label}:${i}:`.padEnd(3_900, '~'),
    fontFamily: 'Oswald',
    fontSize: 12,
    color: '#ffffff',
  }));
  return { layer: 50, elements };
}

async function addScene(name: string, kb: number): Promise<Scene> {
  const body = { name, definition: definitionOf(kb, name) };
  return expectStatus(await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, body), 201);
}

async function listedScenes(): Promise<{ id: string; name: string; definition: unknown }[]> {
  const list = expectStatus(await call<{ data: Scene[] }>('GET', `/v1/channels/${channelId}/scenes`), 200);
  return list.data.map((s) => ({ id: s.id, name: s.name, definition: s.definition }));
}

/** The next snapshot received from `since` on, after asking for one. */
async function resync(client: RenderClient): Promise<SnapshotMessage> {
  const since = client.mark();
  client.send({ op: 'resync' });
  return client.next<SnapshotMessage>((m) => m.type === 'snapshot', { since });
}

const byId = <T extends { id: string }>(scenes: T[]) => [...scenes].sort((a, b) => a.id.localeCompare(b.id));

it('sends scenes=all snapshots whose scenes follow every change: added, replaced, renamed, deleted', async () => {
  const renderer = await connect({ key: server.key, scenes: 'all' });
  const strap = await addScene('Strap', 8);
  expect(byId((await resync(renderer)).scenes)).toEqual(byId(await listedScenes()));

  const put = { name: 'Strap 2', definition: definitionOf(8, 'changed') };
  expectStatus(await call('PUT', `/v1/channels/${channelId}/scenes/${strap.id}`, put), 200);
  const afterPut = await resync(renderer);
  expect(afterPut.scenes.find((s) => s.id === strap.id)).toMatchObject(put);
  expect(byId(afterPut.scenes)).toEqual(byId(await listedScenes()));

  expectStatus(await call('DELETE', `/v1/channels/${channelId}/scenes/${strap.id}`), 204);
  const late = await connect({ key: server.key, scenes: 'all' });
  expect(byId(late.mirror ? Object.values(late.mirror.scenes) : [])).toEqual(byId(await listedScenes()));
  expect(byId((await resync(renderer)).scenes)).toEqual(byId(await listedScenes()));
});

it('closes a connection with 4100 when the snapshots it asks for pile up unread', async () => {
  for (let i = 0; i < 50; i++) await addScene(`Scene ${i}`, 60);
  const reader = await connect({ key: server.key, scenes: 'all' });
  const snapshotBytes = reader.bytesReceived;
  expect(snapshotBytes).toBeGreaterThan(2_900_000);

  // A reader that asks and asks but reads nothing: 10 resyncs (the most allowed) would be 30 MB.
  const greedy = await connect({ key: server.key, scenes: 'all' });
  greedy.pause();
  for (let i = 0; i < 10; i++) greedy.send({ op: 'resync' });
  await expect.poll(async () => (await openConnections(server.url)).key, { timeout: 10_000 }).toBe(1);

  greedy.resume();
  expect(await greedy.closed).toEqual({ code: 4100, reason: 'slow consumer: reconnect and resync' });
  const snapshots = greedy.messages.filter((m) => m.type === 'snapshot').length;
  expect(snapshots, 'the server stopped queueing snapshots for it').toBeLessThan(11);
  expect(greedy.bytesReceived).toBeLessThan(11 * snapshotBytes);

  // The connection that reads is served as before, whole snapshots included.
  expect((await resync(reader)).scenes).toHaveLength(51);
  expect(reader.readyState).toBe(1);
});
