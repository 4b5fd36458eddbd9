/**
 * Where the page loads an image or a font from. An asset of the library (its path `/assets/{sha256}.{ext}`, or any
 * URL with that path, on whatever host it was written with: @onair/protocol, assetRef) is loaded from the server that
 * served this page, with the page's channel and output token appended: the server lets an output token of the asset's
 * workspace read it, so nothing needs cookies or the internet, and a scene restored from a backup onto another server
 * still draws. Other http(s) URLs are loaded as they are.
 */
import { assetRef } from '@onair/protocol';

let access: { origin: string; query: string } = { origin: '', query: '' };

/** Set once at start from the page's own URL (page-params.ts). */
export function configureAssetAccess(origin: string, channelId: string, token: string | null): void {
  const query = token === null ? '' : `?${new URLSearchParams({ channel: channelId, token }).toString()}`;
  access = { origin, query };
}

/** The URL an asset of the library is loaded from: this page's server, with its output token. */
export function assetUrl(path: string): string {
  return `${access.origin}${path}${access.query}`;
}

/** The URL to draw `src` from, or null when it is neither an asset of the library nor an http(s) URL. */
export function imageUrl(src: string): string | null {
  const ref = assetRef(src);
  if (ref) return assetUrl(ref.path);
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? src : null;
}
