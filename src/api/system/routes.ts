/**
 * Operations endpoints (API.md §9) and the pages around the API: health, metrics, the API reference.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { fileResponse, NO_CACHE, readStatic } from '../static-file.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

export function systemRoutes(deps: ApiDeps, publicDir: string): Hono<ApiEnv> {
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

  app.get('/metrics', (c) => {
    if (deps.metricsToken && !sameSecret(c.req.header('authorization') ?? '', `Bearer ${deps.metricsToken}`)) {
      throw new AppError('unauthorized', 'Send "Authorization: Bearer $ONAIR_METRICS_TOKEN".');
    }
    return c.text(deps.metrics(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  });

  app.get('/docs', () => {
    const page = readStatic(path.join(publicDir, 'docs.html'));
    if (!page) throw new AppError('not_found', 'No API reference page.');
    return fileResponse(page, NO_CACHE);
  });

  app.get('/docs/assets/:file', (c) => {
    const name = c.req.param('file');
    const file = SWAGGER_FILES.has(name) ? readStatic(path.join(SWAGGER_DIR, name)) : null;
    if (!file) throw new AppError('not_found', 'No such file.');
    return fileResponse(file, 'public, max-age=3600');
  });

  for (const page of ['setup', 'invite']) {
    app.get(`/${page}`, () => {
      const file = readStatic(path.join(publicDir, `${page}.html`));
      if (!file) throw new AppError('not_found', 'No such page.');
      return fileResponse(file, NO_CACHE);
    });
  }

  app.get('/', () => {
    const page = readStatic(path.join(publicDir, 'index.html'));
    if (!page) throw new AppError('not_found', 'No landing page.');
    return fileResponse(page, NO_CACHE);
  });

  app.get('/:file{[A-Za-z0-9_-]+\\.(?:js|css|svg|png|ico)}', (c) => {
    const file = readStatic(path.join(publicDir, c.req.param('file')));
    if (!file) throw new AppError('not_found', 'No such file.');
    return fileResponse(file, NO_CACHE);
  });

  return app;
}

function sameSecret(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
