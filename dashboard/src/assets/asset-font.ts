/**
 * Fonts of the library drawn in the dashboard (the Assets page's sample, the scene editor's font list): registered
 * once with the page under the family name the output page gives them (@onair/protocol, assetFontFamily), loaded
 * from this server with the session.
 */
import { assetFontFamily } from '@onair/protocol';
import { listAssets, type Asset } from './assets-api.js';

const registered = new Set<string>();

/** The CSS font-family that draws `asset`, registering it the first time. */
export function libraryFontCss(asset: Pick<Asset, 'sha256' | 'path'>): string {
  const family = assetFontFamily(asset);
  if (!registered.has(family)) {
    registered.add(family);
    // Loaded by the browser when text first uses it; a file that does not load leaves the fallback face.
    document.fonts.add(new FontFace(family, `url("${asset.path}") format("woff2")`));
  }
  return `"${family}", sans-serif`;
}

let recent: { at: number; fonts: Promise<Asset[]> } | null = null;
/** How long one list of the library's fonts serves every font field of the editor (each element has one). */
const FRESH_MS = 10_000;

/** The library's fonts, listed once for all the font fields on screen. */
export function libraryFonts(): Promise<Asset[]> {
  const now = Date.now();
  if (!recent || now - recent.at > FRESH_MS) {
    const fonts = listAssets().then((all) => all.filter((a) => a.kind === 'font'));
    recent = { at: now, fonts };
    // A failed list is not kept: the next field asks again.
    fonts.catch(() => {
      if (recent?.fonts === fonts) recent = null;
    });
  }
  return recent.fonts;
}
