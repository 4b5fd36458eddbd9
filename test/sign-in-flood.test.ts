/**
 * A flood of failed sign-ins (docs/deploy.md, "Sign-in under load"): argon2 is capped for the whole process
 * (ONAIR_PASSWORD_CONCURRENCY) and the WAL flush has a thread of its own, so durable PATCHes keep their pace,
 * attempts past the cap are refused at once with 503 and Retry-After, and the operator still signs in.
 * The server believes X-Forwarded-For from loopback here, so the flood comes from 20 addresses, each attempt
 * for another account (the login throttle counts per address and per account).
 */
import { afterEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Api } from './helpers/api.js';
import { anonymous, PASSWORD, setupOwner, startServerWith, type AccessServer } from './helpers/access-fixtures.js';

const FLOOD_PER_SECOND = 150;
const ADDRESSES = 20;

let server: AccessServer | undefined;
let load: ReturnType<typeof flood> | undefined;
afterEach(async () => {
  // A failed assertion must not leave the flood running against a server that is gone.
  await load?.stop().catch(() => undefined);
  load = undefined;
  await server?.dispose();
  server = undefined;
});

interface Attempt {
  status: number;
  retryAfter: string | null;
  ms: number;
}

/** A failed sign-in from one of the flood's addresses, for an account of its own. */
async function failedSignIn(url: string, n: number): Promise<Attempt> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${n % ADDRESSES}` },
    body: JSON.stringify({ email: `guess${n}@example.com`, password: 'not the password' }),
  });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
}

/** Starts FLOOD_PER_SECOND failed sign-ins a second, without waiting for answers; stop() returns them all. */
function flood(url: string, first: number) {
  const attempts: Promise<Attempt>[] = [];
  let n = first;
  const timer = setInterval(() => {
    for (let i = 0; i < FLOOD_PER_SECOND / 10; i++) attempts.push(failedSignIn(url, n++));
  }, 100);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(attempts);
    },
  };
}

/** Times of durable PATCHes sent one after another for `ms`, under the updates limit (30/s per channel). */
async function patchTimes(call: Api, channelId: string, ms: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now();
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i }), 200);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('keeps durable PATCHes within 3× of their quiet pace under 150 failed sign-ins a second, refusing the excess fast', async () => {
  server = await startServerWith({ ONAIR_DB_SYNC: 'full', ONAIR_TRUSTED_PROXIES: '127.0.0.1' });
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const operator = anonymous(server.url);
  const { channelId } = await createChannelWithScoreboard(call);
  await patchTimes(call, channelId, 500);
  // Quiet and flooded windows take turns, so that other work on a busy machine falls on both.
  const quiet: number[] = [];
  const loaded: number[] = [];
  const attempts: Attempt[] = [];
  const signIns: number[] = [];
  for (let round = 0; round < 3; round++) {
    quiet.push(...(await patchTimes(call, channelId, 1_500)));
    load = flood(server.url, round * 1_000);
    await sleep(500);
    loaded.push(...(await patchTimes(call, channelId, 1_500)));
    // The operator signs in from an address of their own while the flood goes on.
    const signIn = { email: owner.email, password: PASSWORD };
    const res = await operator('POST', '/v1/auth/login', signIn, { headers: { 'x-forwarded-for': '10.8.0.1' } });
    signIns.push(res.status);
    attempts.push(...(await load.stop()));
    load = undefined;
  }
  // A burst on top: more at once than the cap lets wait, so some are certainly refused.
  attempts.push(...(await Promise.all(Array.from({ length: 100 }, (_, i) => failedSignIn(server!.url, 10_000 + i)))));

  const [q, l] = [median(quiet), median(loaded)];
  expect(l / q, `PATCH p50 ${q.toFixed(1)} ms quiet, ${l.toFixed(1)} ms under the flood`).toBeLessThan(3);
  expect(signIns.filter((s) => s === 200).length, `operator sign-ins: ${signIns.join(', ')}`).toBeGreaterThanOrEqual(2);
  const refused = attempts.filter((a) => a.status !== 401);
  expect(refused.length).toBeGreaterThan(0);
  for (const a of refused) {
    expect(a.status, JSON.stringify(a)).toBe(503);
    expect(a.retryAfter).toBe('1');
    // Refused after a bounded wait (ONAIR_PASSWORD_WAIT_MS, 250 ms), never a queue that grows.
    expect(a.ms, JSON.stringify(a)).toBeLessThan(2_000);
  }
}, 60_000);
