/**
 * Time for the engine: an epoch-anchored monotonic clock and a one-shot timer.
 * Tests pass a ManualTime and move it by hand; production uses systemTime.
 */

export interface TimeSource {
  /** Epoch milliseconds, monotonic (never goes back while the process runs). */
  now(): number;
  /** Calls `fn` once after about `ms`; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** performance.timeOrigin + performance.now(): wall-clock anchored once, monotonic after. */
export const systemTime: TimeSource = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};

/** A clock that only moves when told to; timers fire during advance(). */
export class ManualTime implements TimeSource {
  private current: number;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  constructor(startEpochMs = 1_700_000_000_000) {
    this.current = startEpochMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.current + Math.max(0, ms), fn, id });
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id);
    };
  }

  /** Moves time forward, firing due timers in time order at their own due time. */
  advance(ms: number): void {
    const end = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = end;
  }

  /** Moves time without firing timers (a stalled event loop). */
  jump(ms: number): void {
    this.current += ms;
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}
