/**
 * A workspace's imported OGraf graphics (docs/ograf.md, "Importing"): upload a package (a zip or its files), list,
 * read, delete. Each `*.ograf.json` in a package is one graphic, stored with every file of its folder; the same id and
 * version uploaded again answers the graphic held (409 when its files differ: a new version needs a new `version`).
 * A graphic's files are served at `/ograf/files/{capability}/…` (api/graphics/file-routes.ts); deleting a graphic a
 * scene still uses is refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { fileType } from '../graphics/file-types.js';
import { customActionTriggers, graphicData } from '../graphics/gdd-inputs.js';
import type { Manifest } from '../graphics/manifest-schema.js';
import { filesPackage, isZip, unzipPackage, type PackageLimits } from '../graphics/package-files.js';
import { readGraphics, type PackagedGraphic } from '../graphics/read-graphics.js';
import { newId } from '../ids.js';
import type { GraphicFile, GraphicRecord } from '../store/graphic-store.js';
import type { OperationContext, WorkspaceOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';
import { assertLibraryRoom } from './assets.js';
import { scenesUsingGraphic } from './graphic-uses.js';
import type { Services } from './services.js';

/** The path a graphic's files are served under, ending in `/`: its `main` is imported from `filesPath + main`. */
export function graphicFilesPath(g: Pick<GraphicRecord, 'capability'>): string {
  return `/ograf/files/${g.capability}/`;
}

export interface GraphicView {
  id: string;
  graphicId: string;
  version: string;
  name: string;
  description: string | null;
  main: string;
  stepCount: number;
  manifest: Record<string, unknown>;
  inputs: ReturnType<typeof graphicData>['inputs'];
  triggers: ReturnType<typeof customActionTriggers>;
  /** GDD paths no input carries. */
  unmapped: string[];
  files: number;
  bytes: number;
  sha256: string;
  /** Where its files are served, absolute and as a path. */
  filesUrl: string;
  filesPath: string;
  createdAt: string;
}

export function graphicView(g: GraphicRecord, baseUrl: string): GraphicView {
  const manifest = g.manifest as Manifest;
  const { inputs, unmapped } = graphicData(manifest.schema);
  const filesPath = graphicFilesPath(g);
  return {
    id: g.id,
    graphicId: g.graphicId,
    version: g.version,
    name: g.name,
    description: manifest.description ?? null,
    main: g.main,
    stepCount: g.stepCount,
    manifest: g.manifest,
    inputs,
    triggers: customActionTriggers(manifest.customActions),
    unmapped,
    files: g.files,
    bytes: g.bytes,
    sha256: g.sha256,
    filesUrl: `${baseUrl}${filesPath}`,
    filesPath,
    createdAt: g.createdAt,
  };
}

const write = { scope: 'workspace', permission: 'channels:write', bucket: 'creates' } as const;
const read = { scope: 'workspace', permission: 'channels:read', bucket: 'reads' } as const;

export const GraphicUploadIn = z.strictObject({
  parts: z.array(z.strictObject({ name: z.string().min(1).max(500), data: z.instanceof(Uint8Array) })).min(1),
});

export interface GraphicsUploaded {
  data: (GraphicView & { created: boolean })[];
  warnings: string[];
}

export const uploadGraphic: WorkspaceOperation<z.infer<typeof GraphicUploadIn>, GraphicsUploaded> = {
  ...write,
  name: 'graphics.upload',
  input: GraphicUploadIn,
  async run({ services, caller }, { parts }) {
    const limits = packageLimits(services);
    const only = parts.length === 1 ? parts[0]! : undefined;
    const files = only && isZip(only.data) ? unzipPackage(only.data, limits) : filesPackage(parts, limits);
    const { graphics, warnings } = readGraphics(files);
    await assertGraphicsRoom(services, caller.principal.orgId, graphics);
    const data: GraphicsUploaded['data'] = [];
    for (const packaged of graphics) {
      const { graphic, created } = await store(services, caller.principal.orgId, packaged);
      data.push({ ...graphicView(graphic, services.baseUrl()), created });
    }
    return { data, warnings };
  },
};

/**
 * 422 limit_reached when the graphics of an upload the workspace does not hold yet would pass its count of graphics
 * or the bytes of its library (shared with the assets). Checked before the inserts, like the assets' quota.
 */
async function assertGraphicsRoom(services: Services, orgId: string, graphics: PackagedGraphic[]): Promise<void> {
  const held = new Set<string>();
  let heldBytes = 0;
  for (let after: string | undefined; ;) {
    const found = await services.store.graphics.listGraphics(orgId, { limit: 500, after });
    for (const g of found) held.add(`${g.graphicId}@${g.version}`);
    heldBytes += found.reduce((sum, g) => sum + g.bytes, 0);
    if (found.length < 500) break;
    after = found.at(-1)!.id;
  }
  const fresh = graphics.filter((g) => !held.has(`${g.manifest.id}@${g.manifest.version ?? ''}`));
  if (fresh.length === 0) return;
  const limit = services.limits.graphicsPerWorkspace;
  if (held.size + fresh.length > limit) {
    throw new AppError(
      'limit_reached',
      `A workspace has at most ${limit} graphics; it holds ${held.size} and this upload adds ${fresh.length} (ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE).`,
      { extra: { limit, setting: 'ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE' } },
    );
  }
  const bytes = fresh.reduce((sum, g) => sum + [...g.files.values()].reduce((n, d) => n + d.byteLength, 0), 0);
  const assets = await services.store.assets.usage(orgId);
  assertLibraryRoom(services, assets.bytes + heldBytes, bytes, 'this upload');
}

function packageLimits(services: Services): PackageLimits {
  return { maxFiles: 2000, maxUnzippedBytes: services.limits.graphicUploadMaxBytes * 4 };
}

async function store(
  services: Services,
  orgId: string,
  packaged: PackagedGraphic,
): Promise<{ graphic: GraphicRecord; created: boolean }> {
  const files = [...packaged.files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, data]) => fileOf(path, data));
  const sha256 = packageHash(files);
  const { manifest } = packaged;
  const record: GraphicRecord = {
    id: newId('gr'),
    orgId,
    graphicId: manifest.id,
    version: manifest.version ?? '',
    name: manifest.name,
    main: packaged.main,
    stepCount: manifest.stepCount ?? 1,
    manifest: manifest,
    sha256,
    capability: randomBytes(24).toString('base64url'),
    files: files.length,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    createdAt: new Date(services.now()).toISOString(),
  };
  const stored = await services.store.graphics.insertGraphic(record, files);
  if (!stored.created && stored.graphic.sha256 !== sha256) {
    const key = `${manifest.id}@${record.version}`;
    throw new AppError(
      'conflict',
      `The workspace holds ${key} already, with other files: give the new files another version, or delete ${stored.graphic.id} first.`,
      { extra: { graphic: stored.graphic.id } },
    );
  }
  return stored;
}

function fileOf(path: string, data: Uint8Array): GraphicFile & { data: Uint8Array } {
  const sha256 = createHash('sha256').update(data).digest('hex');
  return { path, type: fileType(path), sha256, bytes: data.byteLength, data };
}

/** Over the paths and hashes, in path order: the same package, wherever it came from, has the same hash. */
function packageHash(files: readonly GraphicFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.path}\u0000${f.sha256}\n`);
  return hash.digest('hex');
}

export const listGraphics: WorkspaceOperation<{ limit: number; cursor?: string | undefined }, Page<GraphicView>> = {
  ...read,
  name: 'graphics.list',
  input: z.strictObject(PageQuery),
  async run({ services, caller }, { limit, cursor }) {
    const found = await services.store.graphics.listGraphics(caller.principal.orgId, {
      limit: limit + 1,
      after: cursor,
    });
    return page(
      found.map((g) => graphicView(g, services.baseUrl())),
      limit,
    );
  },
};

const GraphicRef = z.strictObject({ graphicId: ResourceId });

export const getGraphic: WorkspaceOperation<{ graphicId: string }, GraphicView> = {
  ...read,
  name: 'graphics.get',
  input: GraphicRef,
  run: async (ctx, { graphicId }) => graphicView(await findGraphic(ctx, graphicId), ctx.services.baseUrl()),
};

export const deleteGraphic: WorkspaceOperation<{ graphicId: string }, void> = {
  ...write,
  name: 'graphics.delete',
  input: GraphicRef,
  async run(ctx, { graphicId }) {
    const graphic = await findGraphic(ctx, graphicId);
    const uses = await scenesUsingGraphic(ctx.services, graphic);
    if (uses.length > 0) {
      const names = uses.map((u) => `"${u.name}" (${u.id})`).join(', ');
      throw new AppError('conflict', `The graphic is in use by ${uses.length === 1 ? 'scene' : 'scenes'} ${names}.`, {
        extra: { scenes: uses },
      });
    }
    await ctx.services.store.graphics.deleteGraphic(graphic.id);
  },
};

/** The graphic, when it is the caller's workspace's; the same 404 otherwise. */
export async function findGraphic({ services, caller }: OperationContext, graphicId: string): Promise<GraphicRecord> {
  const graphic = await services.store.graphics.getGraphic(graphicId);
  if (!graphic || graphic.orgId !== caller.principal.orgId) {
    throw new AppError('not_found', `No graphic ${graphicId}.`);
  }
  return graphic;
}
