/**
 * Rate-limit refusals by bucket. The limiter sees keys (`updates:ch_…`, `resync:12`); the bucket is the
 * part before the first colon, kept only when it is one of the names below so a key can never add a
 * series. Sign-in attempts have their own throttle (src/limits/login-throttle.ts): its refusals and the
 * failed attempts it is told of are counted apart.
 */
import { Counter, type Registry } from 'prom-client';
import type { LoginThrottle } from '../limits/login-throttle.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

const BUCKETS = new Set(['updates', 'reads', 'creates', 'resync']);

/** The limiter, counting each refusal it makes. */
export function countRefusals(registry: Registry, limiter: RateLimiter): RateLimiter {
  const refused = new Counter({
    name: 'onair_rate_limited_total',
    help: 'Requests and WebSocket ops refused by a rate limit, by bucket',
    labelNames: ['bucket'] as const,
    registers: [registry],
  });
  for (const bucket of ['updates', 'reads', 'creates']) refused.inc({ bucket }, 0);
  return {
    async take(key, limit, windowMs) {
      const decision = await limiter.take(key, limit, windowMs);
      if (!decision.allowed) refused.inc({ bucket: bucketOf(key) });
      return decision;
    },
  };
}

function bucketOf(key: string): string {
  const name = key.slice(0, key.indexOf(':'));
  return BUCKETS.has(name) ? name : 'other';
}

/** The login throttle, counting failed sign-ins (wrong passwords) and the attempts it refuses. */
export function countLoginThrottle(registry: Registry, throttle: LoginThrottle): LoginThrottle {
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const failures = counter('onair_login_failures_total', 'Sign-ins and password changes with a wrong password');
  const refused = counter('onair_login_throttled_total', 'Sign-in attempts refused by the login throttle');
  return {
    async check(account, address) {
      const decision = await throttle.check(account, address);
      if (!decision.allowed) refused.inc();
      return decision;
    },
    async failed(account, address) {
      failures.inc();
      await throttle.failed(account, address);
    },
    succeeded: (account, address) => throttle.succeeded(account, address),
  };
}
