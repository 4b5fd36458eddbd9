/**
 * Clients for bench/sign-in-flood.ts, in their own process. `patches` sends durable PATCHes one after another
 * (a control desk's pace, under the updates limit) and reports their latency. `floodStart` starts failed
 * sign-ins at a fixed rate, open loop (no attempt waits for another's answer), each from one of `addresses`
 * (X-Forwarded-For, which the server believes from loopback in this benchmark) and for an account of its own;
 * meanwhile the operator signs in once a second from an address of their own. `floodStop` reports both. Raw
 * samples go back, so that the orchestrator can pool several rounds.
 */
import { childConfig, LOCALHOST, ready, serveParent } from '../lib/child.js';

interface Config {
  port: number;
}

const base = () => `http://${LOCALHOST}:${childConfig<Config>().port}`;

async function post(path: string, body: unknown, headers: Record<string, string>, method = 'POST') {
  const started = performance.now();
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
}

/** PATCHes one after another for `seconds`, a pause of `gapMs` between an answer and the next request. */
async function patches(args: Record<string, unknown>) {
  const { channelId, key, seconds, gapMs } = args as { channelId: string; key: string; seconds: number; gapMs: number };
  const times: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const r = await post(
      `/v1/channels/${channelId}/inputs`,
      { scoreA: i },
      { authorization: `Bearer ${key}` },
      'PATCH',
    );
    if (r.status === 200) times.push(r.ms);
    else failed++;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return { times, failed };
}

type Attempt = Awaited<ReturnType<typeof post>>;
let flood: {
  timer: NodeJS.Timeout;
  operator: NodeJS.Timeout;
  attempts: Promise<Attempt>[];
  signIns: Promise<Attempt>[];
} | null = null;
let n = 0;

function floodStart(args: Record<string, unknown>) {
  const { perSecond, addresses, operator } = args as {
    perSecond: number;
    addresses: number;
    operator: { email: string; password: string };
  };
  const attempts: Promise<Attempt>[] = [];
  const signIns: Promise<Attempt>[] = [];
  // Ten volleys a second: setInterval cannot keep a 6.7 ms period on a busy machine.
  const timer = setInterval(() => {
    for (let i = 0; i < perSecond / 10; i++, n++) {
      const headers = { 'x-forwarded-for': `10.9.${Math.floor((n % addresses) / 250)}.${(n % addresses) % 250}` };
      attempts.push(post('/v1/auth/login', { email: `guess${n}@example.com`, password: 'not the password' }, headers));
    }
  }, 100);
  const signIn = () => post('/v1/auth/login', operator, { 'x-forwarded-for': '10.8.0.1' });
  const operatorTimer = setInterval(() => signIns.push(signIn()), 1000);
  flood = { timer, operator: operatorTimer, attempts, signIns };
}

async function floodStop() {
  if (!flood) throw new Error('no flood running');
  clearInterval(flood.timer);
  clearInterval(flood.operator);
  const attempts = await Promise.all(flood.attempts);
  const signIns = await Promise.all(flood.signIns);
  flood = null;
  const statuses: Record<string, number> = {};
  for (const a of attempts) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const refused = attempts.filter((a) => a.status === 503);
  return {
    statuses,
    refusedMs: refused.map((a) => a.ms),
    refusedWithRetryAfter: refused.filter((a) => a.retryAfter !== null).length,
    operator: { tried: signIns.length, signedIn: signIns.filter((s) => s.status === 200).length },
  };
}

serveParent({ patches, floodStart, floodStop });
ready();
