/**
 * The rate limiter as benchmarks need it. The check always runs (its cost is part of every measured
 * request); for the buckets named in `lift` a refusal is counted and then ignored (with nothing lifted
 * the limiter is left untouched). Benchmarks need this
 * because their load is above the documented limits on purpose (docs/api.md, "Rate limits") (fan-out capacity, 1,000-channel REST), and
 * their setup creates more than 60 channels a minute. startServer offers no way to pass a limiter, so
 * this wraps MemoryRateLimiter.take before the server is built.
 */
type Bucket = 'updates' | 'reads' | 'creates';
type Decision = { allowed: boolean; retryAfterMs: number };
type Take = (key: string, limit: number, windowMs: number) => Promise<Decision>;

export const refusals: Record<string, number> = {};
export const checks: Record<string, number> = {};

export async function liftLimits(lift: readonly Bucket[]): Promise<boolean> {
  let mod: { MemoryRateLimiter?: { prototype: { take: Take } } };
  try {
    mod = await import('../../src/limits/memory-rate-limiter.js');
  } catch {
    return false; // no limiter in this build
  }
  const proto = mod.MemoryRateLimiter?.prototype;
  if (!proto) return false;
  // Nothing lifted: the real limiter, unwrapped, so the measured path costs exactly what it costs in production.
  if (lift.length === 0) return true;
  const original = proto.take;
  const lifted = new Set<string>(lift);
  proto.take = async function (this: unknown, key, limit, windowMs) {
    const bucket = key.slice(0, key.indexOf(':'));
    checks[bucket] = (checks[bucket] ?? 0) + 1;
    const decision = await original.call(this, key, limit, windowMs);
    if (decision.allowed) return decision;
    refusals[bucket] = (refusals[bucket] ?? 0) + 1;
    return lifted.has(bucket) ? { ...decision, allowed: true, retryAfterMs: 0 } : decision;
  };
  return true;
}
