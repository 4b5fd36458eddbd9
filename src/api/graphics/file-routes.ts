/**
 * Serves an imported graphic's files at `/ograf/files/{capability}/{path}` (docs/ograf.md, "Serving"). The capability
 * is random per graphic, so the path alone is the credential: a renderer imports `base + main` and the module's
 * relative imports resolve beside it, with no token in sight of graphic code. It opens that graphic's files only,
 * read-only; anything else is 404. The files of a graphic never change, so they are cached for a year with their hash
 * as a strong ETag. Output pages host graphics in sandboxed iframes (an opaque origin), hence CORS for everyone; a
 * document opened directly is sandboxed too, so graphic code never runs with this server's origin.
 */
import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';

const PREFIX = '/ograf/files/';
const CAPABILITY = /^[A-Za-z0-9_-]{16,64}$/;
const YEAR = 'public, max-age=31536000, immutable';

export function graphicFileRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get(`${PREFIX}:capability/*`, async (c) => {
    const capability = c.req.param('capability');
    const path = filePath(c.req.path, capability);
    const graphic = CAPABILITY.test(capability) && path ? await deps.store.graphics.byCapability(capability) : null;
    const file = graphic && path ? await deps.store.graphics.readFile(graphic.id, path) : undefined;
    if (!file) throw new AppError('not_found', 'No such graphic file.');
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Cache-Control': YEAR,
      ETag: `"${file.sha256}"`,
      'Access-Control-Allow-Origin': '*',
      'Content-Security-Policy': 'sandbox',
      'X-Content-Type-Options': 'nosniff',
    };
    if (matchesEtag(c.req.header('if-none-match'), file.sha256)) return c.body(null, 304, headers);
    return c.body(file.data as Uint8Array<ArrayBuffer>, 200, headers);
  });
  return app;
}

/** The file's path in the graphic, decoded; null when it cannot name one. */
function filePath(requestPath: string, capability: string): string | null {
  const rest = requestPath.slice(PREFIX.length + capability.length + 1);
  try {
    const path = rest.split('/').map(decodeURIComponent).join('/');
    return path.length > 0 ? path : null;
  } catch {
    return null;
  }
}

function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${sha256}"`;
  });
}
