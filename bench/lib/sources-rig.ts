/**
 * Readings for the data sources benchmark (bench/sources.ts): one measured window of the server (its CPU, memory,
 * frame clock and fetches from /metrics and its own diagnostics) and of the feed process, and the gaps between
 * fetches of one source read back from the sources' fetch logs.
 */
import fs from 'node:fs';
import os from 'node:os';
import { histogram, parsePrometheusText, valueOf, type Family } from '../../test/helpers/prometheus-text.js';
import type { diagnostics } from '../servers/diagnostics.js';
import type { SeededSource } from '../servers/seed-sources.js';
import { sleep, type Child } from './child.js';
import { schedMeter, stealMeter } from './machine.js';
import type { Onair, OnairStats } from './onair.js';
import { cpuShare, summary } from './stats.js';

type Diagnostics = ReturnType<typeof diagnostics>;

export const OUTCOMES = ['changed', 'unchanged', 'not_modified', 'failed'] as const;

/** The /metrics counters a window compares. */
interface Scrape {
  ticks: number;
  late: number;
  tickCount: number;
  tickBuckets: Map<number, number>;
  fetches: Record<string, number>;
  walFlushes: number;
}

export interface Window {
  seconds: number;
  /** Share of one core: the whole process, and its main thread (the event loop) alone. */
  serverCpu: number;
  mainThreadCpu: number;
  feedCpu: number;
  rssPeak: number;
  rssAfterGc: number;
  heapAfterGc: number;
  /** Heap used after a full GC at the start of the window: the end's minus this is what the window kept. */
  heapAtStart: number;
  ticks: number;
  late: number;
  /** The upper bound (ms) of the /metrics bucket holding the 99th percentile of tick durations. */
  tickP99Ms: number;
  /** Fetches per second by outcome (/metrics). */
  fetchRates: Record<string, number>;
  /** Answers per second by feed kind and status (the feed process's own count). */
  feedRates: Record<string, number>;
  diag: Diagnostics;
  waitMsPerS: number;
  /** fdatasyncs of the WAL per second, off the event loop (/metrics). */
  walFlushesPerS: number;
  /** Bytes the server's process made the kernel write to disk, per second (/proc/<pid>/io write_bytes). */
  diskWritesPerS: number;
  steal: number;
  /** One-minute load average at the start and the end of the window. */
  load: [number, number];
}

export async function scrape(server: Onair): Promise<Scrape> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  const families = parsePrometheusText(await res.text());
  const family = (name: string): Family => {
    const f = families.get(name);
    if (!f) throw new Error(`/metrics has no ${name}`);
    return f;
  };
  const fps = { fps: '60' };
  const ticks = families.get('onair_tick_duration_seconds');
  const h = ticks ? histogram(ticks, fps) : { count: 0, buckets: new Map<number, number>() };
  const fetches = family('onair_source_fetches_total');
  const flushes = families.get('onair_wal_flush_duration_seconds');
  return {
    ticks: valueOf(family('onair_ticks_total'), fps) ?? 0,
    late: valueOf(family('onair_late_ticks_total'), fps) ?? 0,
    tickCount: Number.isNaN(h.count) ? 0 : h.count,
    tickBuckets: h.buckets,
    fetches: Object.fromEntries(OUTCOMES.map((o) => [o, valueOf(fetches, { outcome: o }) ?? 0])),
    walFlushes: flushes ? (valueOf(flushes, {}, `${flushes.name}_count`) ?? 0) : 0,
  };
}

/** The smallest bucket bound under which 99 % of the window's ticks fell, in ms. */
function p99Bucket(a: Scrape, b: Scrape): number {
  const count = b.tickCount - a.tickCount;
  if (count === 0) return NaN;
  for (const [le, n] of b.tickBuckets) if (n - (a.tickBuckets.get(le) ?? 0) >= 0.99 * count) return le * 1000;
  return Infinity;
}

/** Bytes written to storage by the process so far (Linux; 0 elsewhere). */
function writtenBytes(pid: number): number {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/io`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('write_bytes:'));
    return Number(line?.split(':')[1] ?? 0);
  } catch {
    return 0;
  }
}

type FeedStats = { counts: Record<string, number>; cpu: NodeJS.CpuUsage; at: number };

/** Measures `seconds` of the server as it runs (a CPU profile of it with `profile`). */
export async function measureWindow(server: Onair, feed: Child, seconds: number, profile?: string): Promise<Window> {
  const stats = () => server.child.request<OnairStats>('stats');
  const feedStats = () => feed.request<FeedStats>('stats');
  const atStart = await server.child.request<{ rss: number; heapUsed: number }>('memory');
  if (profile) await server.child.request('profileStart');
  await server.child.request('diagnostics'); // resets them
  const load0 = os.loadavg()[0]!;
  const [s0, f0, m0] = [await stats(), await feedStats(), await scrape(server)];
  const pid = server.child.proc.pid!;
  const sched = schedMeter(pid);
  const written0 = writtenBytes(pid);
  const steal = stealMeter();
  let rssPeak = s0.rss;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    await sleep(Math.min(1000, until - performance.now()));
    rssPeak = Math.max(rssPeak, (await stats()).rss);
  }
  const [s1, f1, m1] = [await stats(), await feedStats(), await scrape(server)];
  const waited = sched();
  const written = writtenBytes(pid) - written0;
  const stolen = steal();
  const diag = await server.child.request<Diagnostics>('diagnostics');
  if (profile) await server.child.request('profileStop', { file: profile });
  const memory = await server.child.request<{ rss: number; heapUsed: number }>('memory');
  const elapsed = (s1.at - s0.at) / 1000;
  const perSecond = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.keys(b).map((k) => [k, (b[k]! - (a[k] ?? 0)) / elapsed]));
  return {
    seconds: elapsed,
    serverCpu: cpuShare(s0.cpu, s1.cpu, s1.at - s0.at),
    mainThreadCpu: waited.runMs / 1000 / waited.seconds,
    feedCpu: cpuShare(f0.cpu, f1.cpu, f1.at - f0.at),
    rssPeak,
    rssAfterGc: memory.rss,
    heapAfterGc: memory.heapUsed,
    heapAtStart: atStart.heapUsed,
    ticks: m1.ticks - m0.ticks,
    late: m1.late - m0.late,
    tickP99Ms: p99Bucket(m0, m1),
    fetchRates: perSecond(m0.fetches, m1.fetches),
    feedRates: perSecond(f0.counts, f1.counts),
    diag,
    waitMsPerS: waited.waitMs / waited.seconds,
    diskWritesPerS: written / waited.seconds,
    walFlushesPerS: (m1.walFlushes - m0.walFlushes) / elapsed,
    steal: stolen,
    load: [load0, os.loadavg()[0]!],
  };
}

export interface FetchGaps {
  sources: number;
  /** Time between two fetches of one source (their log lines' times), ms. */
  gap: ReturnType<typeof summary>;
  /** How long each fetch took, ms. */
  ms: ReturnType<typeof summary>;
  errors: number;
}

interface FetchLine {
  at: string;
  ms: number;
  error: string | null;
}

/** Reads the fetch logs of `sources` (the API, 600 reads a minute) for lines from `since` (epoch ms) on. */
export async function fetchGaps(server: Onair, sources: SeededSource[], since: number): Promise<FetchGaps> {
  const gaps: number[] = [];
  const ms: number[] = [];
  let errors = 0;
  for (const s of sources) {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/channels/${s.channelId}/sources/${s.id}/fetches`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    if (!res.ok) throw new Error(`fetch log of ${s.id}: HTTP ${res.status}`);
    const lines = ((await res.json()) as { data: FetchLine[] }).data
      .map((l) => ({ ...l, t: Date.parse(l.at) }))
      .filter((l) => l.t >= since)
      .reverse();
    for (const [i, l] of lines.entries()) {
      ms.push(l.ms);
      if (l.error !== null) errors++;
      if (i > 0) gaps.push(l.t - lines[i - 1]!.t);
    }
  }
  return { sources: sources.length, gap: summary(gaps), ms: summary(ms), errors };
}
