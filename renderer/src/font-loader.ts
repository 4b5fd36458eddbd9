/**
 * Registers the bundled typefaces with the page (FontFace objects: the @font-face rules live in the
 * bundle, so the page needs no stylesheet and its style-src policy stays as it is), and each font of the asset
 * library a scene names the first time one does (loaded from this page's server with its output token, as images
 * are: asset-urls.ts). Loads the faces a scene needs before the scene is first drawn, so no first frame shows a
 * fallback font.
 */
import { assetFontFamily, type AssetRef, type SceneView } from '@onair/protocol';
import { assetUrl } from './asset-urls.js';
import type { FontFile } from './font-files.js';
import { fontSpecs, libraryFonts } from './font-needs.js';
import { watchFont } from './load-errors.js';

export interface FontLoader {
  /** True once every face the scene uses has loaded (or failed, or timed out: then the fallback is drawn). */
  ready(scene: SceneView): boolean;
  /** Starts loading what the scene uses, if not already; `onSettled` runs when a load settles. */
  load(scene: SceneView): void;
}

/** A face that cannot be fetched must not keep its scene off air for good. */
const LOAD_TIMEOUT_MS = 3_000;

export function createFontLoader(doc: Document, files: readonly FontFile[], onSettled: () => void): FontLoader {
  const families = new Set<string>(files.map((f) => f.family));
  for (const file of files) {
    const face = new FontFace(file.family, `url("${file.url}") format("woff2")`, {
      weight: String(file.weight),
      style: 'normal',
      display: 'block',
    });
    doc.fonts.add(face);
    watchFont(face, file.url);
  }
  const settled = new Set<string>();
  const loading = new Set<string>();

  function loadSpec(spec: string): void {
    if (settled.has(spec) || loading.has(spec)) return;
    loading.add(spec);
    const done = () => {
      clearTimeout(timer);
      if (!loading.delete(spec)) return;
      settled.add(spec);
      onSettled();
    };
    const timer = setTimeout(() => {
      console.warn(`onair: font ${spec} is taking too long; drawing with a fallback`);
      done();
    }, LOAD_TIMEOUT_MS);
    doc.fonts.load(spec).then(done, (err: unknown) => {
      console.warn(`onair: font ${spec} failed to load`, err);
      done();
    });
  }

  /** A font of the library, registered once: one file, which serves every weight (bolder ones synthesised). */
  function register(ref: AssetRef): void {
    const family = assetFontFamily(ref);
    if (families.has(family)) return;
    families.add(family);
    const url = assetUrl(ref.path);
    const face = new FontFace(family, `url("${url}") format("woff2")`, { display: 'block' });
    doc.fonts.add(face);
    watchFont(face, url);
  }

  /** Faces of families neither bundled nor in the library are the browser's business: nothing to wait for. */
  const needed = (scene: SceneView) => {
    const library = new Set(libraryFonts(scene.definition).map(assetFontFamily));
    return fontSpecs(scene.definition).filter((spec) => {
      const family = /"(.*)"$/.exec(spec)?.[1] ?? '';
      return families.has(family) || library.has(family);
    });
  };

  return {
    ready: (scene) => needed(scene).every((spec) => settled.has(spec)),
    load: (scene) => {
      libraryFonts(scene.definition).forEach(register);
      needed(scene).forEach(loadSpec);
    },
  };
}
