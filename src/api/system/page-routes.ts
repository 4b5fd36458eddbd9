/**
 * The pages around the API: the landing page, the API reference, first-run setup and invitations, and
 * the small static files they load.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import type { ApiEnv } from '../env.js';
import { fileResponse, NO_CACHE, readStatic } from '../static-file.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

export function pageRoutes(publicDir: string): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

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
