/**
 * Applies one of the rate-limit buckets (docs/api.md, "Rate limits") to a scope (a channel for updates, a workspace for
 * reads and creates) and turns a refusal into 429 rate_limited with a Retry-After that is enough. Shared by the HTTP
 * routes, WebSocket ops and incoming hooks, so every path counts against the same bucket.
 */
import { AppError } from '../errors.js';
import { BUCKETS, type BucketName, type RateDecision, type RateLimiter } from './rate-limiter.js';

export interface Admission {
  decision: RateDecision;
  headers: Record<string, string>;
}

export async function admit(limiter: RateLimiter, bucket: BucketName, scope: string): Promise<Admission> {
  const { limit, windowMs } = BUCKETS[bucket];
  const decision = await limiter.take(`${bucket}:${scope}`, limit, windowMs);
  const headers = {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.max(1, Math.ceil(decision.resetMs / 1000))),
  };
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new AppError(
      'rate_limited',
      `Too many ${bucket}: at most ${limit} per ${windowMs / 1000} s. Retry in ${seconds} s.`,
      {
        retryAfter: seconds,
        headers,
        extra: { bucket },
      },
    );
  }
  return { decision, headers };
}

/**
 * A limit outside the buckets (WebSocket resync requests, creates per account and per address): throws
 * rate_limited when exceeded, saying what was counted when `what` is given ("creates from this account").
 */
export async function admitCustom(
  limiter: RateLimiter,
  key: string,
  rule: { limit: number; windowMs: number },
  what?: string,
): Promise<void> {
  const decision = await limiter.take(key, rule.limit, rule.windowMs);
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    const detail = what
      ? `Too many ${what}: at most ${rule.limit} per ${rule.windowMs / 1000} s. Retry in ${seconds} s.`
      : `Too many attempts. Retry in ${seconds} s.`;
    throw new AppError('rate_limited', detail, { retryAfter: seconds });
  }
}
