/**
 * The render WebSocket (docs/api.md, "Real-time WebSocket"): who may connect, what revokes a connection, and the client
 * ops.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  patchInputs,
  stableState,
  tokenOf,
  type Api,
  type Channel,
} from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  ackedFrame,
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
let sceneId: string;
let token: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId, sceneId, token } = await createChannelWithScoreboard(call));
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(auth: WsAuth, channel = channelId): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channel, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

async function refusal(auth: WsAuth, channel = channelId): Promise<UpgradeRefused> {
  const err: unknown = await RenderClient.connect(server.url, channel, auth).then(
    (c) => {
      clients.push(c);
      return new Error('the upgrade was accepted');
    },
    (e: unknown) => e,
  );
  if (!(err instanceof UpgradeRefused)) throw err;
  return err;
}

describe('connecting', () => {
  it('sends a snapshot of the channel on connect', async () => {
    await patchInputs(call, channelId, { scoreA: 2 });
    const client = await connect({ token });
    const snapshot = client.messages[0] as SnapshotMessage;
    expect(snapshot).toMatchObject({
      type: 'snapshot',
      channelId,
      frame: (await getState(call, channelId)).frame,
      program: [{ sceneId, layer: 10 }],
      preview: [],
      inputs: { scoreA: 2, scoreB: 0, home: 'HOME', away: 'AWAY', period: 1 },
    });
    expect(snapshot.scenes.map((s) => s.id)).toEqual([sceneId]);
  });

  it('refuses a bad output token with 401 before upgrading', async () => {
    expect((await refusal({ token: 'not-the-token' })).status).toBe(401);
    expect((await refusal({ token: '' })).status).toBe(401);
    expect((await refusal({})).status).toBe(401);
    expect((await refusal({ key: 'onair_sk_ThisKeyDoesNotExist0123456789abc' })).status).toBe(401);
  });

  it("refuses a channel's token for another channel", async () => {
    const other = await createChannelWithScoreboard(call, 'Other');
    expect((await refusal({ token }, other.channelId)).status).toBe(401);
  });

  it('answers a refused upgrade with problem+json carrying an X-Request-Id', async () => {
    const refused = await refusal({ token: 'not-the-token' });
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(refused.headers['x-request-id']).toBeTruthy();
  });
});

describe('revocation', () => {
  it('closes renderers with 4009 when the output token is rotated; only the new token connects', async () => {
    const renderer = await connect({ token });
    const operator = await connect({ key: server.key });

    const rotated = expectStatus(await call<Channel>('POST', `/v1/channels/${channelId}/output-token`), 200);
    const newToken = tokenOf(rotated.outputUrl);

    expect(newToken).not.toBe(token);
    expect((await renderer.closed).code).toBe(4009);
    expect((await refusal({ token })).status).toBe(401);
    const fresh = await connect({ token: newToken });
    expect(fresh.mirror!.program.map((p) => p.sceneId)).toEqual([sceneId]);
    // An API-key connection is not a renderer holding the token: it stays open.
    expect(operator.readyState).toBe(1);
  });

  it('closes sockets with 4010 when the channel is deleted', async () => {
    const renderer = await connect({ token });
    const operator = await connect({ key: server.key });

    expectStatus(await call('DELETE', `/v1/channels/${channelId}`), 204);

    expect((await renderer.closed).code).toBe(4010);
    expect((await operator.closed).code).toBe(4010);
    // The token died with its channel: the same answer as any unknown token.
    expect((await refusal({ token })).status).toBe(401);
  });
});

describe('client ops', () => {
  it('lets an API-key client patch: ack with the frame, and that frame carries the value', async () => {
    const watcher = await connect({ token });
    const operator = await connect({ key: server.key });

    operator.send({ op: 'patch', id: 'a', inputs: { scoreA: 5 } });

    const ack = await operator.reply('a');
    const frame = ackedFrame(ack);
    expect(ack).toEqual({ type: 'ack', id: 'a', frame });
    for (const client of [operator, watcher]) {
      const msg = await client.next<FrameMessage>((m) => isFrame(m) && m.frame === frame);
      expect(msg.inputs).toEqual({ scoreA: 5 });
    }
    expect((await getState(call, channelId)).inputs.scoreA).toBe(5);
  });

  it('answers a bad patch over the socket with an error carrying its id, and applies nothing', async () => {
    const operator = await connect({ key: server.key });
    const before = stableState(await getState(call, channelId));

    operator.send({ op: 'patch', id: 'typo', inputs: { scoreX: 1 } });
    operator.send({ op: 'patch', id: 'type', inputs: { scoreA: 'five' } });
    operator.send({ op: 'patch', id: 'proto', inputs: JSON.parse('{"__proto__": {"polluted": 1}}') as object });

    expect(await operator.reply('typo')).toMatchObject({ type: 'error', code: 'unknown_input' });
    expect(await operator.reply('type')).toMatchObject({ type: 'error', code: 'invalid_request' });
    expect(await operator.reply('proto')).toMatchObject({ type: 'error', code: 'unknown_input' });
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(stableState(await getState(call, channelId))).toEqual(before);
  });

  it('refuses a patch from an output-token (read-only) client with forbidden', async () => {
    const renderer = await connect({ token });
    const before = stableState(await getState(call, channelId));

    renderer.send({ op: 'patch', id: 'sneaky', inputs: { scoreA: 99 } });

    expect(await renderer.reply('sneaky')).toMatchObject({ type: 'error', id: 'sneaky', code: 'forbidden' });
    renderer.send({ op: 'clear', id: 'sneaky-clear' });
    expect(await renderer.reply('sneaky-clear')).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(stableState(await getState(call, channelId))).toEqual(before);
  });

  it('answers resync with a fresh snapshot of the current state', async () => {
    const renderer = await connect({ token });
    const result = await patchInputs(call, channelId, { scoreB: 6, away: 'Bears' });
    await renderer.next((m) => isFrame(m) && m.frame === result.frame);
    const since = renderer.mark();

    renderer.send({ op: 'resync' });

    const snapshot = await renderer.next<SnapshotMessage>((m) => m.type === 'snapshot', { since });
    expect(snapshot).toMatchObject({
      frame: result.frame,
      program: [{ sceneId, layer: 10 }],
      inputs: { scoreB: 6, away: 'Bears' },
    });
  });

  it('answers a message that is not a known op with an error, and keeps the connection', async () => {
    const renderer = await connect({ token });
    renderer.send({ op: 'explode', id: 'x' });
    expect(await renderer.next((m) => m.type === 'error')).toMatchObject({ code: 'invalid_request' });
    renderer.send({ op: 'resync' });
    await renderer.next((m) => m.type === 'snapshot', { since: 1 });
  });
});
