/**
 * Serves asset files at `/assets/{sha256}.{ext}` (docs/assets.md): immutable, so cached for a year with the hash as a
 * strong ETag. Access: the URL alone gives nothing. A renderer adds `?channel=<id>&token=<output token>` (the output
 * page does it by itself), which works in OBS, vMix and CasparCG with no cookies; a key or a dashboard session of the
 * asset's workspace works too. Anything else is the same 404 as a missing file, so hashes cannot be probed. Every
 * answer forbids scripts (a CSP sandbox) and content sniffing, whatever the file is: an SVG opened directly cannot
 * run anything even if something got past the sanitiser.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { authorize } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import { assetPath } from '../../operations/index.js';
import type { AssetRecord } from '../../store/asset-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';

export const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; sandbox";
const FILE = /^([0-9a-f]{64})\.([a-z0-9]{2,5})$/;
const YEAR = 'max-age=31536000, immutable';

export function assetServeRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get('/assets/:file', async (c) => {
    const match = FILE.exec(c.req.param('file'));
    const candidates = match ? await deps.store.assets.findByHash(match[1]!) : [];
    const wanted = candidates.filter((a) => assetPath(a) === `/assets/${c.req.param('file')}`);
    const access = await firstAllowed(deps, c, wanted);
    if (!access) throw new AppError('not_found', 'No such asset (or no access to it: add the output token).');
    const { asset, shared } = access;
    const headers: Record<string, string> = {
      'Content-Type': asset.type,
      // The URL carries its credential: a shared cache keys on it. A key's or session's answer stays private.
      'Cache-Control': `${shared ? 'public' : 'private'}, ${YEAR}`,
      ETag: `"${asset.sha256}"`,
      'Content-Security-Policy': ASSET_CSP,
      'X-Content-Type-Options': 'nosniff',
    };
    if (matchesEtag(c.req.header('if-none-match'), asset.sha256)) return c.body(null, 304, headers);
    const data = await deps.store.assets.readData(asset.id);
    if (!data) throw new AppError('not_found', 'No such asset (or no access to it: add the output token).');
    return c.body(data as Uint8Array<ArrayBuffer>, 200, headers);
  });
  return app;
}

/** The first of the assets the request may read, and whether its URL was the credential. */
async function firstAllowed(
  deps: ApiDeps,
  c: Context<ApiEnv>,
  assets: AssetRecord[],
): Promise<{ asset: AssetRecord; shared: boolean } | null> {
  if (assets.length === 0) return null;
  const channelId = c.req.query('channel');
  const token = c.req.query('token');
  if (channelId !== undefined && token !== undefined) {
    const record = deps.engine.has(channelId) ? deps.engine.channelRecord(channelId) : null;
    const asset = record && sameToken(record.outputToken, token) && assets.find((a) => a.orgId === record.orgId);
    return asset ? { asset, shared: true } : null;
  }
  const authorization = c.req.header('authorization');
  const cookie = c.req.header('cookie');
  if (!authorization && !cookie) return null;
  for (const asset of assets) {
    try {
      const principal = await deps.auth.fromRequest({ authorization, cookie, workspace: asset.orgId });
      authorize(principal, 'channels:read', { orgId: asset.orgId });
      return { asset, shared: false };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return null;
}

function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${sha256}"`;
  });
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
