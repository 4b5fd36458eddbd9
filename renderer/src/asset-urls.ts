/**
 * Where the page loads an image from. An asset of the library (any URL whose path is `/assets/{sha256}.{ext}`, on
 * whatever host it was written with) is loaded from the server that served this page, with the page's channel and
 * output token appended: the server lets an output token of the asset's workspace read it, so nothing needs cookies or
 * the internet, and a scene restored from a backup onto another server still draws. Other http(s) URLs are loaded as
 * they are.
 */

const ASSET_PATH = /^\/assets\/[0-9a-f]{64}\.[a-z0-9]{2,5}$/;

let access: { origin: string; query: string } = { origin: '', query: '' };

/** Set once at start from the page's own URL (page-params.ts). */
export function configureAssetAccess(origin: string, channelId: string, token: string | null): void {
  const query = token === null ? '' : `?${new URLSearchParams({ channel: channelId, token }).toString()}`;
  access = { origin, query };
}

/** The URL to draw `src` from, or null when it is no http(s) URL. */
export function imageUrl(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (access.origin && ASSET_PATH.test(url.pathname)) return `${access.origin}${url.pathname}${access.query}`;
  return src;
}
