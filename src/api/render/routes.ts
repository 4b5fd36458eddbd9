/**
 * The output page for OBS / vMix / CasparCG browser sources (RENDERER.md): a tiny no-cache shell whose
 * content-hashed script does the connecting, retrying and drawing. The token is checked by the WebSocket,
 * so a page opened with a stale token still loads and keeps retrying quietly.
 */
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { fileResponse, IMMUTABLE, NO_CACHE, readStatic, safeJoin } from '../static-file.js';

export function renderRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const { renderer } = deps;

  app.get('/render/assets/:file', (c) => {
    const file = safeJoin(renderer.dir, c.req.param('file'));
    const found = file ? readStatic(file) : null;
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
    return c.html(renderer.html, 200, { 'Cache-Control': NO_CACHE, 'X-Content-Type-Options': 'nosniff' });
  });

  return app;
}
