/**
 * Half-open connections (docs/api.md, "Real-time WebSocket", "Pings and half-open connections"): the server pings a
 * connection it has heard nothing from, and drops one that does not answer within ONAIR_WS_IDLE_TIMEOUT_S of its last
 * word, so a client that vanished (power cut, cable pulled, a NAT that forgot it) does not hold a connection, its
 * place under the connection limits, or its share of every frame for ever.
 *
 * The silent client here is a raw TCP socket that completes the upgrade and then never writes: it reads, so the test
 * can see the ping and the close, but never answers. A `ws` client on the same channel, which answers pings as
 * browsers do, sends nothing else and must stay open.
 */
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, patchInputs } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { openConnections, RenderClient, wsUrl } from './helpers/ws-client.js';

const IDLE_TIMEOUT_S = 8;
/** The documented bound, plus the 4 s granularity of uWS timers, plus room for a loaded machine. */
const CLOSED_WITHIN_MS = (IDLE_TIMEOUT_S + 4 + 8) * 1000;

let server: TestServer | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await server?.dispose();
  server = null;
});

/** WebSocket opcodes of the frames a silent raw client received, and when its connection ended. */
interface SilentClient {
  opcodes: number[];
  ended: Promise<void>;
}

/** Upgrades over a bare TCP socket, then only reads: never a pong, never a close frame. */
async function silentClient(baseUrl: string, channelId: string, token: string): Promise<SilentClient> {
  const url = new URL(wsUrl(baseUrl, channelId, token));
  const socket = net.connect(Number(url.port), url.hostname);
  cleanups.push(() => socket.destroy());
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  const client: SilentClient = { opcodes: [], ended };
  let buffer: Buffer = Buffer.alloc(0);
  let upgraded = false;
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = buffer.subarray(0, buffer.indexOf('\r\n')).toString();
        if (!status.includes(' 101 ')) return reject(new Error(`upgrade refused: ${status}`));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve();
      }
      buffer = readFrames(buffer, client.opcodes);
    });
  });
  return client;
}

/** Takes whole server frames (unmasked) off the front of `buffer`, noting their opcodes; returns the rest. */
function readFrames(buffer: Buffer, opcodes: number[]): Buffer {
  for (;;) {
    if (buffer.length < 2) return buffer;
    const short = buffer[1]! & 0x7f;
    const header = short === 126 ? 4 : short === 127 ? 10 : 2;
    if (buffer.length < header) return buffer;
    const length = short === 126 ? buffer.readUInt16BE(2) : short === 127 ? Number(buffer.readBigUInt64BE(2)) : short;
    if (buffer.length < header + length) return buffer;
    opcodes.push(buffer[0]! & 0x0f);
    buffer = buffer.subarray(header + length);
  }
}

it('drops a connection that stops answering pings, and keeps one that answers them', async () => {
  server = await startTestServer({}, { ONAIR_WS_IDLE_TIMEOUT_S: String(IDLE_TIMEOUT_S) });
  const call = api(server.url, server.key);
  const { channelId, token } = await createChannelWithScoreboard(call);
  const healthy = await RenderClient.connect(server.url, channelId, { token });
  cleanups.push(() => healthy.close());
  await healthy.next((m) => m.type === 'snapshot');
  const silent = await silentClient(server.url, channelId, token);
  expect(await openConnections(server.url)).toMatchObject({ output: 2 });

  const outcome = await Promise.race([
    silent.ended.then(() => 'dropped'),
    new Promise((resolve) => setTimeout(() => resolve('still open'), CLOSED_WITHIN_MS)),
  ]);
  expect(outcome, `dropped within ${IDLE_TIMEOUT_S} s of silence (+ timer granularity)`).toBe('dropped');
  // It was pinged first, and dropped without a close frame: a half-open line could not carry one.
  expect(silent.opcodes).toContain(0x9);
  expect(silent.opcodes).not.toContain(0x8);
  expect(await openConnections(server.url)).toMatchObject({ output: 1 });

  // The client that answered the same pings, and sent nothing else, is still there and still served.
  expect(healthy.readyState).toBe(1);
  const since = healthy.mark();
  await patchInputs(call, channelId, { scoreA: 42 });
  await healthy.next((m) => m.type === 'frame', { since });
  expect(healthy.mirror!.inputs.scoreA).toBe(42);
});
