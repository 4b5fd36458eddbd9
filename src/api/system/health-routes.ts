/**
 * Operations endpoints (docs/api.md, "Operations"): health and Prometheus metrics.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv, Health } from '../env.js';

const UNAVAILABLE: Record<Exclude<Health, 'ready'>, string> = {
  starting: 'The server is starting.',
  draining: 'The server is draining.',
  storage_failed: 'Storage refuses writes (reads and output pages keep working).',
  redis_failed: 'Redis cannot be reached (ops for channels another node ticks, and rate-limited routes, are refused).',
};

export function healthRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get('/healthz', (c) => {
    const health = deps.health();
    const redis = deps.redis?.();
    const report = {
      version: deps.info?.version ?? 'unknown',
      uptimeSeconds: deps.info ? Math.floor((performance.now() - deps.info.startedAt) / 1000) : 0,
      storage: deps.store.failure() ? 'failed' : 'ok',
      // Only where there is a Redis (several nodes).
      ...(deps.redis ? { redis: redis ? 'failed' : 'ok' } : {}),
    };
    if (health === 'ready') return c.json({ ok: true, status: health, ...report }, 200);
    // The problem's own `status` is the HTTP status, so the health goes under `health`.
    const failure = health === 'storage_failed' ? deps.store.failure() : health === 'redis_failed' ? redis : null;
    const why = failure ? ` ${failure}` : '';
    throw new AppError('unavailable', UNAVAILABLE[health] + why, { retryAfter: 1, extra: { health, ...report } });
  });

  app.get('/metrics', async (c) => {
    if (deps.metricsToken && !sameSecret(c.req.header('authorization') ?? '', `Bearer ${deps.metricsToken}`)) {
      throw new AppError('unauthorized', 'Send "Authorization: Bearer $ONAIR_METRICS_TOKEN".');
    }
    return c.text(await deps.metrics(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  });

  return app;
}

function sameSecret(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
