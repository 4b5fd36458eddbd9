/**
 * Graceful drain (docs/api.md, "Operations"): stop accepting, finish the tick, flush, close sockets with 1001. Work
 * that was queued when the drain began is applied, answered and durable. The engine's clock is held so the work is
 * still queued — not yet ticked — at the moment stop() is called.
 */
import net from 'node:net';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  getState,
  type Api,
  type ApiResponse,
  type PatchResult,
} from './helpers/api.js';
import { HoldableTime } from './helpers/holdable-time.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { ackedFrame, isFrame, RenderClient } from './helpers/ws-client.js';

let server: TestServer;
let time: HoldableTime;
let call: Api;
let channelId: string;
let token: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  time = new HoldableTime();
  server = await startTestServer({ time });
  call = api(() => server.url, server.key);
  ({ channelId, token } = await createChannelWithScoreboard(call));
});

afterEach(async () => {
  time.release();
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(auth: { token?: string; key?: string }): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

it('closes every WebSocket with 1001 (going away) so renderers reconnect', async () => {
  const renderers = [await connect({ token }), await connect({ token }), await connect({ key: server.key })];

  await server.stop();

  const closes = await Promise.all(renderers.map((r) => r.closed));
  expect(closes.map((c) => c.code)).toEqual([1001, 1001, 1001]);
});

it('answers an HTTP PATCH that was queued when the drain began, and keeps it', async () => {
  // Wait for the clock to go idle, so that the next timer it asks for is the one our PATCH starts.
  await vi.waitFor(() => expect(time.pendingTimers).toBe(0), { timeout: 15_000 });
  time.hold();
  const inFlight: Promise<ApiResponse<PatchResult>> = call('PATCH', `/v1/channels/${channelId}/inputs`, {
    scoreA: 41,
    home: 'Drained',
  });
  await vi.waitFor(() => expect(time.pendingTimers).toBe(1), { timeout: 15_000 });

  await server.stop();

  const res = await inFlight;
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ channelId, inputs: { scoreA: 41, home: 'Drained' } });
  time.release();
  await server.restart();
  const state = await getState(call, channelId);
  expect(state.inputs).toMatchObject({ scoreA: 41, home: 'Drained' });
  expect(state.frame).toBe(res.body.frame);
});

it('acks a WebSocket patch that was queued when the drain began before closing with 1001, and keeps it', async () => {
  const watcher = await connect({ token });
  const operator = await connect({ key: server.key });
  time.hold();
  operator.send({ op: 'patch', id: 'last', inputs: { scoreB: 9 } });
  // Messages on one socket are handled in order: once resync is answered, the patch has been queued.
  const since = operator.mark();
  operator.send({ op: 'resync' });
  await operator.next((m) => m.type === 'snapshot', { since });
  expect(operator.messages.slice(since).some((m) => m.type === 'ack')).toBe(false);

  await server.stop();

  const frame = ackedFrame(await operator.reply('last'));
  // The frame reached renderers too, before their sockets closed.
  const seen = await watcher.next((m) => isFrame(m) && m.frame === frame);
  expect(seen).toMatchObject({ inputs: { scoreB: 9 } });
  expect((await operator.closed).code).toBe(1001);
  expect((await watcher.closed).code).toBe(1001);

  time.release();
  await server.restart();
  const state = await getState(call, channelId);
  expect(state.inputs.scoreB).toBe(9);
  expect(state.frame).toBe(frame);
});

it('closes idle keep-alive HTTP connections, so a client is not left talking to a server that has stopped', async () => {
  const socket = net.connect(server.port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  await vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 200/), { timeout: 15_000 });

  const answered = received.length;

  await server.stop();

  // Held open, the connection answered each later request 503 "shutting down", even once a new server had the port.
  if (!socket.destroyed) socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await closed;
  expect(received.slice(answered)).toBe('');
});
