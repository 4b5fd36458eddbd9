/**
 * The rolling window over HTTP (docs/api.md, "Rate limits"): 30 updates just before a second boundary and 30 just
 * after it — the second group is refused (a fixed window would admit it), and waiting the Retry-After it was given
 * is enough. The server's rate limiter reads a clock the test moves, so this holds however slow the machine is;
 * everything else (requests, ticks, answers) is real.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addScoreboard, api, expectStatus, type Api, type ApiResponse, type Channel } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
/** What the rate limiter takes for now: a second boundary, then moved by the test only. */
let limiterNow = 1_800_000_000_000;

beforeEach(async () => {
  server = await startTestServer({ limiterClock: () => limiterNow });
  call = api(server.url, server.key);
});

afterEach(async () => {
  await server.dispose();
});

const group = (channelId: string, n: number): Promise<ApiResponse<unknown>[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i })));
const statuses = (rs: ApiResponse<unknown>[]) => [...new Set(rs.map((r) => r.status))];

it('refuses 30 updates just after a second boundary that follow 30 just before it, until Retry-After', async () => {
  const channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201).id;
  await addScoreboard(call, channelId);

  limiterNow += 700; // 300 ms before the next second boundary
  expect(statuses(await group(channelId, 30))).toEqual([200]);
  limiterNow += 400; // 100 ms after it: a fixed window would start afresh here
  const second = await group(channelId, 30);
  expect(statuses(second)).toEqual([429]);
  const retryAfter = Math.max(...second.map((r) => Number(r.headers.get('retry-after'))));
  expect(retryAfter).toBe(1);
  // 600 ms of the window are left: the Retry-After of 1 s covers them.
  expect(second.every((r) => r.headers.get('ratelimit-reset') === '1')).toBe(true);

  limiterNow += 599; // 1 ms short of the first group's expiry: still refused
  expect(statuses(await group(channelId, 1))).toEqual([429]);
  limiterNow += retryAfter * 1000 - 599; // the Retry-After, counted from the refusal
  expect(statuses(await group(channelId, 30))).toEqual([200]);
  expect(statuses(await group(channelId, 1))).toEqual([429]);
});
