/**
 * Several nodes (docs/architecture/several-nodes.md): renderers spread over 3 nodes against the same load on 1 node,
 * in one run, on one Postgres and one Redis: PATCH → renderer latency, fan-out rate (frames the renderers receive per
 * second), and what the Redis hop costs — the latency of renderers on a node that does not own the channel (its
 * frames come through Redis) minus that of renderers on the owner (handed the frame in the owner's process), next to
 * a raw Redis pub/sub publish → receive measured in the same run as the floor of that hop.
 *
 * Both arms run real `src/cli.ts` processes with the same cluster settings (ONAIR_DATABASE_URL + ONAIR_REDIS_URL):
 * only the node count differs. Each arm has a fresh Postgres schema and Redis prefix, and its nodes are killed at its
 * end. The load generator (bench/lib/cluster-clients.ts) is one process: R renderers (output-token WebSockets reading
 * every frame) spread evenly over the nodes, and C channels PATCHed at a steady rate over REST, round-robin over the
 * nodes. Loopback only; bounded in time (about 70 s, 30 s with --quick) and count.
 *
 * Needs the services of the several-node tests: eval "$(bash test/services/start.sh)" first.
 *
 *   npm run bench:cluster                (20 s measured per arm)
 *   npm run bench:cluster -- --quick     (5 s per arm)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { serviceUrl, TEST_DATABASE_URL, TEST_REDIS_URL } from '../test/helpers/services.js';
import { sleep, startChild, type Child } from './lib/child.js';
import type { ClusterClientsConfig, ClusterClientsResult, Dist } from './lib/cluster-clients.js';
import {
  CLUSTER_BENCH_KEY,
  cpuDelta,
  machineBusyMs,
  metricValue,
  pidsNamed,
  processCpuMs,
  startBenchCluster,
  type BenchCluster,
  type NodeLog,
} from './lib/cluster-nodes.js';
import { isMain, type BenchOptions } from './lib/cli.js';
import { cpuBusy, machineLine, schedMeter, stealMeter, waitForQuiet } from './lib/machine.js';
import { pace } from './lib/pacer.js';
import { percentile } from './lib/stats.js';
import { fmt, infoRow, ratioRow, renderTable, type Row, type Table } from './lib/table.js';

const CHANNELS = 10;
const RENDERERS_PER_CHANNEL = 30;
/** PATCHes per channel per second: under the `updates` limit (30/s per channel, exact across nodes). */
const RATE = 20;
/** The raw Redis probe: messages per second while an arm runs, and its payload (about one frame's size). */
const PROBE_RATE = 100;
const PROBE_BYTES = 160;

interface Plan {
  quick: boolean;
  warmupMs: number;
  seconds: number;
  /** The idle Redis probe before the arms: messages and rate. */
  idleProbe: { count: number; perSecond: number };
}

function plan(o: BenchOptions): Plan {
  return o.short
    ? { quick: true, warmupMs: 1_500, seconds: 5, idleProbe: { count: 500, perSecond: 500 } }
    : { quick: false, warmupMs: 3_000, seconds: 20, idleProbe: { count: 2_000, perSecond: 1_000 } };
}

// ---------------------------------------------------------------------------------------------------------------
// The floor: ioredis publish → subscriber receive, two connections of this process.

function dist(values: number[]): Dist {
  const s = Float64Array.from(values).sort();
  const max = s.length ? s[s.length - 1]! : NaN;
  return { count: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max };
}

class RedisProbe {
  private readonly sentAt = new Map<number, number>();
  private samples: number[] = [];
  private seq = 0;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly topic: string,
  ) {
    sub.on('message', (_channel: string, message: string) => {
      const now = performance.now();
      const seq = Number(message.slice(0, 10));
      const t = this.sentAt.get(seq);
      if (t === undefined) return;
      this.sentAt.delete(seq);
      this.samples.push(now - t);
    });
  }

  static async open(prefix: string): Promise<RedisProbe> {
    const pub = new Redis(serviceUrl('redis'), { lazyConnect: true, maxRetriesPerRequest: 1 });
    const sub = new Redis(serviceUrl('redis'), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await Promise.all([pub.connect(), sub.connect()]);
    const topic = `${prefix}probe`;
    await sub.subscribe(topic);
    return new RedisProbe(pub, sub, topic);
  }

  /** `count` messages at `perSecond`; the distribution of their publish → receive times, and how many were lost. */
  async run(perSecond: number, count: number): Promise<Dist & { lost: number }> {
    this.samples = [];
    this.sentAt.clear();
    const pad = 'x'.repeat(PROBE_BYTES - 10);
    await pace(perSecond, count, () => {
      const seq = ++this.seq;
      this.sentAt.set(seq, performance.now());
      void this.pub.publish(this.topic, `${String(seq).padStart(10, '0')}${pad}`).catch(() => {});
    });
    await sleep(200);
    return { ...dist(this.samples), lost: this.sentAt.size };
  }

  close(): void {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One arm: N nodes, the load, readings around the measured window.

interface Reading {
  at: number;
  /** CPU used so far (ms) by pid. */
  nodesCpuMs: Map<number, number>;
  clientCpuMs: Map<number, number>;
  redisCpuMs: Map<number, number>;
  postgresCpuMs: Map<number, number>;
  /** This process (the Redis probe). */
  selfCpuMs: number;
  machineBusyMs: number;
  metrics: string[];
}

interface Arm {
  nodes: number;
  clients: ClusterClientsResult;
  /** Renderers per node, as connected. */
  perNode: number[];
  /** Channels each node owned during the window. */
  owned: Record<string, number>;
  /** Channels whose owner was not the same before and after the window. */
  moved: number;
  probe: Dist & { lost: number };
  windowS: number;
  /** Shares of one core; `other`: the machine's busy time not accounted for by these nor this process. */
  cpu: { nodes: number; client: number; redis: number; postgres: number; other: number };
  /** The nodes' main threads: ms per second runnable but waiting for a CPU, summed over the nodes. */
  waitMsPerS: number;
  /** The nodes' CPU (share of one core) at rest: renderers connected, no PATCHes, before the load. */
  restCpu: number;
  steal: number;
  busyBefore: number;
  tick: { meanMs: number; ticks: number; late: number; published: number; wsFrames: number };
  logs: NodeLog[];
}

async function read(cluster: BenchCluster, clients: Child): Promise<Reading> {
  const pids = cluster.nodes.map((n) => n.process.pid!);
  const metrics = await Promise.all(cluster.nodes.map((n) => cluster.metrics(n)));
  return {
    at: performance.now(),
    nodesCpuMs: processCpuMs(pids),
    clientCpuMs: processCpuMs([clients.proc.pid!]),
    redisCpuMs: processCpuMs(pidsNamed('redis-server')),
    postgresCpuMs: processCpuMs(await cluster.postgresPids()),
    selfCpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    machineBusyMs: machineBusyMs(),
    metrics,
  };
}

/** Shares of one core between two readings; `other` is the machine's busy time none of the rest accounts for. */
function cpuShares(a: Reading, b: Reading): Arm['cpu'] {
  const ms = b.at - a.at;
  const nodes = cpuDelta(a.nodesCpuMs, b.nodesCpuMs);
  const client = cpuDelta(a.clientCpuMs, b.clientCpuMs);
  const redis = cpuDelta(a.redisCpuMs, b.redisCpuMs);
  const postgres = cpuDelta(a.postgresCpuMs, b.postgresCpuMs);
  const other = b.machineBusyMs - a.machineBusyMs - nodes - client - redis - postgres - (b.selfCpuMs - a.selfCpuMs);
  return { nodes: nodes / ms, client: client / ms, redis: redis / ms, postgres: postgres / ms, other: other / ms };
}

function metricDelta(a: Reading, b: Reading, name: string): number {
  let total = 0;
  for (let i = 0; i < a.metrics.length; i++)
    total += metricValue(b.metrics[i]!, name) - metricValue(a.metrics[i]!, name);
  return total;
}

async function runArm(nodeCount: number, p: Plan): Promise<Arm> {
  const busyBefore = await waitForQuiet(p.quick ? 2_000 : 10_000, 0.2);
  const label = `${nodeCount}n`;
  const started = performance.now();
  const cluster = await startBenchCluster(nodeCount, label);
  let clients: Child | undefined;
  let probe: RedisProbe | undefined;
  try {
    console.error(`cluster: ${nodeCount} node(s) up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const channels = await cluster.createChannels(CHANNELS);
    const ids = channels.map((c) => c.id);
    const config: ClusterClientsConfig = {
      key: CLUSTER_BENCH_KEY,
      nodes: cluster.nodes.map((n) => ({ id: n.id, port: n.port })),
      channels,
      perChannel: RENDERERS_PER_CHANNEL,
      rate: RATE,
    };
    cluster.watchStderr();
    clients = await startChild('bench/lib/cluster-clients.ts', { config, maxLifeMs: 180_000 });
    probe = await RedisProbe.open(cluster.prefix);
    const rest0 = await read(cluster, clients);
    await sleep(p.quick ? 1_000 : 2_000);
    const rest1 = await read(cluster, clients);
    const owners = await cluster.owners(ids);
    const running = clients.request<ClusterClientsResult>(
      'run',
      { warmupMs: p.warmupMs, seconds: p.seconds, owners: Object.fromEntries(owners) },
      (p.warmupMs + p.seconds * 1000) * 2 + 30_000,
    );
    await sleep(p.warmupMs);
    const steal = stealMeter();
    const sched = cluster.nodes.map((n) => schedMeter(n.process.pid!));
    const r0 = await read(cluster, clients);
    const probing = probe.run(PROBE_RATE, PROBE_RATE * p.seconds);
    await sleep(Math.max(0, p.seconds * 1000 - (performance.now() - r0.at)));
    const r1 = await read(cluster, clients);
    const waited = sched.map((m) => m());
    const stolen = steal();
    const [result, probed] = await Promise.all([running, probing]);
    const after = await cluster.owners(ids);
    const ms = r1.at - r0.at;
    const owned: Record<string, number> = {};
    for (const n of cluster.nodes) owned[n.id] = 0;
    for (const owner of owners.values()) if (owner) owned[owner] = (owned[owner] ?? 0) + 1;
    const ticks = metricDelta(r0, r1, 'onair_tick_duration_seconds_count');
    const arm: Arm = {
      nodes: nodeCount,
      clients: result,
      perNode: (clients.info.perNode as number[] | undefined) ?? [],
      owned,
      moved: ids.filter((id) => owners.get(id) !== after.get(id)).length,
      probe: probed,
      windowS: ms / 1000,
      cpu: cpuShares(r0, r1),
      restCpu: cpuShares(rest0, rest1).nodes,
      waitMsPerS: waited.reduce((s, w) => s + w.waitMs / w.seconds, 0),
      steal: stolen,
      busyBefore,
      tick: {
        meanMs: ticks > 0 ? (metricDelta(r0, r1, 'onair_tick_duration_seconds_sum') * 1000) / ticks : NaN,
        ticks: metricDelta(r0, r1, 'onair_ticks_total'),
        late: metricDelta(r0, r1, 'onair_late_ticks_total'),
        published: metricDelta(r0, r1, 'onair_frames_published_total'),
        wsFrames: metricDelta(r0, r1, 'onair_ws_messages_sent_total{type="frame"}'),
      },
      logs: cluster.logs,
    };
    const rate = result.frames / (result.windowMs / 1000);
    console.error(
      `cluster: ${nodeCount} node(s): PATCH → renderer p50 ${fmt.ms(result.all.p50)} p99 ${fmt.ms(result.all.p99)}, ` +
        `${fmt.rate(rate)} frames to renderers; nodes ${fmt.pct(arm.cpu.nodes)} CPU`,
    );
    return arm;
  } finally {
    probe?.close();
    await clients?.stop();
    await cluster.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The table.

const three = (d: Dist) => `${fmt.ms(d.p50)} / ${fmt.ms(d.p95)} / ${fmt.ms(d.p99)}`;
const two = (d: Dist) => `${fmt.ms(d.p50)} / ${fmt.ms(d.p99)}`;
const plus = (n: number) => `${n >= 0 ? '+' : '−'}${fmt.ms(Math.abs(n))}`;
const frameRate = (a: Arm) => a.clients.frames / (a.clients.windowMs / 1000);
const statuses = (a: Arm) =>
  [
    ...Object.entries(a.clients.statuses).map(([code, n]) => `${n} × ${code === '0' ? 'failed' : code}`),
    ...(a.clients.unanswered > 0 ? [`${a.clients.unanswered} unanswered after 3 s`] : []),
    `${a.clients.slowCount} slower than 250 ms`,
  ].join(', ');
const cpuLine = (a: Arm) =>
  `nodes ${fmt.pct(a.cpu.nodes)}, Redis ${fmt.pct(a.cpu.redis)}, Postgres ${fmt.pct(a.cpu.postgres)}, load generator ${fmt.pct(a.cpu.client)}; ` +
  `unaccounted (other processes and Postgres clients, interrupts) ${fmt.pct(Math.max(0, a.cpu.other))}`;
const delivery = (a: Arm) =>
  `${a.clients.all.count} measured, ${a.clients.missing} missing; ${a.clients.gaps} gaps, ${a.clients.extraSnapshots} resyncs, ${a.clients.closed} closed, ${a.clients.odd} odd`;
/** Node CPU (µs) per frame a renderer received. */
const cpuPerFrame = (a: Arm) => (a.cpu.nodes * a.clients.windowMs * 1000) / a.clients.frames;

function rows(one: Arm, three3: Arm, idle: Dist & { lost: number }): Row[] {
  const b = one.clients;
  const t = three3.clients;
  const hop50 = t.byRenderer.other.p50 - t.byRenderer.owner.p50;
  const hop99 = t.byRenderer.other.p99 - t.byRenderer.owner.p99;
  return [
    ratioRow('PATCH → renderer, all renderers, p50', '1 node', b.all.p50, t.all.p50, fmt.ms),
    ratioRow('PATCH → renderer, all renderers, p95', '1 node', b.all.p95, t.all.p95, fmt.ms),
    ratioRow('PATCH → renderer, all renderers, p99', '1 node', b.all.p99, t.all.p99, fmt.ms),
    ratioRow(
      'fan-out: frames received by the renderers, per second',
      '1 node',
      frameRate(one),
      frameRate(three3),
      fmt.rate,
    ),
    infoRow(
      'deliveries: values measured, missing; frame gaps, resyncs, sockets closed, error messages',
      delivery(one),
      delivery(three3),
    ),
    infoRow(
      "PATCH → renderer on the channel's owner node, p50 / p95 / p99",
      `1 node (every renderer is on the owner): ${three(b.all)}`,
      three(t.byRenderer.owner),
      fmt.x(t.byRenderer.owner.p50 / b.all.p50),
    ),
    infoRow('PATCH → renderer on another node (frames through Redis), p50 / p95 / p99', '—', three(t.byRenderer.other)),
    infoRow(
      '**Redis hop**: other-node minus owner-node renderers, p50 / p99',
      `raw Redis pub/sub during the 3-node window: ${two(three3.probe)}`,
      `${plus(hop50)} / ${plus(hop99)}`,
    ),
    infoRow(
      '**Redis hop, paired**: per value, first renderer on another node minus first renderer on the owner, p50 / p95 / p99',
      '—',
      three(t.hop),
    ),
    infoRow(
      'raw Redis pub/sub, ioredis publish → subscriber receive (160 B), p50 / p99 (max)',
      `idle, before the arms: ${two(idle)} (${fmt.ms(idle.max)})`,
      `during the 1-node window: ${two(one.probe)} (${fmt.ms(one.probe.max)}); during the 3-node window: ${two(three3.probe)} (${fmt.ms(three3.probe.max)})`,
    ),
    infoRow(
      '3 nodes, PATCH → renderer by where the PATCH went: to the owner / to another node (forwarded), p50 / p99',
      '—',
      `owner ${two(t.byPatch.direct)}; forwarded ${two(t.byPatch.forwarded)}`,
      `forward: ${plus(t.byPatch.forwarded.p50 - t.byPatch.direct.p50)} / ${plus(t.byPatch.forwarded.p99 - t.byPatch.direct.p99)}`,
    ),
    infoRow(
      '3 nodes, the four cases (renderer × PATCH): owner×owner, owner×forwarded, other×owner, other×forwarded, p50 / p99',
      '—',
      [t.quadrants.ownerDirect, t.quadrants.ownerForwarded, t.quadrants.otherDirect, t.quadrants.otherForwarded]
        .map(two)
        .join('; '),
    ),
    infoRow(
      'PATCH sent → answer read, p50 / p99 (max)',
      `1 node: ${two(b.answer.all)} (${fmt.ms(b.answer.all.max)})`,
      `to the owner ${two(t.answer.direct)} (${fmt.ms(t.answer.direct.max)}); forwarded ${two(t.answer.forwarded)} (${fmt.ms(t.answer.forwarded.max)})`,
    ),
    infoRow('PATCH answers in the window', statuses(one), statuses(three3)),
    infoRow(
      'ticks with work: mean tick start → frames published (commit to Postgres inside); late ticks / ticks',
      `${fmt.ms(one.tick.meanMs)}; ${one.tick.late} / ${one.tick.ticks}`,
      `${fmt.ms(three3.tick.meanMs)}; ${three3.tick.late} / ${three3.tick.ticks}`,
    ),
    infoRow(
      'CPU during the window (one core = 100 %; the machine has 2)',
      cpuLine(one),
      cpuLine(three3),
      fmt.x(three3.cpu.nodes / one.cpu.nodes),
    ),
    infoRow(
      'nodes’ CPU at rest (renderers connected, no PATCHes)',
      `1 node: ${fmt.pct(one.restCpu)}`,
      fmt.pct(three3.restCpu),
      one.restCpu > 0 ? fmt.x(three3.restCpu / one.restCpu) : '—',
    ),
    ratioRow('nodes’ CPU per frame received by a renderer', '1 node', cpuPerFrame(one), cpuPerFrame(three3), fmt.us),
    infoRow(
      'nodes’ main threads runnable but waiting for a CPU (summed over nodes), ms per s; steal',
      `${fmt.ms(one.waitMsPerS)}; ${fmt.pct(one.steal)}`,
      `${fmt.ms(three3.waitMsPerS)}; ${fmt.pct(three3.steal)}`,
    ),
  ];
}

function logNotes(arms: Arm[]): string[] {
  const notes: string[] = [];
  for (const arm of arms) {
    for (const log of arm.logs) {
      if (log.lines.size === 0) continue;
      const kinds = [...log.lines.entries()].map(([kind, n]) => `${n} × "${kind}"`).join(', ');
      const example = [...log.examples.values()][0] ?? '';
      notes.push(`Node ${log.node} logged: ${kinds}. First: \`${example.replaceAll('`', "'")}\``);
    }
  }
  return notes.length > 0 ? notes : ['No node logged a warning or an error in either arm.'];
}

export async function runCluster(o: BenchOptions): Promise<Table[]> {
  if (!TEST_DATABASE_URL || !TEST_REDIS_URL)
    throw new Error('bench/cluster.ts needs Postgres and Redis: run eval "$(bash test/services/start.sh)" first.');
  const p = plan(o);
  const runStarted = performance.now();
  const load = os.loadavg();
  const busy = await cpuBusy(1_000);
  const machine =
    `${machineLine()}; before the run: load average ${load.map((x) => x.toFixed(2)).join(' / ')} (1 / 5 / 15 min), ` +
    `${fmt.pct(busy)} of the CPUs busy over 1 s`;
  console.error(`cluster: ${machine}`);
  const probe = await RedisProbe.open('onair_bench_probe:');
  let idle: Dist & { lost: number };
  try {
    idle = await probe.run(p.idleProbe.perSecond, p.idleProbe.count);
  } finally {
    probe.close();
  }
  const one = await runArm(1, p);
  const three3 = await runArm(3, p);
  const seconds = (performance.now() - runStarted) / 1000;
  const perNode = three3.perNode.join(' / ');
  const owned = Object.values(three3.owned).join(' / ');
  const notes = [
    `Load: ${CHANNELS} channels with a scoreboard on air, ${RENDERERS_PER_CHANNEL} renderers each (${CHANNELS * RENDERERS_PER_CHANNEL} output-token WebSockets that read every frame), ` +
      `every channel PATCHed ${RATE} times a second over REST (${CHANNELS * RATE}/s in all, channels staggered evenly; under the updates limit of 30/s per channel). ` +
      `Per arm: ${p.warmupMs / 1000} s of warm-up, then ${p.seconds} s measured. The 1-node arm ran first, then the 3-node arm; the whole run took ${seconds.toFixed(0)} s.`,
    'Both arms are real `src/cli.ts` processes with the same settings: Postgres (a fresh schema per arm) + Redis (a fresh prefix per arm), ONAIR_LOG_LEVEL=warn, ' +
      'ONAIR_WS_MAX_PER_ADDRESS=0 and ONAIR_WS_UPGRADES_PER_ADDRESS=0 (every renderer comes from 127.0.0.1); only the node count differs. Nodes are killed at the end of their arm.',
    `3 nodes: renderers ${perNode} per node (each channel's renderers split evenly), channels owned ${owned} per node (leases in Postgres, read before and after the window: ${three3.moved} moved), ` +
      'PATCH k of channel c sent to node (c + k) mod 3, so two PATCHes in three go to a node that does not own the channel and are forwarded to the owner over Redis.',
    'PATCH → renderer: from sending the PATCH to a renderer receiving the frame that carries its value (or a newer value of the channel), one sample per value per renderer, ' +
      "both ends on the load generator's clock. A frame reaches a renderer on the owner node inside the owner's process; on another node it goes owner → Redis → that node. " +
      "Each value is measured at both kinds of renderer, so the difference of their percentiles is the Redis hop (with the other node's own work in it), whatever the PATCH went through. " +
      'The paired row takes the difference value by value (first renderer on each other node minus first renderer on the owner), so the time both share (the PATCH, the wait for the tick, the commit) cancels.',
    'Fan-out rate is at a fixed offered load (one frame per PATCH, to 30 renderers): equal rates mean both kept up, not that either is at its ceiling. ' +
      'The CPU per frame received is what spreading over nodes costs in total.',
    `**The machine has ${os.cpus().length} cores**, shared by everything: the nodes (1 or 3 processes), Postgres, Redis, the load generator (one process: all renderers and the PATCHes, ` +
      `${fmt.pct(one.cpu.client)} / ${fmt.pct(three3.cpu.client)} of a core) and this process (the Redis probe). Three nodes get no more CPU than one: ` +
      'this measures what the hop and the spreading cost, not how far three machines would scale. ' +
      `Machine: ${machine}; before each arm: ${fmt.pct(one.busyBefore)} / ${fmt.pct(three3.busyBefore)} busy.`,
    ...logNotes([one, three3]),
  ];
  for (const arm of [one, three3])
    if (arm.cpu.other > 0.15)
      notes.push(
        `**Interference**: during the ${arm.nodes}-node window ${fmt.pct(arm.cpu.other)} of a core went to processes outside the benchmark ` +
          '(the machine is shared): that arm had less CPU than the other. Run it again on a quiet machine before reading its ratios.',
      );
  for (const arm of [one, three3])
    if (arm.clients.slow.length > 0)
      notes.push(
        `${arm.nodes} node(s): PATCH answers slower than 250 ms: ` +
          arm.clients.slow
            .map((x) => `${fmt.ms(x.ms)} (${x.node}, ${x.forwarded ? 'forwarded' : 'owner'}, ${x.status || 'failed'})`)
            .join(', '),
      );
  if (idle.lost + one.probe.lost + three3.probe.lost > 0)
    notes.push(
      `Raw Redis probe messages lost: idle ${idle.lost}, 1 node ${one.probe.lost}, 3 nodes ${three3.probe.lost}.`,
    );
  return [
    {
      title: 'Several nodes: renderers spread over 3 nodes vs 1 node (Postgres + Redis)',
      command: `npm run bench:cluster${p.quick ? ' -- --quick' : ''}`,
      rows: rows(one, three3, idle),
      notes,
    },
  ];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, short: { type: 'boolean', default: false } },
  });
  runCluster({ short: (values.quick ?? false) || (values.short ?? false), profile: false }).then(
    (tables) => {
      for (const t of tables) console.log(renderTable(t));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
