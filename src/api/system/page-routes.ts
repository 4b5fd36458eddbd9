/**
 * The pages around the API: the operator dashboard at `/` (built by `npm run build:dashboard` into
 * public/app/, docs/dashboard.md), the API reference, first-run setup, invitations and password resets, and
 * the small static files they load. Every file name a client sends is looked up in listings made here, at
 * start (see static-file.ts): nothing is remembered per name asked for.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import { PAGE_HEADERS } from '../../http/page-headers.js';
import type { ApiEnv } from '../env.js';
import { fileResponse, IMMUTABLE, NO_CACHE, StaticDir } from '../static-file.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js'];

/** Path → HTML file in public/. */
const PAGES: Record<string, string> = {
  '/docs': 'docs.html',
  '/setup': 'setup.html',
  '/invite': 'invite.html',
  '/reset': 'reset.html',
};

export function pageRoutes(publicDir: string): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const publicFiles = new StaticDir(publicDir);
  const swaggerFiles = new StaticDir(SWAGGER_DIR, SWAGGER_FILES);
  const dashboardFiles = new StaticDir(path.join(publicDir, 'app'));

  app.get('/', () => {
    const page = dashboardFiles.get('index.html');
    if (!page)
      throw new AppError(
        'unavailable',
        'The dashboard is not built; run `npm run build:dashboard` (npm start does it).',
        {
          retryAfter: 5,
        },
      );
    return fileResponse(page, NO_CACHE, PAGE_HEADERS);
  });

  // Content-hashed names: a new build is a new name, so these may be cached for good.
  app.get('/app/:file{dashboard-[A-Za-z0-9]+\\.(?:js|css)(?:\\.map)?}', (c) => {
    const file = dashboardFiles.get(c.req.param('file'));
    if (!file) throw new AppError('not_found', 'No such file.');
    return fileResponse(file, IMMUTABLE);
  });

  for (const [route, name] of Object.entries(PAGES)) {
    app.get(route, () => {
      const page = publicFiles.get(name);
      if (!page) throw new AppError('not_found', 'No such page.');
      return fileResponse(page, NO_CACHE, PAGE_HEADERS);
    });
  }

  app.get('/docs/assets/:file', (c) => {
    const file = swaggerFiles.get(c.req.param('file'));
    if (!file) throw new AppError('not_found', 'No such file.');
    return fileResponse(file, 'public, max-age=3600');
  });

  app.get('/:file{[A-Za-z0-9_-]+\\.(?:js|css|svg|png|ico)}', (c) => {
    const file = publicFiles.get(c.req.param('file'));
    if (!file) throw new AppError('not_found', 'No such file.');
    return fileResponse(file, NO_CACHE);
  });

  return app;
}
