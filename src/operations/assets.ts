/**
 * A workspace's asset library (docs/assets.md): upload an image or font, list, read, delete. Files are typed from
 * their bytes, SVGs sanitised, and the same bytes uploaded twice are the same asset. An asset is served at
 * `/assets/{sha256}.{ext}` (api/assets/serve-routes.ts); deleting one a scene still uses is refused.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { sniff, type Sniffed } from '../assets/sniff.js';
import { sanitiseSvg, SvgRefused } from '../assets/svg-sanitise.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { NUL_RULE } from '../nul-char.js';
import { assertRoom, type ResourceLimits } from '../limits/resource-limits.js';
import type { AssetRecord } from '../store/asset-store.js';
import type { OperationContext, WorkspaceOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';
import { scenesUsing, type SceneUse } from './asset-uses.js';
import type { Services } from './services.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'font/woff2': 'woff2',
};

/** The path an asset is served at: the same on every server that holds it (a restored backup too). */
export function assetPath(a: Pick<AssetRecord, 'sha256' | 'type'>): string {
  return `/assets/${a.sha256}.${EXTENSIONS[a.type] ?? 'bin'}`;
}

export interface AssetView extends Omit<AssetRecord, 'orgId'> {
  /** Where it is served, absolute (the server's base URL) and as a path on any server that holds it. */
  url: string;
  path: string;
}

function assetView(a: AssetRecord, baseUrl: string): AssetView {
  const { id, sha256, type, kind, name, bytes, width, height, createdAt } = a;
  const path = assetPath(a);
  return { id, sha256, type, kind, name, bytes, width, height, createdAt, url: `${baseUrl}${path}`, path };
}

const write = { scope: 'workspace', permission: 'channels:write', bucket: 'creates' } as const;
const read = { scope: 'workspace', permission: 'channels:read', bucket: 'reads' } as const;

export const AssetUpload = z.strictObject({
  // A form's field is no JSON: the body's check (../nul-char.ts) does not see it.
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((name) => !name.includes('\0'), NUL_RULE),
  data: z.instanceof(Uint8Array),
});

export const uploadAsset: WorkspaceOperation<z.infer<typeof AssetUpload>, AssetView & { created: boolean }> = {
  ...write,
  name: 'assets.upload',
  input: AssetUpload,
  async run({ services, caller }, { name, data }) {
    const { sniffed, bytes } = checkedFile(data, services.limits);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const orgId = caller.principal.orgId;
    const held = (await services.store.assets.findByHash(sha256)).find((a) => a.orgId === orgId);
    if (held) return { ...assetView(held, services.baseUrl()), created: false };
    await assertQuota(services, orgId, bytes.byteLength);
    const record: AssetRecord = {
      id: newId('ast'),
      orgId,
      sha256,
      type: sniffed.type,
      kind: sniffed.kind,
      name,
      bytes: bytes.byteLength,
      width: sniffed.width,
      height: sniffed.height,
      createdAt: new Date(services.now()).toISOString(),
    };
    const { asset, created } = await services.store.assets.insertAsset(record, bytes);
    return { ...assetView(asset, services.baseUrl()), created };
  },
};

/** What the file is, read from its bytes, and the bytes to store (an SVG's sanitised), within the size caps. */
function checkedFile(data: Uint8Array, limits: ResourceLimits): { sniffed: Sniffed; bytes: Uint8Array } {
  assertSize(data.byteLength, limits.assetMaxBytes, 'An asset', 'ONAIR_ASSET_MAX_BYTES');
  const sniffed = sniff(data);
  if (!sniffed) {
    throw new AppError(
      'unsupported_media_type',
      'The file is not a PNG, JPEG, GIF, WebP or SVG image or a WOFF2 font (read from its bytes; its name and ' +
        'Content-Type are not believed).',
    );
  }
  if (sniffed.type !== 'image/svg+xml') return { sniffed, bytes: data };
  assertSize(data.byteLength, limits.svgMaxBytes, 'An SVG', 'ONAIR_ASSET_SVG_MAX_BYTES');
  return { sniffed, bytes: Buffer.from(safeSvg(data)) };
}

/**
 * 422 limit_reached when the workspace's assets fill its quota. Checked before the insert, not with it: two uploads
 * at the same moment may both pass, so the quota can be passed by one file (docs/assets.md).
 */
async function assertQuota(services: Services, orgId: string, size: number): Promise<void> {
  const [usage, graphics] = await Promise.all([
    services.store.assets.usage(orgId),
    services.store.graphics.usage(orgId),
  ]);
  assertRoom(usage.count, services.limits.assetsPerWorkspace, 'A workspace has at most {limit} assets', LIMIT_COUNT);
  assertLibraryRoom(services, usage.bytes + graphics.bytes, size, 'this file');
}

/**
 * 422 limit_reached when `size` more bytes would take the workspace's library — its assets and its imported graphics'
 * files, `held` bytes now — past ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE.
 */
export function assertLibraryRoom(services: Services, held: number, size: number, what: string): void {
  const limit = services.limits.assetBytesPerWorkspace;
  if (held + size <= limit) return;
  throw new AppError(
    'limit_reached',
    `A workspace's assets and graphics take at most ${limit} bytes; it holds ${held} and ${what} is ${size} (${LIMIT_BYTES}).`,
    { extra: { limit, setting: LIMIT_BYTES } },
  );
}

const LIMIT_COUNT = 'ONAIR_LIMIT_ASSETS_PER_WORKSPACE';
const LIMIT_BYTES = 'ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE';

/** 413 naming the setting when a file is over a cap. */
export function assertSize(size: number, limit: number, what: string, setting: string): void {
  if (size <= limit) return;
  throw new AppError('payload_too_large', `${what} is at most ${limit} bytes; this file is ${size} (${setting}).`, {
    extra: { limit, setting },
  });
}

function safeSvg(data: Uint8Array): string {
  try {
    return sanitiseSvg(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch (err) {
    if (err instanceof SvgRefused || err instanceof TypeError) {
      const why = err instanceof SvgRefused ? err.message : 'it is not UTF-8 text';
      throw new AppError('unsupported_media_type', `The SVG could not be read safely: ${why}.`);
    }
    throw err;
  }
}

export const listAssets: WorkspaceOperation<{ limit: number; cursor?: string | undefined }, Page<AssetView>> = {
  ...read,
  name: 'assets.list',
  input: z.strictObject(PageQuery),
  async run({ services, caller }, { limit, cursor }) {
    const found = await services.store.assets.listAssets(caller.principal.orgId, { limit: limit + 1, after: cursor });
    return page(
      found.map((a) => assetView(a, services.baseUrl())),
      limit,
    );
  },
};

const AssetRef = z.strictObject({ assetId: ResourceId });

export const getAsset: WorkspaceOperation<{ assetId: string }, AssetView> = {
  ...read,
  name: 'assets.get',
  input: AssetRef,
  run: async (ctx, { assetId }) => assetView(await find(ctx, assetId), ctx.services.baseUrl()),
};

export const deleteAsset: WorkspaceOperation<{ assetId: string }, void> = {
  ...write,
  name: 'assets.delete',
  input: AssetRef,
  async run(ctx, { assetId }) {
    const asset = await find(ctx, assetId);
    const uses = await scenesUsing(ctx.services, asset);
    if (uses.length > 0) throw inUse(uses);
    await ctx.services.store.assets.deleteAsset(asset.id);
  },
};

function inUse(uses: SceneUse[]): AppError {
  const names = uses.map((u) => `"${u.name}" (${u.id})`).join(', ');
  return new AppError('conflict', `The asset is in use by ${uses.length === 1 ? 'scene' : 'scenes'} ${names}.`, {
    extra: { scenes: uses },
  });
}

/** The asset, when it is the caller's workspace's; the same 404 otherwise. */
async function find({ services, caller }: OperationContext, assetId: string): Promise<AssetRecord> {
  const asset = await services.store.assets.getAsset(assetId);
  if (!asset || asset.orgId !== caller.principal.orgId) throw new AppError('not_found', `No asset ${assetId}.`);
  return asset;
}
