/**
 * Soak: does onair stay flat under a steady, realistic load for minutes on end? 100 channels at 60 fps, each
 * with its scoreboard on air, 10 renderers each (1,000 WebSockets that read every frame), 3 input PATCHes a
 * second per channel, a game clock running on every channel (stopped for 3 s every 20 s, a new period every
 * 2 minutes), and every event delivered by an outgoing webhook to a local HTTPS receiver that checks each
 * signature. Every few seconds it samples the server's memory, late ticks, event-loop lag and webhook outbox
 * (from its /metrics), the PATCH latency (measured here), the frames' delivery time to the renderers and the
 * webhooks' commit → arrival time. At the end it prints a row per window, the first third against the last, the
 * memory slope of each half, and a verdict against stated "flat" criteria. It reports; it never fails a run on
 * them (a shared 2-core VM is noisy).
 *
 * Four processes: this one (the driver: PATCHes and clock actions, sampling), the real server
 * (bench/lib/soak-server.ts), the renderers (bench/lib/soak-renderers.ts) and the webhook receiver
 * (bench/servers/webhook-receiver.ts). Loopback only, bounded in count, time and disk (it stops early when the data
 * directory passes 16 GiB or its file system has less than 5 GiB free); Ctrl-C stops the load, prints what was
 * measured so far and removes everything (a second Ctrl-C exits at once, still cleaning up).
 *
 *   npx tsx bench/soak.ts [--minutes N]      (default 10; 30 s of warm-up, then 10 s windows)
 *   npx tsx bench/soak.ts --quick            (1 minute, 5 s warm-up and windows: to try it out)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool, request } from 'undici';
import { selfSignedCertificate } from './lib/certificate.js';
import { LOCALHOST, ROOT, sleep, startChild, type Child } from './lib/child.js';
import { machineLine, settle } from './lib/machine.js';
import type { RenderersWindow } from './lib/soak-renderers.js';
import { percentile } from './lib/stats.js';
import type { Arrivals, ReceiverCounts } from './servers/webhook-receiver.js';
import { BENCH_KEY, seedChannels, type SeededChannel } from './servers/seed.js';

const CHANNELS = 100;
const RENDERERS_PER_CHANNEL = 10;
/** Input PATCHes per channel per second: a busy operator or a score feed; the `updates` limit is 30. */
const PATCHES_PER_CHANNEL = 3;
/** Every channel's game clock is stopped once per cycle, for PAUSE_MS (a whistle), then started again. */
const CLOCK_CYCLE_S = 20;
const PAUSE_MS = 3_000;
/** Every this many cycles the clock is also set back to 12:00 while stopped: a new period. */
const PERIOD_CYCLES = 6;
const PERIOD_MS = 720_000;
/** The run stops early when the data directory passes this size, or its file system has less than FREE_FLOOR left. */
const DISK_LIMIT = 16 * 2 ** 30;
const FREE_FLOOR = 5 * 2 ** 30;
/** The server's journal_size_limit (src/store/sqlite/sqlite-store.ts): a WAL reset cuts it back to this. */
const WAL_LIMIT = 64 * 2 ** 20;

/** What counts as flat: stated here, printed with the verdict, never enforced. */
const FLAT = {
  /** Growth of the least-squares line through the second half's samples, over that half. */
  memoryGrowth: 0.05,
  /** Last third's p99 against the first third's. */
  latencyRatio: 1.5,
  /** Late ticks: the last third's share at most 1.5× the first's, or at most this much above it. */
  lateSlack: 0.005,
};

interface Plan {
  minutes: number;
  windowS: number;
  warmupS: number;
  quick: boolean;
}

function plan(): Plan {
  const { values } = parseArgs({
    options: { minutes: { type: 'string' }, quick: { type: 'boolean', default: false } },
  });
  const quick = values.quick ?? false;
  const minutes = values.minutes === undefined ? (quick ? 1 : 10) : Number(values.minutes);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 240) throw new Error('--minutes takes 0 < N ≤ 240');
  return { minutes, windowS: quick ? 5 : 10, warmupS: quick ? 5 : 30, quick };
}

// ---------------------------------------------------------------------------------------------------------------
// The load: PATCHes and clock actions on a steady schedule that does not slow down when the server does.

interface LoadWindow {
  /** PATCH latencies (ms, send → answer read), answered 200 in the window. */
  patchMs: number[];
  refused: number;
  failed: number;
  clockOk: number;
  clockFailed: number;
}

const emptyLoad = (): LoadWindow => ({ patchMs: [], refused: 0, failed: 0, clockOk: 0, clockFailed: 0 });

class Load {
  private window = emptyLoad();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };

  constructor(
    private readonly pool: Pool,
    private readonly channels: readonly SeededChannel[],
  ) {}

  start(): void {
    const t0 = performance.now();
    const perSecond = PATCHES_PER_CHANNEL * this.channels.length;
    const clockSlotMs = (CLOCK_CYCLE_S * 1000) / this.channels.length;
    const starts: { at: number; ch: number }[] = [];
    let patches = 0;
    let clockSlots = 0;
    const step = () => {
      const now = performance.now();
      // Patch k goes to channel k mod 100: every channel every 1/3 s, the channels evenly staggered.
      const duePatches = Math.floor(((now - t0) / 1000) * perSecond);
      while (patches < duePatches) {
        const k = patches++;
        this.patch(k % this.channels.length, Math.floor(k / this.channels.length));
      }
      const dueSlots = Math.floor((now - t0) / clockSlotMs);
      while (clockSlots < dueSlots) {
        const j = clockSlots++;
        const ch = j % this.channels.length;
        this.clock(ch, { action: 'stop' });
        if (Math.floor(j / this.channels.length) % PERIOD_CYCLES === PERIOD_CYCLES - 1)
          this.clock(ch, { action: 'set', ms: PERIOD_MS });
        starts.push({ at: now + PAUSE_MS, ch });
      }
      while (starts.length > 0 && starts[0]!.at <= now) this.clock(starts.shift()!.ch, { action: 'start' });
      if (!this.stopped) this.timer = setTimeout(step, 2);
    };
    step();
  }

  /** Stops sending and waits for every answer. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  take(): LoadWindow {
    const w = this.window;
    this.window = emptyLoad();
    return w;
  }

  /** The n-th patch of a channel: scores (each fires the scoreboard's flash trigger) and a team name in turn. */
  private patch(ch: number, n: number): void {
    const body = n % 3 === 0 ? { scoreA: n } : n % 3 === 1 ? { scoreB: n } : { home: `HOME ${n}` };
    this.send('PATCH', `/v1/channels/${this.channels[ch]!.id}/inputs`, body, (ms, status) => {
      if (status === 200) this.window.patchMs.push(ms);
      else if (status === 429) this.window.refused++;
      else this.window.failed++;
    });
  }

  private clock(ch: number, body: object): void {
    this.send('POST', `/v1/channels/${this.channels[ch]!.id}/clocks/gameClock`, body, (_ms, status) => {
      if (status === 200) this.window.clockOk++;
      else this.window.clockFailed++;
    });
  }

  private send(method: 'PATCH' | 'POST', path: string, body: object, done: (ms: number, status: number) => void) {
    const t = performance.now();
    const p = this.pool
      .request({ method, path, headers: this.headers, body: JSON.stringify(body) })
      .then(async (res) => {
        await res.body.dump();
        done(performance.now() - t, res.statusCode);
      })
      .catch(() => done(NaN, 0))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Readings: the server's /metrics, the renderers, the receiver, the machine.

type Metrics = Map<string, number>;

/** The Prometheus text exposition as `name{labels}` → value (prom-client writes no timestamps). */
function parseMetrics(text: string): Metrics {
  const out: Metrics = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}

const metric = (m: Metrics, key: string) => m.get(key) ?? NaN;

function cpuTimes(): { busy: number; total: number; steal: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total, steal: f[7] ?? 0 };
}

/** Cumulative readings at one moment; a window is the difference between two. */
interface Reading {
  at: number;
  metrics: Metrics;
  renderers: RenderersWindow;
  receiverCpu: NodeJS.CpuUsage;
  driverCpu: NodeJS.CpuUsage;
  machine: { busy: number; total: number; steal: number };
  arrivals: Arrivals;
  disk: Disk;
}

interface Rig {
  server: Child;
  renderers: Child;
  receiver: Child;
  port: number;
  dataDir: string;
}

/** The data directory's database file and write-ahead log, bytes; and the space left on its file system. */
interface Disk {
  db: number;
  wal: number;
  free: number;
}

function disk(dir: string): Disk {
  const size = (name: string) => fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.size ?? 0;
  const fsStats = fs.statfsSync(dir);
  return { db: size('onair.db'), wal: size('onair.db-wal'), free: fsStats.bavail * fsStats.bsize };
}

async function read(rig: Rig): Promise<Reading> {
  const res = await request(`http://${LOCALHOST}:${rig.port}/metrics`);
  const [text, renderers, arrivals, receiver] = await Promise.all([
    res.body.text(),
    rig.renderers.request<RenderersWindow>('window'),
    rig.receiver.request<Arrivals>('take'),
    rig.receiver.request<{ cpu: NodeJS.CpuUsage }>('stats'),
  ]);
  return {
    at: performance.now(),
    metrics: parseMetrics(text),
    renderers,
    receiverCpu: receiver.cpu,
    driverCpu: process.cpuUsage(),
    machine: cpuTimes(),
    arrivals,
    disk: disk(rig.dataDir),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Windows.

interface Window {
  /** Seconds from the start of measuring to the end of this window. */
  t: number;
  seconds: number;
  rss: number;
  heap: number;
  external: number;
  handles: number;
  disk: Disk;
  /** Garbage-collection time in the window, ms (all kinds). */
  gcMs: number;
  ticks: number;
  late: number;
  skipped: number;
  lagP99: number;
  lagMax: number;
  patchMs: Float64Array;
  refused: number;
  failed: number;
  clockOk: number;
  clockFailed: number;
  /** Frame delivery times, [bucket, count] pairs; bucket × bucketMs = ms. */
  frameHist: [number, number][];
  bucketMs: number;
  frames: number;
  gaps: number;
  closed: number;
  outputs: number;
  succeeded: number;
  attemptsFailed: number;
  dropped: number;
  pending: number;
  batches: number;
  received: number;
  /** Webhook commit (the event's createdAt) → arrival at the receiver, ms. */
  hookMs: Float64Array;
  /** CPU, as shares of one core: the server, this bench's other processes, and everything else on the machine. */
  serverCpu: number;
  benchCpu: number;
  otherCpu: number;
  steal: number;
}

const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user + b.system - a.user - a.system) / 1000;
const sorted = (xs: ArrayLike<number>) => Float64Array.from(xs).sort();

function windowOf(a: Reading, b: Reading, load: LoadWindow, start: number): Window {
  const ms = b.at - a.at;
  const d = (key: string) => metric(b.metrics, key) - metric(a.metrics, key);
  const now = (key: string) => metric(b.metrics, key);
  const gc = (m: Metrics) =>
    [...m.entries()].reduce((t, [k, v]) => (k.startsWith('nodejs_gc_duration_seconds_sum') ? t + v : t), 0);
  const serverCpu = (d('process_cpu_seconds_total') * 1000) / ms;
  const benchCpu =
    (cpuMs(a.renderers.cpu, b.renderers.cpu) + cpuMs(a.receiverCpu, b.receiverCpu) + cpuMs(a.driverCpu, b.driverCpu)) /
    ms;
  const machineTotal = b.machine.total - a.machine.total;
  const busyCores = machineTotal > 0 ? ((b.machine.busy - a.machine.busy) / machineTotal) * os.cpus().length : NaN;
  const arr = b.arrivals;
  return {
    t: (b.at - start) / 1000,
    seconds: ms / 1000,
    rss: now('process_resident_memory_bytes'),
    heap: now('nodejs_heap_size_used_bytes'),
    external: now('nodejs_external_memory_bytes'),
    handles: now('nodejs_active_handles_total'),
    disk: b.disk,
    gcMs: (gc(b.metrics) - gc(a.metrics)) * 1000,
    ticks: d('onair_ticks_total{fps="60"}'),
    late: d('onair_late_ticks_total{fps="60"}'),
    skipped: d('onair_skipped_frames_total{fps="60"}'),
    // prom-client resets its event-loop histogram at every scrape: these are the window's own.
    lagP99: now('nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMax: now('nodejs_eventloop_lag_max_seconds') * 1000,
    patchMs: sorted(load.patchMs),
    refused: load.refused,
    failed: load.failed,
    clockOk: load.clockOk,
    clockFailed: load.clockFailed,
    frameHist: b.renderers.latency,
    bucketMs: b.renderers.bucketMs,
    frames: b.renderers.frames,
    gaps: b.renderers.gaps,
    closed: b.renderers.closed,
    outputs: now('onair_connections{kind="output"}'),
    succeeded: d('onair_webhook_deliveries_total{outcome="succeeded"}'),
    attemptsFailed: d('onair_webhook_deliveries_total{outcome="failed"}'),
    dropped: d('onair_webhook_deliveries_total{outcome="dropped"}'),
    pending: now('onair_webhook_outbox_depth{kind="deliveries"}'),
    batches: now('onair_webhook_outbox_depth{kind="event_batches"}'),
    received: arr.at.length,
    hookMs: sorted(arr.at.map((at, i) => at - arr.created[i]!)),
    serverCpu,
    benchCpu,
    otherCpu: busyCores - serverCpu - benchCpu,
    steal: machineTotal > 0 ? (b.machine.steal - a.machine.steal) / machineTotal : NaN,
  };
}

/** Percentile of merged [bucket, count] histograms, in ms (the bucket's lower edge). */
function histPercentile(ws: Window[], p: number): number {
  const merged = new Map<number, number>();
  for (const w of ws) for (const [b, n] of w.frameHist) merged.set(b, (merged.get(b) ?? 0) + n);
  const buckets = [...merged.entries()].sort((x, y) => x[0] - y[0]);
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return NaN;
  const want = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const [b, n] of buckets) if ((seen += n) >= want) return b * (ws[0]?.bucketMs ?? 0.1);
  return NaN;
}

const pooled = (ws: Window[], f: (w: Window) => Float64Array, p: number) =>
  percentile(sorted(ws.flatMap((w) => [...f(w)])), p);
const sum = (ws: Window[], f: (w: Window) => number) => ws.reduce((s, w) => s + f(w), 0);
const mean = (ws: Window[], f: (w: Window) => number) => (ws.length ? sum(ws, f) / ws.length : NaN);
const lateShare = (ws: Window[]) => sum(ws, (w) => w.late) / sum(ws, (w) => w.ticks);

/** Least-squares line through (minutes, MB): slope in MB/min, and the line's value at the first point. */
function fit(ws: Window[], f: (w: Window) => number): { slope: number; start: number; growth: number } {
  const xs = ws.map((w) => w.t / 60);
  const ys = ws.map((w) => f(w) / 1024 / 1024);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => ((num += (x - mx) * (ys[i]! - my)), (den += (x - mx) ** 2)));
  const slope = den > 0 ? num / den : 0;
  const start = my + slope * (xs[0]! - mx);
  return { slope, start, growth: (slope * (xs[xs.length - 1]! - xs[0]!)) / start };
}

// ---------------------------------------------------------------------------------------------------------------
// Output.

const n0 = (x: number) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: 0 }) : '—');
const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const mb = (bytes: number) => n1(bytes / 1024 / 1024);
const pct = (x: number) =>
  Number.isFinite(x) ? `${x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(Math.abs(x) < 0.01 ? 2 : 1)} %` : '—';
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
const signed = (x: number, digits = 2) => (x >= 0 ? `+${x.toFixed(digits)}` : `−${Math.abs(x).toFixed(digits)}`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

const WINDOW_HEADER = [
  'Time',
  'RSS MB',
  'Heap MB',
  'WAL MB',
  'Late ticks',
  'Loop lag p99 / max ms',
  'PATCH p50 / p99 ms',
  'Frame p99 ms',
  'Webhooks delivered (pending)',
  'Hook p99 ms',
  'CPU server / rest of machine',
];

function windowRow(label: string, ws: Window[]): string[] {
  const last = ws[ws.length - 1]!;
  return [
    label,
    mb(last.rss),
    mb(last.heap),
    mb(last.disk.wal),
    `${n0(sum(ws, (w) => w.late))} (${pct(lateShare(ws))})`,
    `${n1(Math.max(...ws.map((w) => w.lagP99)))} / ${n1(Math.max(...ws.map((w) => w.lagMax)))}`,
    `${n1(pooled(ws, (w) => w.patchMs, 50))} / ${n1(pooled(ws, (w) => w.patchMs, 99))}`,
    n1(histPercentile(ws, 99)),
    `${n0(sum(ws, (w) => w.succeeded))} (${n0(last.pending)})`,
    n1(pooled(ws, (w) => w.hookMs, 99)),
    `${pct(sum(ws, (w) => w.serverCpu * w.seconds) / sum(ws, (w) => w.seconds))} / ${pct(
      sum(ws, (w) => w.otherCpu * w.seconds) / sum(ws, (w) => w.seconds),
    )}`,
  ];
}

type Memory = { rss: number; heapUsed: number };

interface End {
  drainedMs: number | null;
  counts: ReceiverCounts | null;
  /** The server's heap and RSS after a full GC, under load: after the warm-up, at half time, after the last window. */
  memory: { start: Memory; half: Memory | null; end: Memory | null };
  totals: { succeeded: number; failed: number; dropped: number } | null;
}

interface Meta {
  busy: number;
  started: Date;
  /** Why the run ended before its last window, if it did. */
  cut: string | null;
}

function report(p: Plan, ws: Window[], end: End, meta: Meta) {
  const out: string[] = [];
  const say = (s = '') => out.push(s);
  const cmd = `npx tsx bench/soak.ts${p.quick ? ' --quick' : ''}${p.minutes !== (p.quick ? 1 : 10) ? ` --minutes ${p.minutes}` : ''}`;
  say(`# onair soak`);
  say();
  say(
    `${meta.started.toISOString()} — \`${cmd}\` — ${machineLine()} — machine ${pct(meta.busy)} busy before the run` +
      (meta.cut ? ` — **${meta.cut} after ${ws.length} windows**` : ''),
  );
  say();
  say(
    `${CHANNELS} channels at 60 fps × ${RENDERERS_PER_CHANNEL} renderers (WebSockets reading every frame), ` +
      `${PATCHES_PER_CHANNEL} PATCHes/s per channel (${PATCHES_PER_CHANNEL * CHANNELS}/s), a game clock running on every ` +
      `channel (stopped ${PAUSE_MS / 1000} s in every ${CLOCK_CYCLE_S} s), every event delivered to a local HTTPS receiver; ` +
      `ONAIR_DB_SYNC=full, rate limiter on. ${p.warmupS} s of warm-up, then ${ws.length} windows of ${p.windowS} s.`,
  );
  if (ws.length < 3) {
    say();
    say('Too few windows for a verdict.');
    return out.join('\n');
  }
  say();
  say(
    table(
      WINDOW_HEADER,
      ws.map((w) => windowRow(clock(w.t), [w])),
    ),
  );
  const perMinute = Math.round(60 / p.windowS);
  if (ws.length >= 3 * perMinute) {
    const minutes: Window[][] = [];
    for (let i = 0; i < ws.length; i += perMinute) minutes.push(ws.slice(i, i + perMinute));
    say();
    say("Per minute (RSS and heap at the minute's end, percentiles over the minute, deliveries summed):");
    say();
    say(
      table(
        WINDOW_HEADER,
        minutes.map((m) => windowRow(clock(m[m.length - 1]!.t), m)),
      ),
    );
  }

  const third = Math.max(1, Math.floor(ws.length / 3));
  const first = ws.slice(0, third);
  const middle = ws.slice(third, ws.length - third);
  const last = ws.slice(ws.length - third);
  const half = Math.floor(ws.length / 2);
  const h1 = ws.slice(0, half);
  const h2 = ws.slice(half);
  const { start: gcStart, half: gcHalf, end: gcEnd } = end.memory;
  const gcGrowth = gcHalf && gcEnd ? gcEnd.heapUsed / gcHalf.heapUsed - 1 : NaN;
  const rss1 = fit(h1, (w) => w.rss);
  const rss2 = fit(h2, (w) => w.rss);
  const heap1 = fit(h1, (w) => w.heap);
  const heap2 = fit(h2, (w) => w.heap);
  const ext2 = fit(h2, (w) => w.external);
  const patch99 = (x: Window[]) => pooled(x, (w) => w.patchMs, 99);
  const frame99 = (x: Window[]) => histPercentile(x, 99);
  const hook99 = (x: Window[]) => pooled(x, (w) => w.hookMs, 99);
  const rate = (x: Window[], f: (w: Window) => number) => sum(x, f) / sum(x, (w) => w.seconds);
  const thirdsRow = (name: string, f: (x: Window[]) => number, show: (v: number) => string, ratio = true) => [
    name,
    show(f(first)),
    show(f(middle)),
    show(f(last)),
    ratio && Number.isFinite(f(last) / f(first)) ? `${(f(last) / f(first)).toFixed(2)}×` : '—',
  ];
  say();
  say(
    table(
      ['Thirds', 'First', 'Middle', 'Last', 'Last / first'],
      [
        thirdsRow('late ticks (> 2 ms)', lateShare, pct),
        thirdsRow('event-loop lag p99, mean of windows (ms)', (x) => mean(x, (w) => w.lagP99), n1),
        thirdsRow('PATCH p50 (ms)', (x) => pooled(x, (w) => w.patchMs, 50), n1),
        thirdsRow('PATCH p99 (ms)', patch99, n1),
        thirdsRow('frame delivery p50 (ms, tick → renderer)', (x) => histPercentile(x, 50), n1),
        thirdsRow('frame delivery p99 (ms)', frame99, n1),
        thirdsRow('webhook commit → arrival p99 (ms)', hook99, n1),
        thirdsRow('frames received by renderers /s', (x) => rate(x, (w) => w.frames), n0),
        thirdsRow('webhook deliveries /s', (x) => rate(x, (w) => w.succeeded), n0),
        thirdsRow('garbage collection, ms per second', (x) => rate(x, (w) => w.gcMs), n1),
        thirdsRow('database file at the end of the third (MB)', (x) => x[x.length - 1]!.disk.db / 1024 / 1024, n1),
        thirdsRow('write-ahead log at the end of the third (MB)', (x) => x[x.length - 1]!.disk.wal / 1024 / 1024, n1),
        thirdsRow('server CPU (one core = 100 %)', (x) => rate(x, (w) => w.serverCpu * w.seconds), pct),
        thirdsRow(
          "the bench's renderers, receiver and driver",
          (x) => rate(x, (w) => w.benchCpu * w.seconds),
          pct,
          false,
        ),
        thirdsRow(
          'rest of the machine (other processes, interrupts)',
          (x) => rate(x, (w) => w.otherCpu * w.seconds),
          pct,
          false,
        ),
        thirdsRow('steal', (x) => rate(x, (w) => w.steal * w.seconds), pct, false),
      ],
    ),
  );
  say();
  say(
    table(
      ['Memory', 'First half', 'Second half'],
      [
        ['RSS slope (MB per minute, least-squares line through the samples)', signed(rss1.slope), signed(rss2.slope)],
        ['RSS growth over the half', pct(rss1.growth), pct(rss2.growth)],
        [
          'heap used as sampled, slope (MB per minute; no GC forced, so a sawtooth)',
          signed(heap1.slope),
          signed(heap2.slope),
        ],
        [
          'heap used after a full GC under load (MB)',
          `${mb(gcStart.heapUsed)} → ${gcHalf ? mb(gcHalf.heapUsed) : '—'}`,
          `${gcHalf ? mb(gcHalf.heapUsed) : '—'} → ${gcEnd ? mb(gcEnd.heapUsed) : '—'}`,
        ],
        ['external memory slope (MB per minute)', '—', signed(ext2.slope)],
      ],
    ),
  );

  const totalPatches = sum(ws, (w) => w.patchMs.length);
  const lateOk = lateShare(last) <= Math.max(lateShare(first) * FLAT.latencyRatio, lateShare(first) + FLAT.lateSlack);
  const verdicts: [boolean, string][] = [
    [
      rss2.growth < FLAT.memoryGrowth,
      `RSS growth over the second half ${pct(rss2.growth)} (${signed(rss2.slope)} MB/min; first half ${signed(rss1.slope)} MB/min) — flat means < ${pct(FLAT.memoryGrowth)}`,
    ],
    [
      gcGrowth < FLAT.memoryGrowth,
      `heap used after a full GC ${gcHalf ? mb(gcHalf.heapUsed) : '—'} MB at half time → ${gcEnd ? mb(gcEnd.heapUsed) : '—'} MB at the end (${pct(gcGrowth)}; ${mb(gcStart.heapUsed)} MB after the warm-up) — flat means < ${pct(FLAT.memoryGrowth)}`,
    ],
    [
      patch99(last) <= patch99(first) * FLAT.latencyRatio,
      `PATCH p99 ${n1(patch99(first))} → ${n1(patch99(last))} ms (${(patch99(last) / patch99(first)).toFixed(2)}×) — flat means ≤ ${FLAT.latencyRatio}×`,
    ],
    [
      frame99(last) <= frame99(first) * FLAT.latencyRatio,
      `frame delivery p99 ${n1(frame99(first))} → ${n1(frame99(last))} ms (${(frame99(last) / frame99(first)).toFixed(2)}×) — flat means ≤ ${FLAT.latencyRatio}×`,
    ],
    [
      lateOk,
      `late ticks ${pct(lateShare(first))} → ${pct(lateShare(last))} — flat means ≤ ${FLAT.latencyRatio}× the first third or ≤ ${(FLAT.lateSlack * 100).toFixed(1)} points above it`,
    ],
    [
      Math.min(...last.map((w) => w.disk.wal)) <= WAL_LIMIT,
      `write-ahead log at most ${mb(Math.max(...ws.map((w) => w.disk.wal)))} MB, ${mb(Math.min(...last.map((w) => w.disk.wal)))}–${mb(Math.max(...last.map((w) => w.disk.wal)))} MB in the last third; database file ${mb(ws[0]!.disk.db)} → ${mb(ws[ws.length - 1]!.disk.db)} MB — flat means the WAL is cut back to its journal_size_limit (${mb(WAL_LIMIT)} MB) at least once in the last third, so checkpoints keep up`,
    ],
    [
      hook99(last) <= hook99(first) * FLAT.latencyRatio && end.drainedMs !== null,
      `webhook commit → arrival p99 ${n1(hook99(first))} → ${n1(hook99(last))} ms; outbox ${end.drainedMs === null ? 'not drained' : `drained ${n1(end.drainedMs / 1000)} s after the load stopped`}`,
    ],
  ];
  say();
  say(`**Verdict: ${verdicts.every(([ok]) => ok) ? 'flat' : 'not flat'}** (reported, not enforced):`);
  say();
  for (const [ok, text] of verdicts) say(`- ${ok ? 'flat' : '**not flat**'}: ${text}`);
  say();
  say('Checks:');
  say();
  say(
    `- PATCHes answered 200: ${n0(totalPatches)} (${n0(totalPatches / sum(ws, (w) => w.seconds))}/s); refused 429: ${n0(sum(ws, (w) => w.refused))}; failed: ${n0(sum(ws, (w) => w.failed))}. ` +
      `Clock actions answered 200: ${n0(sum(ws, (w) => w.clockOk))}; not: ${n0(sum(ws, (w) => w.clockFailed))}.`,
  );
  say(
    `- Renderers: ${n0(Math.min(...ws.map((w) => w.outputs)))}–${n0(Math.max(...ws.map((w) => w.outputs)))} output connections open; ` +
      `${n0(sum(ws, (w) => w.frames))} frames read, ${n0(sum(ws, (w) => w.gaps))} gaps (a frame missed), ${n0(ws[ws.length - 1]!.closed)} sockets closed. ` +
      `Late ticks ${n0(sum(ws, (w) => w.late))} of ${n0(sum(ws, (w) => w.ticks))}, frames skipped ${n0(sum(ws, (w) => w.skipped))}.`,
  );
  const t = end.totals;
  const c = end.counts;
  say(
    `- Webhooks during the windows: ${n0(sum(ws, (w) => w.succeeded))} delivered, ${n0(sum(ws, (w) => w.attemptsFailed))} attempts failed, ${n0(sum(ws, (w) => w.dropped))} dropped; ` +
      `largest outbox ${n0(Math.max(...ws.map((w) => w.pending)))} deliveries. ` +
      (t && c
        ? `Whole run: ${n0(t.succeeded)} delivered, ${n0(t.failed)} failed, ${n0(t.dropped)} dropped; the receiver got ${n0(c.received)} ` +
          `(${n0(c.badSignatures)} bad signatures, ${n0(c.duplicates)} twice).`
        : 'Whole-run totals not read.'),
  );
  say(
    `- Server after a full GC (after the warm-up, at half time, at the end): heap used ${[gcStart, gcHalf, gcEnd].map((m) => (m ? mb(m.heapUsed) : '—')).join(' → ')} MB, ` +
      `RSS ${[gcStart, gcHalf, gcEnd].map((m) => (m ? mb(m.rss) : '—')).join(' → ')} MB (the half-time GC pause falls in the window after it). ` +
      `Active handles ${n0(ws[0]!.handles)} → ${n0(ws[ws.length - 1]!.handles)}.`,
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

const cleanups: (() => Promise<void> | void)[] = [];
const children: Child[] = [];
const dirs: string[] = [];
let interrupted = false;

async function cleanup(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await fn();
    } catch (err) {
      console.error('soak: cleaning up:', err);
    }
  }
}

/** Last resort when the process exits any other way: no child or data dir outlives it. */
process.on('exit', () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      console.error('soak: exiting now');
      void cleanup().finally(() => process.exit(130));
      return;
    }
    interrupted = true;
    console.error(`soak: ${signal}: stopping the load; reporting what was measured, then cleaning up`);
  });
}

async function track(child: Promise<Child>): Promise<Child> {
  const c = await child;
  children.push(c);
  cleanups.push(() => c.stop());
  return c;
}

/** Sleeps until `until` (performance.now()), waking early when interrupted. */
async function sleepUntil(until: number): Promise<void> {
  while (!interrupted && performance.now() < until) await sleep(Math.min(250, until - performance.now()));
}

async function api(port: number, method: 'POST', path: string, body?: object): Promise<unknown> {
  const res = await request(`http://${LOCALHOST}:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** Runs `fn` over `items`, `parallel` at a time. */
async function each<T>(items: readonly T[], parallel: number, fn: (x: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function outbox(port: number): Promise<{ pending: number; batches: number; m: Metrics }> {
  const res = await request(`http://${LOCALHOST}:${port}/metrics`);
  const m = parseMetrics(await res.body.text());
  return {
    pending: metric(m, 'onair_webhook_outbox_depth{kind="deliveries"}'),
    batches: metric(m, 'onair_webhook_outbox_depth{kind="event_batches"}'),
    m,
  };
}

async function main(): Promise<void> {
  const p = plan();
  const started = new Date();
  const busy = await settle(p.quick);
  const lifeMs = (p.warmupS + p.minutes * 60 + 300) * 1000;

  const cert = await selfSignedCertificate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-bench-soak-'));
  dirs.push(dir);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const channels = await seedChannels(dir, BENCH_KEY, CHANNELS);
  const receiver = await track(startChild('bench/servers/webhook-receiver.ts', { config: cert, maxLifeMs: lifeMs }));
  const server = await track(
    startChild('bench/lib/soak-server.ts', {
      config: { dataDir: dir, ca: cert.cert },
      nodeFlags: ['--expose-gc'],
      maxLifeMs: lifeMs,
    }),
  );
  const port = server.info.port as number;
  const pool = new Pool(`http://${LOCALHOST}:${port}`, { connections: 64 });
  cleanups.push(() => pool.close());

  // Every event type, to one receiver path whose secret the receiver checks every signature against.
  const hook = (await api(port, 'POST', '/v1/webhooks', {
    url: `https://${LOCALHOST}:${receiver.info.port as number}/soak`,
    events: [],
  })) as { secret: string };
  await receiver.request('secrets', { '/soak': hook.secret });

  const renderers = await track(
    startChild('bench/lib/soak-renderers.ts', {
      config: { port, channels, perChannel: RENDERERS_PER_CHANNEL },
      maxLifeMs: lifeMs,
      readyTimeoutMs: 120_000,
    }),
  );
  console.error(`soak: ${renderers.info.connected as number} renderers connected`);
  // The scoreboard on air on every channel (a cut), and its 12:00 game clock running.
  await each(channels, 8, (c) => api(port, 'POST', `/v1/channels/${c.id}/program`, { sceneId: c.sceneId }));
  await each(channels, 8, (c) => api(port, 'POST', `/v1/channels/${c.id}/clocks/gameClock`, { action: 'start' }));

  const rig: Rig = { server, renderers, receiver, port, dataDir: dir };
  const load = new Load(pool, channels);
  cleanups.push(() => load.stop());
  load.start();
  console.error(`soak: warm-up ${p.warmupS} s, then ${p.minutes} min in ${p.windowS} s windows`);
  await sleepUntil(performance.now() + p.warmupS * 1000);
  const end: End = {
    drainedMs: null,
    counts: null,
    memory: { start: await server.request<Memory>('memory'), half: null, end: null },
    totals: null,
  };
  let prev = await read(rig);
  load.take();
  const start = prev.at;
  const windows: Window[] = [];
  const total = Math.round((p.minutes * 60) / p.windowS);
  let cut: string | null = null;
  for (let i = 1; i <= total && !interrupted; i++) {
    await sleepUntil(start + i * p.windowS * 1000);
    let next: Reading;
    try {
      next = await read(rig);
    } catch (err) {
      console.error(`soak: reading failed, stopping: ${String(err)}`);
      break;
    }
    const w = windowOf(prev, next, load.take(), start);
    windows.push(w);
    prev = next;
    const r = windowRow(clock(w.t), [w]);
    console.error(
      `soak ${r[0]}: RSS ${r[1]} MB, heap ${r[2]} MB, WAL ${r[3]} MB, late ${r[4]}, PATCH ${r[6]} ms, webhooks ${r[8]}`,
    );
    if (i === Math.floor(total / 2)) end.memory.half = await server.request<Memory>('memory');
    if (w.disk.db + w.disk.wal > DISK_LIMIT || w.disk.free < FREE_FLOOR) {
      cut = `stopped: the data directory holds ${mb(w.disk.db + w.disk.wal)} MB, ${mb(w.disk.free)} MB free`;
      console.error(`soak: ${cut}`);
      break;
    }
  }

  if (!interrupted && cut === null) end.memory.end = await server.request<Memory>('memory').catch(() => null);
  await load.stop();
  try {
    const stoppedAt = performance.now();
    let o = await outbox(port);
    while ((o.pending > 0 || o.batches > 0) && performance.now() - stoppedAt < 30_000 && !interrupted) {
      await sleep(250);
      o = await outbox(port);
    }
    if (o.pending === 0 && o.batches === 0) end.drainedMs = performance.now() - stoppedAt;
    await sleep(500);
    end.counts = await receiver.request<ReceiverCounts>('counts');
    const m = (await outbox(port)).m;
    end.totals = {
      succeeded: metric(m, 'onair_webhook_deliveries_total{outcome="succeeded"}'),
      failed: metric(m, 'onair_webhook_deliveries_total{outcome="failed"}'),
      dropped: metric(m, 'onair_webhook_deliveries_total{outcome="dropped"}'),
    };
  } catch (err) {
    console.error(`soak: reading the end state failed: ${String(err)}`);
  }
  if (interrupted) cut = 'interrupted';
  const text = report(p, windows, end, { busy, started, cut });
  console.log(text);
  const file = path.join(ROOT, 'bench', 'results', 'soak.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${text}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

void main()
  .then(
    () => 0,
    (err: unknown) => {
      console.error(err);
      return 1;
    },
  )
  .then(async (code) => {
    await cleanup();
    process.exit(interrupted ? 130 : code);
  });
