/**
 * Connection limits (docs/api.md, "Real-time WebSocket", "Connection limits"): open WebSockets per channel and per
 * client address, and upgrades per address in any 10 s. A refused upgrade is 429 rate_limited problem+json with
 * Retry-After and the limit's name; the client address is the TCP peer unless it is a trusted proxy
 * (ONAIR_TRUSTED_PROXIES), then the nearest untrusted X-Forwarded-For hop.
 */
import { afterEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, type ScoreboardChannel } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused, type WsAuth } from './helpers/ws-client.js';

let server: TestServer | null = null;
const clients: RenderClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.dispose();
  server = null;
});

async function start(env: Record<string, string>): Promise<[ScoreboardChannel, ScoreboardChannel]> {
  server = await startTestServer({}, env);
  const call = api(server.url, server.key);
  return [await createChannelWithScoreboard(call, 'A'), await createChannelWithScoreboard(call, 'B')];
}

/** A client, or the upgrade's refusal (status, headers, problem body). */
async function attempt(channel: ScoreboardChannel, auth: WsAuth = { token: channel.token }) {
  try {
    const client = await RenderClient.connect(server!.url, channel.channelId, auth);
    clients.push(client);
    return client;
  } catch (err) {
    if (!(err instanceof UpgradeRefused)) throw err;
    return { status: err.status, retryAfter: err.headers['retry-after'], body: JSON.parse(err.body) as object };
  }
}

async function open(channel: ScoreboardChannel, auth?: WsAuth): Promise<RenderClient> {
  const result = await attempt(channel, auth);
  if (!(result instanceof RenderClient)) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result;
}

/** 429 rate_limited naming the limit and the setting that raises it, with Retry-After. */
const refusal = (setting: string, limit: number) => ({
  status: 429,
  retryAfter: expect.stringMatching(/^\d+$/) as unknown,
  body: expect.objectContaining({ status: 429, code: 'rate_limited', limit, setting }) as unknown,
});

/** Closing a connection makes room once the server has seen the close: retried until then. */
async function opensAfterClose(closing: RenderClient, channel: ScoreboardChannel, auth?: WsAuth) {
  closing.close();
  await closing.closed;
  await expect.poll(async () => (await attempt(channel, auth)) instanceof RenderClient).toBe(true);
}

it('refuses the connection past the per-channel limit, counts only that channel, and frees a place on close', async () => {
  const [a, b] = await start({ ONAIR_WS_MAX_PER_CHANNEL: '3' });
  const first = await open(a);
  await open(a);
  await open(a);
  expect(await attempt(a)).toEqual(refusal('ONAIR_WS_MAX_PER_CHANNEL', 3));
  await open(b, { key: server!.key }); // another channel has its own count
  await opensAfterClose(first, a);
  expect(await attempt(a)).toEqual(refusal('ONAIR_WS_MAX_PER_CHANNEL', 3));
});

it('admits exactly the limit when many upgrades arrive at once', async () => {
  const [a] = await start({ ONAIR_WS_MAX_PER_CHANNEL: '3' });
  // Keys as well as tokens: a key is looked up asynchronously, so the upgrades interleave.
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => attempt(a, i % 2 ? { key: server!.key } : { token: a.token })),
  );
  expect(results.filter((r) => r instanceof RenderClient)).toHaveLength(3);
  expect(results.filter((r) => !(r instanceof RenderClient))).toEqual(
    Array.from({ length: 7 }, () => refusal('ONAIR_WS_MAX_PER_CHANNEL', 3)),
  );
});

it('refuses the connection past the per-address limit, across channels; a trusted proxy names other clients', async () => {
  const [a, b] = await start({ ONAIR_WS_MAX_PER_ADDRESS: '3', ONAIR_TRUSTED_PROXIES: '127.0.0.1' });
  const first = await open(a);
  await open(a);
  await open(b);
  expect(await attempt(b)).toEqual(refusal('ONAIR_WS_MAX_PER_ADDRESS', 3));
  // Behind the trusted proxy (127.0.0.1 here), X-Forwarded-For names the client: another address, its own count.
  const elsewhere = { token: a.token, headers: { 'x-forwarded-for': '203.0.113.9' } };
  await open(a, elsewhere);
  await open(a, elsewhere);
  await opensAfterClose(first, b);
  expect(await attempt(b)).toEqual(refusal('ONAIR_WS_MAX_PER_ADDRESS', 3));
});

it('does not believe X-Forwarded-For from a peer that is not a trusted proxy', async () => {
  const [a] = await start({ ONAIR_WS_MAX_PER_ADDRESS: '1' });
  await open(a);
  const spoofed = { token: a.token, headers: { 'x-forwarded-for': '203.0.113.9' } };
  expect(await attempt(a, spoofed)).toEqual(refusal('ONAIR_WS_MAX_PER_ADDRESS', 1));
});

it('refuses upgrades past the per-address window, counting refused and closed ones too', async () => {
  const [a] = await start({ ONAIR_WS_UPGRADES_PER_ADDRESS: '5', ONAIR_TRUSTED_PROXIES: '127.0.0.1' });
  for (let i = 0; i < 3; i++) {
    const client = await open(a);
    client.close();
    await client.closed;
  }
  const wrongToken = { token: 'not-the-token' };
  expect(await attempt(a, wrongToken)).toMatchObject({ status: 401 });
  expect(await attempt(a, wrongToken)).toMatchObject({ status: 401 });
  const refused = await attempt(a);
  expect(refused).toEqual(refusal('ONAIR_WS_UPGRADES_PER_ADDRESS', 5));
  const retryAfter = Number((refused as { retryAfter: string }).retryAfter);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(10);
  // Refused before the credentials are looked at: a wrong token gets the same 429.
  expect(await attempt(a, wrongToken)).toEqual(refusal('ONAIR_WS_UPGRADES_PER_ADDRESS', 5));
  await open(a, { token: a.token, headers: { 'x-forwarded-for': '2001:db8::7' } });
});
