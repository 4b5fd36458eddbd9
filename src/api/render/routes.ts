/**
 * The output page for OBS / vMix / CasparCG browser sources: a tiny no-cache shell whose
 * content-hashed script does the connecting, retrying and drawing, and the typefaces the script bundles
 * (content-hashed too). The token is checked by the WebSocket, so a page opened with a stale token still
 * loads and keeps retrying; `…/access` tells the page whether its token still opens the channel, which a browser
 * cannot learn from a refused upgrade (docs/renderer.md, "Troubleshooting").
 */
import path from 'node:path';
import { Hono } from 'hono';
import { channelOpenedBy, outputTokenRefused } from '../../auth/output-token.js';
import { AppError } from '../../errors.js';
import { rendererPageHeaders } from '../../http/page-headers.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { fileResponse, IMMUTABLE, NO_CACHE, StaticDir } from '../static-file.js';

/** The graphics' host page (docs/ograf.md, "Isolation"): scripts in an opaque origin, and no Referer. */
const GRAPHIC_HOST_HEADERS = {
  'Content-Security-Policy': 'sandbox allow-scripts',
  'Referrer-Policy': 'no-referrer',
} as const;

export function renderRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const { renderer } = deps;
  const assets = new StaticDir(renderer.dir);
  // Listed once here, like every StaticDir: a request for a name not in the listing touches nothing.
  const fonts = new StaticDir(path.join(renderer.dir, 'fonts'));
  const pageHeaders = {
    ...rendererPageHeaders(renderer.inline ?? { scripts: [], styles: [] }),
    'Cache-Control': NO_CACHE,
  };

  app.get('/render/assets/:file', (c) => {
    const found = assets.get(c.req.param('file'));
    if (!found) throw new AppError('not_found', 'No such renderer asset.');
    // The one page among the assets is the OGraf graphics' host: sandboxed even when opened on its own.
    const isPage = c.req.param('file').endsWith('.html');
    return fileResponse(found, IMMUTABLE, isPage ? GRAPHIC_HOST_HEADERS : {});
  });

  app.get('/render/fonts/:file', (c) => {
    const found = c.req.param('file').endsWith('.woff2') ? fonts.get(c.req.param('file')) : null;
    if (!found) throw new AppError('not_found', 'No such font.');
    return fileResponse({ body: found.body, type: 'font/woff2' }, IMMUTABLE);
  });

  // The upgrade's own check, answered over HTTP: 204, or the upgrade's 401 (a wrong token and an unknown channel alike).
  app.get('/render/:channelId/access', (c) => {
    const token = c.req.query('token');
    if (token === undefined || !channelOpenedBy(deps.engine, c.req.param('channelId'), token))
      throw outputTokenRefused();
    return c.body(null, 204, { 'Cache-Control': 'no-store' });
  });

  app.get('/render/:channelId', (c) => {
    if (renderer.html === null) {
      throw new AppError(
        'unavailable',
        'The renderer is not built; run `npm run build:renderer` (npm start does it).',
        { retryAfter: 5 },
      );
    }
    return c.html(renderer.html, 200, pageHeaders);
  });

  return app;
}
