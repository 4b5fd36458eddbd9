/**
 * A sliding-log limiter in memory: each key keeps the times of its last `limit` admitted hits in a ring.
 * A hit is admitted when the oldest of those is outside the window, which is exactly "never more than
 * `limit` in any rolling window". Memory is bounded by keys × limit; idle keys are swept.
 */
import type { RateDecision, RateLimiter } from './rate-limiter.js';

interface Log {
  times: Float64Array;
  /** Index of the oldest entry. */
  head: number;
  count: number;
  windowMs: number;
}

const SWEEP_EVERY = 10_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private calls = 0;

  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {}

  async take(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const now = this.now();
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(now);
    const log = this.logFor(key, limit, windowMs);
    this.expire(log, now);
    if (log.count < limit) {
      log.times[(log.head + log.count) % limit] = now;
      log.count++;
      return {
        allowed: true,
        limit,
        remaining: limit - log.count,
        resetMs: this.oldest(log, now) + windowMs - now,
        retryAfterMs: 0,
      };
    }
    const retryAfterMs = Math.max(1, this.oldest(log, now) + windowMs - now);
    return { allowed: false, limit, remaining: 0, resetMs: retryAfterMs, retryAfterMs };
  }

  private oldest(log: Log, now: number): number {
    return log.times[log.head] ?? now;
  }

  private logFor(key: string, limit: number, windowMs: number): Log {
    let log = this.logs.get(key);
    if (!log || log.times.length !== limit || log.windowMs !== windowMs) {
      log = { times: new Float64Array(limit), head: 0, count: 0, windowMs };
      this.logs.set(key, log);
    }
    return log;
  }

  /** Drops hits that are no longer inside the window ending now. */
  private expire(log: Log, now: number): void {
    const size = log.times.length;
    while (log.count > 0 && (log.times[log.head] ?? 0) <= now - log.windowMs) {
      log.head = (log.head + 1) % size;
      log.count--;
    }
  }

  private newest(log: Log): number {
    return log.times[(log.head + log.count - 1) % log.times.length] ?? 0;
  }

  private sweep(now: number): void {
    for (const [key, log] of this.logs) {
      if (log.count === 0 || this.newest(log) <= now - log.windowMs) this.logs.delete(key);
    }
  }
}
