/**
 * Where a frame's milliseconds go, measured inside the real server without changing it: how late each
 * tick starts after its frame begins, how long each tick's write takes (on the event loop: better-sqlite3
 * is synchronous) and how long its flush to disk takes after that (off the loop; acknowledgements wait for
 * it, frames do not). Installed by wrapping two prototype methods before start.
 */
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { FrameClock, frameAt, frameStart, type FrameRateFraction, type TimeSource } from '../../src/engine/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { summary } from '../lib/stats.js';

const lateness: number[] = [];
const commits: number[] = [];
const flushes: number[] = [];
const gcPauses: number[] = [];
let loopDelay: IntervalHistogram | null = null;
let restarts = 0;
const LIMIT = 200_000;
const RESTARTED = Symbol('restarted');

/** FrameClock's private fields, read from outside. */
type Clock = { rate: FrameRateFraction; time: TimeSource; [RESTARTED]?: boolean; running(): boolean };

/**
 * Lateness is recorded for ticks the clock scheduled itself. The first tick after start() (the clock
 * stops when no channel has work, and restarts when work arrives) runs at once for the frame already
 * under way: FrameClock counts it as late, but it is early for the value that woke it.
 */
/** A prototype method, to call from its replacement. */
function original<T extends (...args: never[]) => unknown>(proto: object, name: string): T {
  return Object.getOwnPropertyDescriptor(proto, name)!.value as T;
}

export function installDiagnostics(): void {
  // Garbage-collection pauses and event-loop blocking: what can start a tick late.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (gcPauses.length < LIMIT) gcPauses.push(e.duration);
  }).observe({ entryTypes: ['gc'] });
  loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const start = original<(this: FrameClock) => void>(FrameClock.prototype, 'start');
  FrameClock.prototype.start = function (this: FrameClock) {
    const clock = this as unknown as Clock;
    if (!clock.running()) clock[RESTARTED] = true;
    start.call(this);
  };
  const tick = original<(this: FrameClock) => number | null>(FrameClock.prototype, 'tick');
  FrameClock.prototype.tick = function (this: FrameClock) {
    const clock = this as unknown as Clock;
    const now = clock.time.now();
    const result = tick.call(this);
    if (result === null) return result;
    if (clock[RESTARTED]) restarts++;
    else if (lateness.length < LIMIT) lateness.push(now - frameStart(clock.rate, frameAt(clock.rate, now)));
    clock[RESTARTED] = false;
    return result;
  };
  type Commit = SqliteStore['commitTick'];
  const commit = original<(this: SqliteStore, ...a: Parameters<Commit>) => ReturnType<Commit>>(
    SqliteStore.prototype,
    'commitTick',
  );
  SqliteStore.prototype.commitTick = function (this: SqliteStore, ...args: Parameters<Commit>) {
    const t = performance.now();
    const result = commit.apply(this, args);
    if (commits.length < LIMIT) commits.push(performance.now() - t);
    void result?.durable?.then(() => {
      if (flushes.length < LIMIT) flushes.push(performance.now() - t);
    });
    return result;
  };
}

/** Summaries since the last call, in ms. */
export function diagnostics() {
  const late = lateness.filter((ms) => ms > 2).length;
  const out = {
    tickLateness: summary(lateness),
    lateScheduled: late,
    restarts,
    commit: summary(commits),
    flush: summary(flushes),
    gc: { ...summary(gcPauses), totalMs: gcPauses.reduce((a, b) => a + b, 0) },
    loopDelay: loopDelay
      ? { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 }
      : null,
  };
  gcPauses.length = 0;
  loopDelay?.reset();
  lateness.length = 0;
  commits.length = 0;
  flushes.length = 0;
  restarts = 0;
  return out;
}
