/** Snapshots cost the server work: a connection may ask for at most 10 resyncs in 10 seconds. */
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, createChannelWithScoreboard } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.dispose();
  server = null;
});

it('answers 10 resyncs with snapshots and the 11th with rate_limited, per connection', async () => {
  server = await startTestServer();
  const { channelId, token } = await createChannelWithScoreboard(api(server.url, server.key));
  const url = `${server.url.replace('http', 'ws')}/v1/ws?channel=${channelId}&token=${token}`;
  const open = (): Promise<{ ws: WebSocket; got: { type: string; code?: string }[] }> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const got: { type: string; code?: string }[] = [];
      ws.on('message', (d: Buffer) => got.push(JSON.parse(d.toString()) as { type: string }));
      ws.once('open', () => resolve({ ws, got }));
      ws.once('error', reject);
    });

  const a = await open();
  await expect.poll(() => a.got.length).toBe(1); // the connect snapshot
  for (let i = 0; i < 11; i++) a.ws.send(JSON.stringify({ op: 'resync' }));
  await expect.poll(() => a.got.length).toBe(12);
  expect(a.got.filter((m) => m.type === 'snapshot')).toHaveLength(11);
  expect(a.got.at(-1)).toMatchObject({ type: 'error', code: 'rate_limited' });

  // Another connection has its own allowance.
  const b = await open();
  b.ws.send(JSON.stringify({ op: 'resync' }));
  await expect.poll(() => b.got.filter((m) => m.type === 'snapshot').length).toBe(2);
  a.ws.close();
  b.ws.close();
});
