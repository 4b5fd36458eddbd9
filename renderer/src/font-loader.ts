/**
 * Registers the bundled typefaces with the page (FontFace objects: the @font-face rules live in the
 * bundle, so the page needs no stylesheet and its style-src policy stays as it is) and loads the faces a
 * scene needs before the scene is first drawn, so no first frame shows a fallback font.
 */
import type { SceneView } from '@onair/protocol';
import type { FontFile } from './font-files.js';
import { fontSpecs } from './font-needs.js';

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

  /** Faces of families the bundle lacks are the browser's business: nothing to wait for. */
  const needed = (scene: SceneView) =>
    fontSpecs(scene.definition).filter((spec) => families.has(/"(.*)"$/.exec(spec)?.[1] ?? ''));

  return {
    ready: (scene) => needed(scene).every((spec) => settled.has(spec)),
    load: (scene) => needed(scene).forEach(loadSpec),
  };
}
