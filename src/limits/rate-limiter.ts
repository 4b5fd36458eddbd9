/**
 * Rate limiting behind one interface (docs/api.md, "Rate limits"). The promise is strict: never more than `limit`
 * accepted hits for a key in any rolling window of `windowMs`. Refused hits are not counted.
 *
 * Guarantees every implementation keeps (rate-limiter.contract.ts runs against each):
 * - take() is atomic per key: concurrent calls never admit more than `limit` in a window.
 * - When it refuses, waiting `retryAfterMs` is enough for the same call to be admitted (absent other hits).
 * - `resetMs` is when the oldest counted hit leaves the window, freeing one more hit.
 * Today: MemoryRateLimiter (one node). Several nodes will share a Redis implementation.
 */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Hits still admissible in the current window after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted hit leaves the window (one more hit becomes admissible). */
  resetMs: number;
  /** When refused: milliseconds after which a retry will be admitted. 0 when allowed. */
  retryAfterMs: number;
}

export interface RateLimiter {
  take(key: string, limit: number, windowMs: number): Promise<RateDecision>;
}

export interface RateBucket {
  name: 'updates' | 'reads' | 'creates';
  limit: number;
  windowMs: number;
}

/** The documented limits (docs/api.md, "Rate limits"): updates 30/s per channel, reads 600/min and creates 60/min per workspace. */
export const BUCKETS = {
  updates: { name: 'updates', limit: 30, windowMs: 1_000 },
  reads: { name: 'reads', limit: 600, windowMs: 60_000 },
  creates: { name: 'creates', limit: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateBucket>;

export type BucketName = keyof typeof BUCKETS;
