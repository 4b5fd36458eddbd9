/**
 * Browsers cannot see WebSocket pings, so the server sends a small heartbeat message: a renderer on a
 * quiet channel can tell a live line from a half-open one.
 */
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, createChannelWithScoreboard } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.dispose();
  server = null;
});

it('sends heartbeats on an idle channel, with the server time', async () => {
  server = await startTestServer({ heartbeatMs: 100 });
  const { channelId, token } = await createChannelWithScoreboard(api(server.url, server.key));
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/ws?channel=${channelId}&token=${token}`);
  const types: string[] = [];
  const times: number[] = [];
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as { type: string; serverTime: number };
    types.push(msg.type);
    if (msg.type === 'heartbeat') times.push(msg.serverTime);
  });
  // Three heartbeats 100 ms apart, after a snapshot: well under a second on an idle machine.
  await expect.poll(() => times.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  ws.close();
  expect(types[0]).toBe('snapshot');
  expect(types.slice(1).every((t) => t === 'heartbeat')).toBe(true);
  expect(Math.abs((times.at(-1) ?? 0) - Date.now())).toBeLessThan(2_000);
});
