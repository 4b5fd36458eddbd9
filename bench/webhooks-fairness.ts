/**
 * Fair delivery (docs/webhooks.md, "Fair delivery"): "with 50 never-answering endpoints in one workspace, another
 * workspace's deliveries keep p99 under 1 s".
 *
 * Three processes besides this one: onair (the real server, `ONAIR_DB_SYNC=full`, production delivery settings), and
 * the HTTPS receiver of bench/webhooks.ts, which checks every signature, answers 204, and never answers a path under
 * `/hang`. Two workspaces, seeded before the start: the tarpit workspace subscribes 50 endpoints under `/hang` on
 * the receiver (the same host as the victim's endpoints: they share its origin), the victim workspace 10 endpoints.
 * The baseline is the same run without the tarpits: the victim's arms first, while the tarpit workspace makes no
 * events (its endpoints get nothing); then the same arms while it makes events for its 50 endpoints.
 *
 *   npx tsx bench/webhooks-fairness.ts [--short]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { Arrivals, ReceiverCounts } from './servers/webhook-receiver.js';
import { BENCH_KEY, seedChannels, seedWorkspace } from './servers/seed.js';
import { selfSignedCertificate } from './lib/certificate.js';
import { LOCALHOST, sleep, startChild, type Child } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { settle, stealMeter } from './lib/machine.js';
import { PatchLoad } from './lib/patch-load.js';
import { percentile } from './lib/stats.js';
import { boundRow, fmt, infoRow, type Table } from './lib/table.js';

const VICTIM_KEY = 'onair_sk_BenchVictim0123456789abcdefghijklmn';
const TARPITS = 50;
const VICTIM_SUBSCRIPTIONS = 10;
/**
 * Victim events a second (× 10 subscriptions = 200 deliveries/s, 2 a second on each of its 10 channels): well
 * within what one node delivers on a shared 2-core machine, so that what the tarpits cost shows, not a queue that
 * any other load on the machine would build (at 1,000/s, bench/webhooks.ts's rate, other programs' bursts do).
 */
const VICTIM_EVENTS = 20;
/** Tarpit events a second (× 50 endpoints = 500 attempts wanted a second, none ever answered). */
const TARPIT_EVENTS = 10;
/** The tarpit workspace's events run this long before a victim arm starts, so its endpoints hold what they can. */
const TARPIT_WARM_MS = 4_000;

const plan = (short: boolean) => (short ? { arms: 2, armSeconds: 3 } : { arms: 3, armSeconds: 5 });

interface Arm {
  rate: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
}

interface Rig {
  receiver: Child;
  onair: Child;
  victim: PatchLoad;
  tarpit: PatchLoad;
  receiverUrl: string;
  subscribe(key: string, url: string): Promise<{ secret: string; path: string }>;
  take(): Promise<{ at: number; created: number }[]>;
  close(): Promise<void>;
}

async function openRig(maxLifeMs: number): Promise<Rig> {
  const cert = await selfSignedCertificate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-bench-fairness-'));
  const tarpitChannels = await seedChannels(dir, BENCH_KEY, 4);
  const victimChannels = await seedWorkspace(dir, 'Victim', VICTIM_KEY, 10);
  const receiver = await startChild('bench/servers/webhook-receiver.ts', { config: cert, maxLifeMs });
  const onair = await startChild('bench/servers/onair-webhooks.ts', {
    config: { dataDir: dir, ca: cert.cert },
    maxLifeMs,
  });
  const port = onair.info.port as number;
  const api = `http://${LOCALHOST}:${port}/v1/webhooks`;
  const victim = new PatchLoad(
    port,
    VICTIM_KEY,
    victimChannels.map((c) => c.id),
  );
  const tarpit = new PatchLoad(
    port,
    BENCH_KEY,
    tarpitChannels.map((c) => c.id),
  );
  return {
    receiver,
    onair,
    victim,
    tarpit,
    receiverUrl: `https://${LOCALHOST}:${receiver.info.port as number}`,
    async subscribe(key, url) {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ url, events: ['channel.bind_updated'] });
      const res = await request(api, { method: 'POST', headers, body });
      const json = (await res.body.json()) as { secret: string };
      if (res.statusCode !== 201) throw new Error(`POST /v1/webhooks: ${res.statusCode} ${JSON.stringify(json)}`);
      return { secret: json.secret, path: new URL(url).pathname };
    },
    async take() {
      const a = await receiver.request<Arrivals>('take');
      return a.at.map((at, i) => ({ at, created: a.created[i]! }));
    },
    async close() {
      for (const close of [() => victim.close(), () => tarpit.close(), () => onair.stop(), () => receiver.stop()]) {
        await close().catch((err: unknown) => console.error('webhooks-fairness: closing', err));
      }
    },
  };
}

/** Collects arrivals until `expected` are in, or none came for `stallMs` (a tarpit holds for its 10 s timeout). */
async function arrivals(rig: Rig, expected: number, stallMs: number) {
  const got: { at: number; created: number }[] = [];
  let lastGrowth = performance.now();
  while (got.length < expected && performance.now() - lastGrowth < stallMs) {
    await sleep(50);
    const before = got.length;
    got.push(...(await rig.take()));
    if (got.length > before) lastGrowth = performance.now();
  }
  return got;
}

/** One arm: the victim's events at a steady rate; latency is receipt − the event's createdAt. */
async function victimArm(rig: Rig, seconds: number): Promise<Arm> {
  await rig.take();
  const t0 = performance.timeOrigin + performance.now();
  const totals = await rig.victim.run(VICTIM_EVENTS, VICTIM_EVENTS * seconds);
  const t1 = performance.timeOrigin + performance.now();
  if (totals.refused + totals.failed > 0)
    console.error(`webhooks-fairness: ${totals.refused} refused, ${totals.failed} failed`);
  const expected = totals.ok * VICTIM_SUBSCRIPTIONS;
  const got = await arrivals(rig, expected, 12_000);
  const lat = Float64Array.from(got.map((a) => a.at - a.created)).sort();
  return {
    rate: got.filter((a) => a.at >= t0 && a.at <= t1).length / ((t1 - t0) / 1000),
    p50: percentile(lat, 50),
    p90: percentile(lat, 90),
    p99: percentile(lat, 99),
    max: lat.length > 0 ? lat[lat.length - 1]! : NaN,
    delivered: got.length,
    expected,
  };
}

const logArm = (name: string, a: Arm) =>
  console.error(
    `webhooks-fairness ${name}: ${a.delivered}/${a.expected}, ${fmt.rate(a.rate)}, p50 ${fmt.ms(a.p50)}, p99 ${fmt.ms(a.p99)}, max ${fmt.ms(a.max)}`,
  );

/** Arms of one kind as one: the median arm's rate, p50, p90 and p99 (each on its own), the largest max. */
function medianArm(arms: Arm[]): Arm {
  const mid = (f: (a: Arm) => number) => arms.map(f).sort((x, y) => x - y)[Math.floor(arms.length / 2)]!;
  return {
    rate: mid((a) => a.rate),
    p50: mid((a) => a.p50),
    p90: mid((a) => a.p90),
    p99: mid((a) => a.p99),
    max: Math.max(...arms.map((a) => a.max)),
    delivered: arms.reduce((n, a) => n + a.delivered, 0),
    expected: arms.reduce((n, a) => n + a.expected, 0),
  };
}

interface Results {
  alone: Arm[];
  beside: Arm[];
  counts: ReceiverCounts;
  busy: number;
  steal: number;
}

async function measure(o: BenchOptions): Promise<Results> {
  const p = plan(o.short);
  const busy = await settle(o.short);
  const steal = stealMeter();
  const rig = await openRig(o.short ? 120_000 : 240_000);
  try {
    const secrets: Record<string, string> = {};
    for (let i = 0; i < VICTIM_SUBSCRIPTIONS; i++) {
      const s = await rig.subscribe(VICTIM_KEY, `${rig.receiverUrl}/v/${i}`);
      secrets[s.path] = s.secret;
    }
    await rig.receiver.request('secrets', secrets);
    for (let i = 0; i < TARPITS; i++) await rig.subscribe(BENCH_KEY, `${rig.receiverUrl}/hang/t${i}`);
    // Warm-up: connections, TLS sessions, statements, JIT, and the seeding's write-ahead log checkpointed.
    logArm('warm-up, not counted', await victimArm(rig, 5));
    const alone: Arm[] = [];
    for (let i = 0; i < p.arms; i++) {
      alone.push(await victimArm(rig, p.armSeconds));
      logArm(`alone ${i + 1}`, alone[i]!);
    }
    // The tarpit workspace's events, a second's worth at a time, until the last arm is collected.
    let stopped = false;
    const tarpitLoad = (async () => {
      while (!stopped) await rig.tarpit.run(TARPIT_EVENTS, TARPIT_EVENTS);
    })();
    await sleep(TARPIT_WARM_MS);
    const held = (await rig.receiver.request<ReceiverCounts>('counts')).held;
    console.error(`webhooks-fairness: ${held} requests held by the tarpits when the arms start`);
    const beside: Arm[] = [];
    for (let i = 0; i < p.arms; i++) {
      beside.push(await victimArm(rig, p.armSeconds));
      logArm(`beside ${TARPITS} tarpits ${i + 1}`, beside[i]!);
    }
    const counts = await rig.receiver.request<ReceiverCounts>('counts');
    stopped = true;
    await tarpitLoad;
    await rig.receiver.request('release');
    return { alone, beside, counts, busy, steal: steal() };
  } finally {
    await rig.close();
  }
}

export async function runWebhooksFairness(o: BenchOptions): Promise<Table[]> {
  const p = plan(o.short);
  const r = await measure(o);
  const a = medianArm(r.alone);
  const b = medianArm(r.beside);
  const worstP99 = (arms: Arm[]) => fmt.ms(Math.max(...arms.map((x) => x.p99)));
  const load = `${VICTIM_SUBSCRIPTIONS} subscriptions × ${VICTIM_EVENTS} events/s`;
  const ratio = (x: number, y: number) => fmt.x(x / y);
  return [
    {
      title: "Fair webhook delivery: a workspace's deliveries beside another workspace's 50 never-answering endpoints",
      command: `npx tsx bench/webhooks-fairness.ts${o.short ? ' --short' : ''}`,
      rows: [
        boundRow(
          `victim's commit → arrival p99, ${load}, beside ${TARPITS} tarpits (median of ${p.arms} arms)`,
          `without the tarpits: ${fmt.ms(a.p99)}`,
          b.p99,
          fmt.ms,
          { max: 1000, text: '≤ 1 s' },
          ratio(b.p99, a.p99),
        ),
        infoRow('  same, p50', `without: ${fmt.ms(a.p50)}`, fmt.ms(b.p50), ratio(b.p50, a.p50)),
        infoRow('  same, p90', `without: ${fmt.ms(a.p90)}`, fmt.ms(b.p90), ratio(b.p90, a.p90)),
        infoRow("  same, the worst arm's p99", `without: ${worstP99(r.alone)}`, worstP99(r.beside)),
        infoRow('  same, max of all arms', `without: ${fmt.ms(a.max)}`, fmt.ms(b.max), ratio(b.max, a.max)),
        infoRow(
          "  victim's deliveries/s inside the arms",
          `without: ${fmt.rate(a.rate)}`,
          fmt.rate(b.rate),
          ratio(b.rate, a.rate),
        ),
        infoRow('  delivered / expected', `without: ${a.delivered}/${a.expected}`, `${b.delivered}/${b.expected}`),
      ],
      notes: [
        `onair (ONAIR_DB_SYNC=full, production delivery settings: 8 attempts per subscription, 32 per workspace, 128 in all with 4 more for any workspace below its minimum, a pool per subscription, 3 s connect and 10 s response timeouts) delivers to an HTTPS receiver in another process that checks every signature and answers 204, except under /hang, where it never answers.`,
        `Victim: a second workspace with its own key, ${VICTIM_SUBSCRIPTIONS} subscriptions, PATCH /v1/channels/:id/inputs at ${VICTIM_EVENTS}/s over 10 channels. Tarpits: the first workspace's ${TARPITS} subscriptions to /hang/… on the same receiver (same origin as the victim's), its events at ${TARPIT_EVENTS}/s over 4 channels, starting ${TARPIT_WARM_MS / 1000} s before its arms; ${r.counts.held} requests held unanswered at the end.`,
        `Baseline: the same run's arms before the tarpit workspace made any event. Arms of ${p.armSeconds} s; latency = receipt − the event's createdAt; an arm's collection waits up to 12 s past its last receipt. Rate and percentiles: the median arm's, each on its own; a first arm of 5 s is not counted (warm-up).`,
        `Checks: ${r.counts.badSignatures} bad signatures, ${r.counts.duplicates} deliveries received twice. Machine ${fmt.pct(r.busy)} busy before the run; steal during it ${fmt.pct(r.steal)}.`,
      ],
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runWebhooksFairness);
