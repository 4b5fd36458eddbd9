/**
 * The rolling window over HTTP, in real time (docs/api.md, "Rate limits"): 30 updates just before a second boundary and
 * 30 just after it — the second group is refused (a fixed window would admit it), and waiting the Retry-After it was
 * given is enough. Kept to one bounded test (about 2–3 s); the exact window arithmetic is proven with a manual clock in
 * src/limits/rate-limiter.contract.ts.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addScoreboard, api, expectStatus, type Api, type ApiResponse, type Channel } from './helpers/api.js';
import { sleepUntil } from './helpers/access-fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});

afterEach(async () => {
  await server.dispose();
});

async function quietChannel(): Promise<string> {
  const channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201).id;
  await addScoreboard(call, channelId);
  return channelId;
}

const group = (channelId: string, n: number): Promise<ApiResponse<unknown>[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i })));
const statuses = (rs: ApiResponse<unknown>[]) => [...new Set(rs.map((r) => r.status))];

/**
 * 30 updates 700 ms into a wall-clock second, 30 more 100 ms after the next boundary. Returns null when the
 * machine was too slow for the second group to land inside the first group's window (nothing to conclude).
 */
async function straddle(channelId: string) {
  const boundary = Math.ceil((Date.now() + 300) / 1000) * 1000;
  await sleepUntil(boundary - 300);
  const firstSent = Date.now();
  expect(statuses(await group(channelId, 30))).toEqual([200]);
  await sleepUntil(boundary + 100);
  const second = await group(channelId, 30);
  const refusedAt = Date.now();
  // The first group was admitted after firstSent, the second before refusedAt.
  return refusedAt - firstSent < 950 ? { second, refusedAt } : null;
}

it('refuses 30 updates just after a second boundary that follow 30 just before it, until Retry-After', async () => {
  let outcome = null;
  let channelId = '';
  for (let attempt = 0; attempt < 3 && !outcome; attempt++) {
    channelId = await quietChannel(); // a fresh bucket for each attempt
    outcome = await straddle(channelId);
  }
  if (!outcome) throw new Error('three attempts were too slow to put both groups in one window');
  const { second, refusedAt } = outcome;
  expect(statuses(second)).toEqual([429]);
  const retryAfter = Math.max(...second.map((r) => Number(r.headers.get('retry-after'))));
  expect(retryAfter).toBe(1);

  await sleepUntil(refusedAt + retryAfter * 1000);
  expect(statuses(await group(channelId, 30))).toEqual([200]);
  expect(statuses(await group(channelId, 1))).toEqual([429]);
});
