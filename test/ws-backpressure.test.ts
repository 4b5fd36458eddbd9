/**
 * A renderer that cannot keep up (docs/api.md, "Real-time WebSocket", "Slow consumers"): the server must not buffer
 * for it without bound. Past the server's 256 KiB limit it is closed with 4100 rather than silently skipped, so it
 * cannot sit on stale values: what it reads is a gapless run of frames and then the close frame, and reconnecting,
 * as the output page does at once, gives it the current state.
 *
 * Volume, not patch count, is what overflows a paused reader: the kernel's socket buffers on loopback hold a few MB
 * before the server's own 256 KiB limit is even reached. With 30 updates/s per channel (docs/api.md, "Rate limits"),
 * the flood sends maximal patches (≈64 KB) at the permitted rate until the server has closed the paused renderer
 * (its connection count drops), or 16 MB of frames went out.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, getState, type Api } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { openConnections, RenderClient, type WsAuth } from './helpers/ws-client.js';

const FLOOD_BYTES = 16 * 1024 * 1024;
/** Patches per rolling second: under the limit of 30, leaving room for timing jitter. */
const BURST = 28;
const WINDOW_MS = 1_100;
const BULK = Array.from({ length: 32 }, (_, i) => `t${i}`);

let server: TestServer;
let call: Api;
let channelId: string;
let token: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  // Heartbeats are kept away so that the flood is the only traffic the paused renderer is sent.
  server = await startTestServer({ heartbeatMs: 60_000 });
  call = api(server.url, server.key);
  ({ channelId, token } = await createChannelWithScoreboard(call));
  const inputs = BULK.map((name) => ({ name, type: 'text' }));
  expectStatus(await call('POST', `/v1/channels/${channelId}/scenes`, { name: 'Bulk', definition: { inputs } }), 201);
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

/** Patch n: 16 of the text inputs at 4,000 characters each (just under the 64 KiB message limit). */
function patchFor(n: number): Record<string, string | number> {
  const names = BULK.slice((n % 2) * 16, (n % 2) * 16 + 16);
  return { scoreA: n, ...Object.fromEntries(names.map((name) => [name, `${n}:`.padEnd(4000, '~')])) };
}

/** Rate pacing (docs/api.md, "Rate limits"), not a wait for an outcome: resolves at `at` (epoch ms). */
const pace = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** Whether the server still holds an output-token connection (the paused renderer's). */
const slowStillOpen = async () => ((await openConnections(server.url)).output ?? 0) > 0;

/**
 * One patch per tick (each answered before the next), in bursts that respect the updates limit, until the server
 * has closed the paused renderer or FLOOD_BYTES went out.
 */
async function flood(operator: RenderClient): Promise<number> {
  let bytes = 0;
  let applied = 0;
  for (let n = 0; bytes < FLOOD_BYTES && (await slowStillOpen());) {
    const burstStart = Date.now();
    for (let i = 0; i < BURST; i++, n++) {
      const msg = JSON.stringify({ op: 'patch', id: `p${n}`, inputs: patchFor(n) });
      operator.sendText(msg);
      const reply = await operator.reply(`p${n}`, 10_000);
      if (reply.type === 'ack') {
        bytes += msg.length;
        applied++;
      } else {
        expect(reply.code, reply.detail).toBe('rate_limited');
      }
    }
    await pace(burstStart + WINDOW_MS);
  }
  return applied;
}

it('closes a paused renderer past the limit with 4100, and a reconnect restores the current state', async () => {
  const slow = await connect({ token });
  const operator = await connect({ key: server.key });
  slow.pause();

  const applied = await flood(operator);
  expect(await slowStillOpen(), 'the server closed the paused renderer during the flood').toBe(false);
  expect(applied).toBeGreaterThan(10);
  const final = await getState(call, channelId);
  // The operator read everything as it came: its mirror is the reference a renderer should reach.
  expect(operator.mirror!.inputs).toEqual(final.inputs);
  expect(operator.readyState).toBe(1); // OPEN: a client that reads is never closed

  // Reading again, it gets what was queued before the close, then the close frame itself.
  slow.resume();
  const closed = await Promise.race([
    slow.closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
  ]);
  expect(closed, 'the slow renderer is closed, not left on stale values').toEqual({
    code: 4100,
    reason: 'slow consumer: reconnect and resync',
  });
  // Nothing was dropped before the close: every frame it got follows the previous one.
  expect(slow.gaps).toBe(0);
  // It was not fed the whole flood: the server stopped buffering for it before the last frame. (Counting messages
  // says nothing here: frames coalesce the patches of one tick.)
  expect(slow.mirror!.frame).toBeLessThan(final.frame);

  const again = await connect({ token });
  expect(again.mirror!.inputs).toEqual(final.inputs);
  expect(again.mirror!.frame).toBe(final.frame);
  expect(again.mirror!.program).toEqual(final.program);
});
