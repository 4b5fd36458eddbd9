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
function flood(url: string) {
  const attempts: Promise<Attempt>[] = [];
  let n = 0;
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

/** The median time of durable PATCHes sent one after another for `ms`, under the updates limit (30/s). */
async function patchP50(call: Api, channelId: string, ms: number): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now();
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i }), 200);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

it('keeps durable PATCHes within 3× of their quiet pace under 150 failed sign-ins a second, refusing the excess fast', async () => {
  server = await startServerWith({ ONAIR_DB_SYNC: 'full', ONAIR_TRUSTED_PROXIES: '127.0.0.1' });
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const { channelId } = await createChannelWithScoreboard(call);
  await patchP50(call, channelId, 500);
  const quiet = await patchP50(call, channelId, 3_000);

  load = flood(server.url);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const loaded = await patchP50(call, channelId, 4_000);
  // The operator signs in from an address of their own while the flood goes on.
  const operator = anonymous(server.url);
  const signIns: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await operator(
      'POST',
      '/v1/auth/login',
      { email: owner.email, password: PASSWORD },
      {
        headers: { 'x-forwarded-for': '10.8.0.1' },
      },
    );
    signIns.push(res.status);
  }
  // A burst on top of the flood: more at once than the cap lets wait, so some are certainly refused.
  const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => failedSignIn(server!.url, 10_000 + i)));
  const attempts = [...(await load.stop()), ...burst];
  load = undefined;

  expect(
    loaded / quiet,
    `PATCH p50 ${quiet.toFixed(1)} ms quiet, ${loaded.toFixed(1)} ms under the flood`,
  ).toBeLessThan(3);
  expect(signIns.filter((s) => s === 200).length, `operator sign-ins: ${signIns.join(', ')}`).toBeGreaterThanOrEqual(4);
  const refused = attempts.filter((a) => a.status !== 401);
  expect(refused.length).toBeGreaterThan(0);
  for (const a of refused) {
    expect(a.status).toBe(503);
    expect(a.retryAfter).toBe('1');
    // Refused after a bounded wait (ONAIR_PASSWORD_WAIT_MS, 250 ms), never a queue that grows.
    expect(a.ms).toBeLessThan(2_000);
  }
}, 60_000);
