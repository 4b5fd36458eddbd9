/**
 * A flood of failed sign-ins against durable PATCHes: the real server, a control desk sending PATCHes one
 * after another, first quiet, then while 150 failed sign-ins a second arrive from 20 addresses (each for an
 * account of its own, so the login throttle, which counts per address and per account, lets most through
 * for the length of the run). Every failed sign-in costs an argon2 verification; the figure is how much the
 * PATCHes' median slows, in the same run. Shown beside it: the same server with the cap on password work
 * raised to 4 (libuv's thread pool size, so about what no cap did), the flood's answers, and the operator
 * signing in once a second during the flood.
 *
 *   npx tsx bench/sign-in-flood.ts [--short]
 */
import { sleep, startChild, type Child } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { settle } from './lib/machine.js';
import { startOnair, tickDelta, type Onair, type OnairStats } from './lib/onair.js';
import { cpuShare, summary } from './lib/stats.js';
import { fmt, infoRow, ratioRow, type Row, type Table } from './lib/table.js';

const FLOOD_PER_SECOND = 150;
const ADDRESSES = 20;
const OPERATOR = { email: 'operator@example.com', password: 'operator password 1' };
/** Between one PATCH's answer and the next: about 25 a second, under the updates limit (30/s per channel). */
const GAP_MS = 20;
/** Quiet and flooded windows of PATCHes, taking turns; the flood runs RAMP_MS before its window is measured. */
const WINDOW_S = 2;
const RAMP_MS = 500;
/** 4 flooded windows of 2.5 s: about 1,500 attempts, 75 per address at most (the throttle allows 100). */
const ROUNDS = 4;
const ROUNDS_SHORT = 3;

interface Patches {
  times: number[];
  failed: number;
}
interface FloodRound {
  statuses: Record<string, number>;
  refusedMs: number[];
  refusedWithRetryAfter: number;
  operator: { tried: number; signedIn: number };
}
interface Measured {
  quiet: ReturnType<typeof summary>;
  loaded: ReturnType<typeof summary>;
  statuses: Record<string, number>;
  refused: ReturnType<typeof summary>;
  refusedWithRetryAfter: number;
  operator: { tried: number; signedIn: number };
  floodSeconds: number;
  serverCpu: number;
  lateTicks: number;
  ticks: number;
}

interface Kind {
  name: string;
  env: Record<string, string>;
}
const CAPPED: Kind = { name: 'onair (ONAIR_PASSWORD_CONCURRENCY=1, the default)', env: {} };
const UNCAPPED: Kind = {
  name: 'onair with ONAIR_PASSWORD_CONCURRENCY=4 (as many as libuv has threads: about no cap)',
  env: { ONAIR_PASSWORD_CONCURRENCY: '4' },
};

async function measure(kind: Kind, o: BenchOptions): Promise<Measured> {
  await settle(o.short);
  const server = await startOnair({
    channels: 1,
    user: OPERATOR,
    env: { ONAIR_TRUSTED_PROXIES: '127.0.0.1', ...kind.env },
  });
  const clients: Child[] = [];
  try {
    const config = { config: { port: server.port } };
    const patcher = await startChild('bench/clients/sign-in-flood.ts', config);
    clients.push(patcher);
    const flooder = await startChild('bench/clients/sign-in-flood.ts', config);
    clients.push(flooder);
    return await phases(server, patcher, flooder, o);
  } finally {
    for (const c of clients) await c.stop();
    await server.stop();
  }
}

/**
 * Quiet and flooded windows take turns, so that a slow minute on a shared machine falls on both; each figure
 * pools its windows' samples.
 */
async function phases(server: Onair, patcher: Child, flooder: Child, o: BenchOptions): Promise<Measured> {
  const patches = (seconds: number) =>
    patcher.request<Patches>('patches', { channelId: server.channels[0]!.id, key: server.key, seconds, gapMs: GAP_MS });
  await patches(1);
  const quiet: number[] = [];
  const loaded: number[] = [];
  const rounds: FloodRound[] = [];
  let floodMs = 0;
  let cpuMs = 0;
  let windowMs = 0;
  const ticks = { ticks: 0, late: 0 };
  for (let i = 0; i < (o.short ? ROUNDS_SHORT : ROUNDS); i++) {
    quiet.push(...(await patches(WINDOW_S)).times);
    const started = performance.now();
    await flooder.request('floodStart', { perSecond: FLOOD_PER_SECOND, addresses: ADDRESSES, operator: OPERATOR });
    await sleep(RAMP_MS);
    const s0 = await server.child.request<OnairStats>('stats');
    loaded.push(...(await patches(WINDOW_S)).times);
    const s1 = await server.child.request<OnairStats>('stats');
    rounds.push(await flooder.request<FloodRound>('floodStop'));
    floodMs += performance.now() - started;
    cpuMs += cpuShare(s0.cpu, s1.cpu, s1.at - s0.at) * (s1.at - s0.at);
    windowMs += s1.at - s0.at;
    const d = tickDelta(s0, s1);
    ticks.ticks += d.ticks;
    ticks.late += d.late;
    // The flood's last answers come back before the next quiet window.
    await sleep(RAMP_MS);
  }
  return {
    ...pool(rounds),
    quiet: summary(quiet),
    loaded: summary(loaded),
    floodSeconds: floodMs / 1000,
    serverCpu: cpuMs / windowMs,
    lateTicks: ticks.late,
    ticks: ticks.ticks,
  };
}

function pool(rounds: FloodRound[]) {
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [k, n] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return {
    statuses,
    refused: summary(rounds.flatMap((r) => r.refusedMs)),
    refusedWithRetryAfter: rounds.reduce((n, r) => n + r.refusedWithRetryAfter, 0),
    operator: {
      tried: rounds.reduce((n, r) => n + r.operator.tried, 0),
      signedIn: rounds.reduce((n, r) => n + r.operator.signedIn, 0),
    },
  };
}

function rows(label: string, m: Measured, target: boolean): Row[] {
  const perSecond = (status: string) => fmt.rate((m.statuses[status] ?? 0) / m.floodSeconds);
  const refused = m.refused;
  return [
    ratioRow(
      `${label}: PATCH p50, under ${FLOOD_PER_SECOND} failed sign-ins/s from ${ADDRESSES} addresses`,
      'the same PATCHes before the flood',
      m.quiet.p50,
      m.loaded.p50,
      fmt.ms,
      target ? { max: 1.5 } : undefined,
    ),
    infoRow(
      `${label}: PATCH p99`,
      `before the flood: ${fmt.ms(m.quiet.p99)}`,
      fmt.ms(m.loaded.p99),
      fmt.x(m.loaded.p99 / m.quiet.p99),
    ),
    infoRow(
      `${label}: the flood's answers`,
      `${FLOOD_PER_SECOND}/s sent`,
      `401 ${perSecond('401')}, 503 ${perSecond('503')}, 429 ${perSecond('429')}`,
    ),
    infoRow(
      `${label}: 503 refusals, answered within (p50 / p99)`,
      `${m.refusedWithRetryAfter} of ${refused.count} with Retry-After`,
      refused.count ? `${fmt.ms(refused.p50)} / ${fmt.ms(refused.p99)}` : '—',
    ),
    infoRow(
      `${label}: the operator signing in once a second during the flood`,
      '—',
      `${m.operator.signedIn} of ${m.operator.tried}`,
    ),
    infoRow(
      `${label}: server CPU during the flood (one core = 100 %); late ticks`,
      '—',
      `${fmt.pct(m.serverCpu)}; ${m.lateTicks} of ${m.ticks}`,
    ),
  ];
}

export async function runSignInFlood(o: BenchOptions): Promise<Table[]> {
  const capped = await measure(CAPPED, o);
  const uncapped = await measure(UNCAPPED, o);
  return [
    {
      title: 'Sign-in flood against durable PATCHes',
      command: `npx tsx bench/sign-in-flood.ts${o.short ? ' --short' : ''}`,
      rows: [...rows('default cap', capped, true), ...rows('cap of 4', uncapped, false)],
      notes: [
        `Each server is the real one in its own process with ONAIR_DB_SYNC=full and one 60 fps channel, ONAIR_TRUSTED_PROXIES=127.0.0.1 so the flood's X-Forwarded-For spreads it over ${ADDRESSES} addresses. ` +
          `PATCHes go one after another from their own process, ${GAP_MS} ms between an answer and the next request; ` +
          `the flood comes from another process, open loop, ${FLOOD_PER_SECOND / 10} attempts every 100 ms, each for an account of its own, ` +
          'and the operator signs in from an address of their own once a second meanwhile.',
        `Quiet and flooded ${WINDOW_S} s windows of PATCHes take turns, ${o.short ? ROUNDS_SHORT : ROUNDS} of each, so that a slow moment on a shared machine falls on both; ` +
          `each flooded window starts ${RAMP_MS} ms into its flood, and each figure pools the samples of its windows. ` +
          'A failed sign-in answers 401 after an argon2 verification; ' +
          'past the cap on password work (ONAIR_PASSWORD_CONCURRENCY, ONAIR_PASSWORD_WAIT_MS) it answers 503 with Retry-After: 1 without one.',
      ],
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runSignInFlood);
