/**
 * Several channels on one render WebSocket (docs/api.md, "Real-time WebSocket", "Connecting"): `channels=<ids>` or
 * `channels=*` for keys and sessions; a snapshot per channel, every message naming its channel, ops that name theirs
 * and are checked as on a one-channel connection, channels joining (created, for `*`) and leaving (deleted).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloseCode, type ChannelRemovedMessage } from '@onair/protocol';
import { createKey } from './helpers/access-fixtures.js';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  patchInputs,
  type Api,
  type ScoreboardChannel,
} from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  isFrame,
  isSnapshot,
  RenderClient,
  UpgradeRefused,
  type ServerMessage,
  type SnapshotMessage,
  type WsAuth,
} from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let a: ScoreboardChannel;
let b: ScoreboardChannel;
const clients: RenderClient[] = [];

async function start(env: Record<string, string> = {}): Promise<void> {
  server = await startTestServer({}, env);
  call = api(server.url, server.key);
  a = await createChannelWithScoreboard(call, 'A');
  b = await createChannelWithScoreboard(call, 'B');
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(channels: string, auth: WsAuth = { key: server.key }): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, '', { ...auth, channels });
  clients.push(client);
  return client;
}

async function refusal(channels: string, auth: WsAuth = { key: server.key }, channel = ''): Promise<UpgradeRefused> {
  const err: unknown = await RenderClient.connect(server.url, channel, { ...auth, channels }).then(
    (c) => {
      clients.push(c);
      return new Error('the upgrade was accepted');
    },
    (e: unknown) => e,
  );
  if (!(err instanceof UpgradeRefused)) throw err;
  return err;
}

const codeOf = (err: UpgradeRefused) => (JSON.parse(err.body) as { code: string }).code;
const snapshotOf = (client: RenderClient, channelId: string, since = 0) =>
  client.next<SnapshotMessage>((m) => isSnapshot(m) && m.channelId === channelId, { since });
const removalOf = (client: RenderClient, channelId: string) =>
  client.next<ChannelRemovedMessage>(
    (m) => (m.type as string) === 'channel_removed' && (m as unknown as ChannelRemovedMessage).channelId === channelId,
  );

describe('channels=<id>,<id>', () => {
  beforeEach(() => start());

  it('sends a snapshot of each channel, then each channel’s frames, each naming its channel', async () => {
    await patchInputs(call, b.channelId, { scoreA: 4 });
    const client = await connect(`${a.channelId},${b.channelId}`);
    expect(await snapshotOf(client, a.channelId)).toMatchObject({
      inputs: { scoreA: 0 },
      program: [{ sceneId: a.sceneId }],
    });
    expect(await snapshotOf(client, b.channelId)).toMatchObject({
      inputs: { scoreA: 4 },
      program: [{ sceneId: b.sceneId }],
    });
    const since = client.mark();
    const { frame } = await patchInputs(call, b.channelId, { scoreB: 9 });
    const sent = await client.next((m) => isFrame(m) && m.frame === frame && m.channelId === b.channelId, { since });
    expect(sent).toMatchObject({ inputs: { scoreB: 9 } });
    const others = client.messages.slice(since).filter((m) => isFrame(m) && m.channelId !== b.channelId);
    expect(others).toEqual([]);
  });

  it('runs an op on the channel it names, answered with that channelId; refuses one naming none or another', async () => {
    const client = await connect(`${a.channelId},${b.channelId}`);
    await snapshotOf(client, b.channelId);
    client.send({ op: 'patch', id: 'p1', channelId: b.channelId, inputs: { scoreA: 7 } });
    expect(await client.reply('p1')).toMatchObject({ type: 'ack', id: 'p1', channelId: b.channelId });
    expect((await getState(call, b.channelId)).inputs.scoreA).toBe(7);
    expect((await getState(call, a.channelId)).inputs.scoreA).toBe(0);

    client.send({ op: 'take', id: 't1' });
    expect(await client.reply('t1')).toMatchObject({ type: 'error', id: 't1', code: 'invalid_request' });
    const c = await createChannelWithScoreboard(call, 'C');
    client.send({ op: 'patch', id: 'p2', channelId: c.channelId, inputs: { scoreA: 1 } });
    expect(await client.reply('p2')).toMatchObject({
      type: 'error',
      id: 'p2',
      code: 'not_found',
      channelId: c.channelId,
    });
    expect((await getState(call, c.channelId)).inputs.scoreA).toBe(0);
  });

  it('checks each op’s permissions and the key’s channel lock as a one-channel connection does', async () => {
    const reader = await createKey(call, ['channels:read'], [a.channelId, b.channelId]);
    const client = await connect(`${a.channelId},${b.channelId}`, { key: reader.secret });
    await snapshotOf(client, b.channelId);
    client.send({ op: 'patch', id: 'p1', channelId: a.channelId, inputs: { scoreA: 2 } });
    expect(await client.reply('p1')).toMatchObject({ type: 'error', code: 'forbidden', channelId: a.channelId });

    const locked = await createKey(call, ['*'], [a.channelId]);
    expect(codeOf(await refusal(`${a.channelId},${b.channelId}`, { key: locked.secret }))).toBe('not_found');
  });

  it('answers a resync with the snapshot of the channel it names', async () => {
    const client = await connect(`${a.channelId},${b.channelId}`);
    await snapshotOf(client, b.channelId);
    const since = client.mark();
    client.send({ op: 'resync', channelId: a.channelId });
    await snapshotOf(client, a.channelId, since);
    client.send({ op: 'resync' });
    expect(await client.next((m) => m.type === 'error', { since })).toMatchObject({ code: 'invalid_request' });
    expect(
      client.messages
        .slice(since)
        .filter(isSnapshot)
        .map((m) => m.channelId),
    ).toEqual([a.channelId]);
  });

  it('tells of a deleted channel with channel_removed and keeps following the others', async () => {
    const client = await connect(`${a.channelId},${b.channelId}`);
    await snapshotOf(client, b.channelId);
    expectStatus(await call('DELETE', `/v1/channels/${a.channelId}`), 204);
    await removalOf(client, a.channelId);
    const since = client.mark();
    const { frame } = await patchInputs(call, b.channelId, { scoreA: 5 });
    await client.next((m) => isFrame(m) && m.frame === frame, { since });
    client.send({ op: 'take', id: 't1', channelId: a.channelId });
    expect(await client.reply('t1')).toMatchObject({ type: 'error', code: 'not_found' });
    expect(client.readyState).toBe(1);
  });

  it('refuses bad parameters and output tokens as a one-channel upgrade refuses them', async () => {
    expect((await refusal(`${a.channelId}`, { key: server.key }, b.channelId)).status).toBe(400);
    expect(codeOf(await refusal(' , '))).toBe('invalid_request');
    expect(codeOf(await refusal(a.channelId, { key: server.key, scenes: 'some' }))).toBe('invalid_request');
    const token = await refusal(`${a.channelId},${b.channelId}`, { token: a.token });
    expect([token.status, codeOf(token)]).toEqual([403, 'forbidden']);
    const unknown = await refusal(`${a.channelId},ch_nope`);
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'not_found']);
    expect((await refusal(a.channelId, {})).status).toBe(401);
  });

  it('applies scenes=all to every channel', async () => {
    const client = await connect(`${a.channelId},${b.channelId}`, { key: server.key, scenes: 'all' });
    expect(await snapshotOf(client, a.channelId)).toHaveProperty('rundowns');
    expect(await snapshotOf(client, b.channelId)).toHaveProperty('rundowns');
  });

  it('leaves a one-channel connection as it was: acks without channelId, a channelId given must be its own', async () => {
    const client = await RenderClient.connect(server.url, a.channelId, { key: server.key });
    clients.push(client);
    await client.next(isSnapshot);
    client.send({ op: 'take', id: 't1' });
    expect(await client.reply('t1')).not.toHaveProperty('channelId');
    client.send({ op: 'patch', id: 'p1', channelId: a.channelId, inputs: { scoreA: 3 } });
    expect(await client.reply('p1')).toMatchObject({ type: 'ack' });
    client.send({ op: 'patch', id: 'p2', channelId: b.channelId, inputs: { scoreA: 3 } });
    expect(await client.reply('p2')).toMatchObject({ type: 'error', code: 'not_found' });
    expect((await getState(call, b.channelId)).inputs.scoreA).toBe(0);
  });
});

describe('channels=*', () => {
  beforeEach(() => start({ ONAIR_WS_MAX_CHANNELS_PER_SOCKET: '3' }));

  it('follows every channel the key may see, and channels created while connected', async () => {
    const locked = await createKey(call, ['*'], [a.channelId]);
    const lockedClient = await connect('*', { key: locked.secret });
    const client = await connect('*');
    await snapshotOf(client, a.channelId);
    await snapshotOf(client, b.channelId);
    await snapshotOf(lockedClient, a.channelId);

    const c = await createChannelWithScoreboard(call, 'C');
    const joined = await snapshotOf(client, c.channelId);
    expect(joined.channelId).toBe(c.channelId);
    const { frame } = await patchInputs(call, c.channelId, { scoreA: 6 });
    await client.next((m) => isFrame(m) && m.channelId === c.channelId && m.frame === frame);
    client.send({ op: 'patch', id: 'p1', channelId: c.channelId, inputs: { scoreB: 1 } });
    expect(await client.reply('p1')).toMatchObject({ type: 'ack', channelId: c.channelId });

    expectStatus(await call('DELETE', `/v1/channels/${b.channelId}`), 204);
    await removalOf(client, b.channelId);
    const seen = (m: ServerMessage) => 'channelId' in m && m.channelId !== a.channelId;
    expect(lockedClient.messages.filter(seen)).toEqual([]);
  });

  it('is refused past the channel limit, and closed when a new channel would pass it', async () => {
    await createChannelWithScoreboard(call, 'C');
    const client = await connect('*');
    await expect.poll(() => client.messages.filter(isSnapshot).length, { timeout: 15_000 }).toBe(3);
    expectStatus(await call('POST', '/v1/channels', { name: 'D' }), 201);
    const closed = await client.closed;
    expect(closed.code).toBe(CloseCode.forbidden);
    expect(closed.reason).toContain('ONAIR_WS_MAX_CHANNELS_PER_SOCKET');

    const refused = await refusal('*');
    expect([refused.status, codeOf(refused)]).toEqual([422, 'limit_reached']);
    expect(refused.body).toContain('ONAIR_WS_MAX_CHANNELS_PER_SOCKET');
    const ids = (await call<{ data: { id: string }[] }>('GET', '/v1/channels')).body.data.map((ch) => ch.id);
    expect(codeOf(await refusal(ids.join(',')))).toBe('limit_reached');
    // Without credentials the answer is 401, whatever was named.
    expect((await refusal(ids.join(','), {})).status).toBe(401);
  });
});
