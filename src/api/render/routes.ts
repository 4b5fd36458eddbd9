/**
 * The output page for OBS / vMix / CasparCG browser sources: a tiny no-cache shell whose
 * content-hashed script does the connecting, retrying and drawing. The token is checked by the WebSocket,
 * so a page opened with a stale token still loads and keeps retrying quietly.
 */
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import { rendererPageHeaders } from '../../http/page-headers.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { fileResponse, IMMUTABLE, NO_CACHE, StaticDir } from '../static-file.js';

export function renderRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const { renderer } = deps;
  const assets = new StaticDir(renderer.dir);
  const pageHeaders = {
    ...rendererPageHeaders(renderer.inline ?? { scripts: [], styles: [] }),
    'Cache-Control': NO_CACHE,
  };

  app.get('/render/assets/:file', (c) => {
    const found = assets.get(c.req.param('file'));
    if (!found) throw new AppError('not_found', 'No such renderer asset.');
    return fileResponse(found, IMMUTABLE);
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
