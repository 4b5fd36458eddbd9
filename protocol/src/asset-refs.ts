/**
 * How a scene names a file of its workspace's asset library (docs/assets.md): by the path the server serves it at,
 * `/assets/{sha256}.{ext}`, written bare or as an http(s) URL on whatever host. The hash names the file, so the same
 * reference works on every server that holds it (another node, a restored backup). One reading shared by the server
 * (what an `asset` input and a font family may hold), the output page (what it loads from its own server) and the
 * dashboard.
 */

/** The path of an asset; the first group is its SHA-256, the second its extension. */
export const ASSET_PATH = /^\/assets\/([0-9a-f]{64})\.([a-z0-9]{2,5})$/;

/** The extensions of the library's images (PNG, JPEG, GIF, WebP, SVG) and of its fonts (WOFF2). */
export const IMAGE_ASSET_EXTENSIONS: readonly string[] = ['png', 'jpg', 'gif', 'webp', 'svg'];
export const FONT_ASSET_EXTENSION = 'woff2';

/** An asset a string names. */
export interface AssetRef {
  sha256: string;
  ext: string;
  /** `/assets/{sha256}.{ext}`: where any server that holds it serves it. */
  path: string;
}

/**
 * The asset `value` names: the path alone, or an http(s) URL whose path it is (no query, no fragment, no user name);
 * null for anything else.
 */
export function assetRef(value: string): AssetRef | null {
  const path = value.startsWith('/') ? value : urlPath(value);
  const match = path === null ? null : ASSET_PATH.exec(path);
  return match ? { sha256: match[1] as string, ext: match[2] as string, path: match[0] } : null;
}

/** An absolute URL written plainly: scheme, host (no user name), then the path and nothing after it. */
const PLAIN_URL = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#@\\\s]+(\/[^?#\\\s]*)$/;

function urlPath(value: string): string | null {
  const path = PLAIN_URL.exec(value)?.[1];
  if (path === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  // The path as written, not as the URL parser resolves it: `/x/../assets/…` and escapes name nothing.
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === path ? path : null;
}

/** The image of the library `value` names, or null. */
export function imageAssetRef(value: string): AssetRef | null {
  const ref = assetRef(value);
  return ref && IMAGE_ASSET_EXTENSIONS.includes(ref.ext) ? ref : null;
}

/** The font of the library a `fontFamily` names, or null (a bundled family, or anything else). */
export function fontAssetRef(family: string): AssetRef | null {
  const ref = assetRef(family);
  return ref && ref.ext === FONT_ASSET_EXTENSION ? ref : null;
}

/** What an `asset` input holds, said as its errors say it. */
export const ASSET_INPUT_RULE =
  'must be an image of the asset library: its path (/assets/{sha256}.png, .jpg, .gif, .webp or .svg) or its URL';

/** The family name a page registers a font of the library under: what CSS calls it. */
export function assetFontFamily(ref: Pick<AssetRef, 'sha256'>): string {
  return `onair-asset-${ref.sha256}`;
}
