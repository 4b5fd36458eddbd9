/**
 * Operations endpoints (docs/api.md, "Operations"): health and Prometheus metrics.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';

export function healthRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get('/healthz', (c) => {
    const health = deps.health();
    if (health === 'ready') return c.json({ ok: true }, 200);
    const detail = {
      starting: 'The server is starting.',
      draining: 'The server is draining.',
      storage_failed: 'Storage can no longer confirm writes on disk; restart the server (see its log).',
    }[health];
    throw new AppError('unavailable', detail, { retryAfter: 1 });
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
