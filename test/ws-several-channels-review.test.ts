/**
 * Several channels on one render WebSocket (docs/api.md, "Several channels on one connection"), the cases a review
 * found wrong: each test failed before its fix.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '@onair/protocol';
import { api, createChannelWithScoreboard, expectStatus, patchInputs, type Api } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { serviceGate } from './helpers/services.js';
import { isSnapshot, openConnections, RenderClient, type WsAuth } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
const clients: RenderClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.dispose();
});

async function connect(channels: string, auth: WsAuth = { key: server.key }): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, '', { ...auth, channels });
  clients.push(client);
  return client;
}

describe('a channel created while a channels=* connection is past the slow-consumer line', () => {
  /** Volume, not patch count, overflows a paused reader: loopback's socket buffers take a few MB first. */
  const FLOOD_BYTES = 16 * 1024 * 1024;
  const BULK = Array.from({ length: 32 }, (_, i) => `t${i}`);
  /** Patch n: 16 of the text inputs at 4,000 characters each (≈64 KB of frame). */
  const patchFor = (n: number) => {
    const names = BULK.slice((n % 2) * 16, (n % 2) * 16 + 16);
    return { scoreA: n, ...Object.fromEntries(names.map((name) => [name, `${n}:`.padEnd(4000, '~')])) };
  };

  it('is created, joins the other connections, and closes the slow one with 4100', async () => {
    // Every rate-limit window is new at each look (this test makes a channel per frame); heartbeats kept away, so
    // that nothing but a frame or a channel joining reaches the paused connection.
    let limiterNow = Date.now();
    server = await startTestServer(
      { heartbeatMs: 60_000, limiterClock: () => (limiterNow += 61_000) },
      { ONAIR_WS_MAX_CHANNELS_PER_SOCKET: '0', ONAIR_LIMIT_CHANNELS_PER_WORKSPACE: '1000' },
    );
    call = api(server.url, server.key);
    const { channelId } = await createChannelWithScoreboard(call, 'Flooded');
    const inputs = BULK.map((name) => ({ name, type: 'text' }));
    expectStatus(await call('POST', `/v1/channels/${channelId}/scenes`, { name: 'Bulk', definition: { inputs } }), 201);

    const slow = await connect('*');
    await slow.next((m) => isSnapshot(m) && m.channelId === channelId);
    const watcher = await connect('*');
    await watcher.next((m) => isSnapshot(m) && m.channelId === channelId);
    slow.pause();

    // Each frame may be the one that crosses the line; the channel made right after it is the first to find out.
    const created: string[] = [];
    const statuses: number[] = [];
    let bytes = 0;
    for (let n = 0; bytes < FLOOD_BYTES && ((await openConnections(server.url)).key ?? 0) > 1; n++) {
      await patchInputs(call, channelId, patchFor(n));
      bytes += 64_000;
      const res = await call<{ id: string }>('POST', '/v1/channels', { name: `Joins ${n}` });
      statuses.push(res.status);
      if (res.status !== 201) break;
      created.push(res.body.id);
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect((await openConnections(server.url)).key).toBe(1);

    // The connection that reads got every channel made, the one that was past the line made too.
    for (const id of created) await watcher.next((m) => isSnapshot(m) && m.channelId === id);
    slow.resume();
    expect((await slow.closed).code).toBe(CloseCode.slowConsumer);
  }, 120_000);
});

describe('errors on a connection following several channels', () => {
  it('name the channel of an op refused before it ran (its envelope or fields), as any other error does', async () => {
    server = await startTestServer();
    call = api(server.url, server.key);
    const a = await createChannelWithScoreboard(call, 'A');
    const b = await createChannelWithScoreboard(call, 'B');
    const client = await connect(`${a.channelId},${b.channelId}`);
    await client.next((m) => isSnapshot(m) && m.channelId === b.channelId);

    client.send({ op: 'patch', id: 'p1', channelId: b.channelId, inputs: { scoreA: 1 }, extra: true });
    expect(await client.reply('p1')).toMatchObject({ type: 'error', code: 'invalid_request', channelId: b.channelId });
    client.send({ op: 'no-such-op', id: 'x1', channelId: a.channelId });
    expect(await client.reply('x1')).toMatchObject({ type: 'error', code: 'invalid_request', channelId: a.channelId });
    // As an op that ran and was refused: the reference.
    client.send({ op: 'patch', id: 'p2', channelId: b.channelId, inputs: { nope: 1 } });
    expect(await client.reply('p2')).toMatchObject({ type: 'error', channelId: b.channelId });
  });
});

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip || redis.skip)(`resyncs on several nodes${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster(['node-a', 'node-b']);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('are counted per connection: one on another node does not spend this one’s', async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const created = await api(a.url, CLUSTER_KEY)<{ id: string }>('POST', '/v1/channels', { name: 'Resyncs' });
    const channelId = expectStatus(created, 201).id;
    await expect.poll(() => cluster.ownerOf(channelId), { timeout: 15_000 }).not.toBeNull();
    // The first connection of each node: each node numbers its own from 1.
    const [onA, onB] = await Promise.all(
      [a, b].map((node) => RenderClient.connect(node.url, '', { key: CLUSTER_KEY, channels: channelId })),
    );
    clients.push(onA!, onB!);
    for (const client of [onA!, onB!]) await client.next(isSnapshot);

    // All 10 of onA's resyncs in the window, answered.
    for (let i = 0; i < 10; i++) onA!.send({ op: 'resync', channelId });
    await expect.poll(() => onA!.messages.filter(isSnapshot).length, { timeout: 15_000 }).toBe(11);
    expect(onA!.messages.filter((m) => m.type === 'error')).toEqual([]);

    const since = onB!.mark();
    onB!.send({ op: 'resync', channelId });
    const answer = await onB!.next((m) => isSnapshot(m) || m.type === 'error', { since });
    expect(answer).toMatchObject({ type: 'snapshot', channelId });
  });
});
