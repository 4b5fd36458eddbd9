/**
 * Every write that can name a file of the asset library goes through assertAssetsHeld: an `asset` input's value set
 * by a patch (REST, WebSocket, an incoming hook), carried by an instance or a rundown item, or scheduled; an `asset`
 * input's default and a text's font in a saved scene. The engine has already checked what the value says (an image's
 * path or URL, engine/input-registry.ts); here the store says whether the workspace holds the file. Entry points
 * never check this themselves.
 */
import { fontAssetRef, imageAssetRef, type AssetRef, type SceneDefinition } from '@onair/protocol';
import type { InputRegistry } from '../engine/index.js';
import { AppError } from '../errors.js';
import { assetPath } from './assets.js';
import type { Services } from './services.js';

/** A value of the request that names an asset, and where in the request it is (the path its errors name). */
export interface NamedAsset {
  at: string;
  ref: AssetRef;
}

/**
 * The `asset` inputs among `values` (a patch, or an instance's own values: the names are the channel's inputs, one
 * type each). `prefix` is where the values sit in the request (`values` for an item's).
 */
export function assetValues(
  registry: InputRegistry,
  values: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown> | undefined,
  prefix?: string,
): NamedAsset[] {
  if (values === undefined) return [];
  const entries = isMap(values) ? [...values.entries()] : Object.entries(values);
  const named: NamedAsset[] = [];
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || registry.get(name)?.type !== 'asset') continue;
    const ref = imageAssetRef(value);
    if (ref) named.push({ at: prefix === undefined ? name : `${prefix}.${name}`, ref });
  }
  return named;
}

function isMap(v: object): v is ReadonlyMap<string, unknown> {
  return v instanceof Map;
}

/** The assets a definition names for itself: `asset` inputs' defaults and text and clock elements' fonts. */
export function definitionAssets(definition: SceneDefinition, prefix = 'definition'): NamedAsset[] {
  const named: NamedAsset[] = [];
  definition.inputs.forEach((input, i) => {
    const ref = input.type === 'asset' && typeof input.default === 'string' ? imageAssetRef(input.default) : null;
    if (ref) named.push({ at: `${prefix}.inputs.${i}.default`, ref });
  });
  walk(definition.elements, `${prefix}.elements`, named);
  return named;
}

function walk(elements: SceneDefinition['elements'], at: string, named: NamedAsset[]): void {
  elements.forEach((el, i) => {
    if ((el.type === 'text' || el.type === 'clock' || el.type === 'crawl') && el.fontFamily !== undefined) {
      const ref = fontAssetRef(el.fontFamily);
      if (ref) named.push({ at: `${at}.${i}.fontFamily`, ref });
    }
    if (el.type === 'group' || el.type === 'rows') walk(el.children, `${at}.${i}.children`, named);
  });
}

/**
 * 422 unknown_asset naming every value whose file the workspace `orgId` does not hold (docs/assets.md). The file is
 * the one its path names: the hash and the extension of its type.
 */
export async function assertAssetsHeld(
  services: Pick<Services, 'store'>,
  orgId: string,
  named: readonly NamedAsset[],
): Promise<void> {
  if (named.length === 0) return;
  const held = new Map<string, boolean>();
  for (const { ref } of named) {
    if (held.has(ref.path)) continue;
    const found = await services.store.assets.findByHash(ref.sha256);
    held.set(
      ref.path,
      found.some((a) => a.orgId === orgId && assetPath(a) === ref.path),
    );
  }
  const missing = named.filter(({ ref }) => held.get(ref.path) !== true);
  if (missing.length === 0) return;
  const first = missing[0]!;
  throw new AppError(
    'unknown_asset',
    `"${first.at}" names ${first.ref.path}, which is not in this workspace's asset library: upload the file ` +
      '(POST /v1/assets) and use the path or URL it answers.',
    {
      errors: missing.map(({ at }) => ({ path: at, message: "not in the workspace's asset library" })),
      extra: { assets: [...new Set(missing.map(({ ref }) => ref.path))] },
    },
  );
}
