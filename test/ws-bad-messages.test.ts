/**
 * Bad messages cost the sender, not the server (docs/api.md, "Real-time WebSocket", "Errors on the socket"): a
 * connection is answered with at most 100 errors in any 10 seconds, and the message that would earn one more closes it
 * with 4029. A client that answers every error with another bad message cannot make the server reply thousands of
 * times a second, and the other clients of the channel are served as before.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, patchInputs, type Api } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, type ErrorMessage, type WsAuth } from './helpers/ws-client.js';

const ERRORS_PER_10_S = 100;
const BAD_MESSAGES = 5_000;

let server: TestServer;
let call: Api;
let channelId: string;
let token: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId, token } = await createChannelWithScoreboard(call));
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

const errorsOf = (client: RenderClient) => client.messages.filter((m): m is ErrorMessage => m.type === 'error');

/** Every kind of message the server cannot take: not JSON, not an object, unknown op, no id, a binary frame. */
function sendJunk(client: RenderClient, n: number): void {
  const kinds = [
    () => client.sendText('this is not JSON'),
    () => client.sendText('[1,2,3]'),
    () => client.sendText(JSON.stringify({ op: 'explode', id: `x${n}` })),
    () => client.sendText(JSON.stringify({ op: 'patch', inputs: { scoreA: 1 } })),
    () => client.sendBinary(Buffer.from(JSON.stringify({ op: 'take', id: `b${n}` }))),
  ];
  kinds[n % kinds.length]!();
}

it('answers at most 100 errors to a client flooding bad messages, then closes it with 4029', async () => {
  const renderer = await connect({ token });
  const bad = await connect({ key: server.key });

  for (let n = 0; n < BAD_MESSAGES; n++) sendJunk(bad, n);
  expect(await bad.closed).toEqual({ code: 4029, reason: 'too many bad messages' });

  const errors = errorsOf(bad);
  expect(errors).toHaveLength(ERRORS_PER_10_S);
  expect(new Set(errors.map((e) => e.code))).toEqual(new Set(['invalid_request']));
  // Each kind of junk was answered as documented before the budget ran out.
  expect(errors.slice(0, 5).map((e) => e.detail)).toEqual([
    'Messages must be JSON text.',
    expect.any(String),
    expect.stringMatching(/^op: /),
    'id: required for this op',
    'Messages must be JSON text.',
  ]);

  // The renderer on the same channel was not disturbed, and the channel works for a client that behaves.
  expect(renderer.readyState).toBe(1);
  const since = renderer.mark();
  await patchInputs(call, channelId, { scoreA: 3 });
  await renderer.next((m) => m.type === 'frame', { since });
  expect(renderer.mirror!.inputs.scoreA).toBe(3);
  const again = await connect({ key: server.key });
  again.send({ op: 'patch', id: 'ok', inputs: { scoreB: 1 } });
  expect(await again.reply('ok')).toMatchObject({ type: 'ack' });
});

it('counts every error, also refused ops: a read-only client repeating one is closed with 4029', async () => {
  const readOnly = await connect({ token });
  for (let n = 0; n < 1_000; n++) readOnly.send({ op: 'patch', id: `p${n}`, inputs: { scoreA: n } });
  expect((await readOnly.closed).code).toBe(4029);
  const errors = errorsOf(readOnly);
  expect(errors).toHaveLength(ERRORS_PER_10_S);
  expect(errors.every((e) => e.code === 'forbidden')).toBe(true);
});

it('closes a connection at once for a message over 64 KiB', async () => {
  const client = await connect({ key: server.key });
  client.sendText(JSON.stringify({ op: 'patch', id: 'big', inputs: { name: 'x'.repeat(64 * 1024) } }));
  expect((await client.closed).code).toBe(1006);
  expect(client.messages.some((m) => m.type === 'error')).toBe(false);
});
