/**
 * An exported scene's OGraf package (docs/ograf.md, "Export"), zipped: the manifest, the module built with the
 * renderer (renderer/dist/ograf: `npm run build:renderer`), the scene it draws, the bundled fonts of the families
 * the scene uses, the library files it names, and a thumbnail (a template's picture, or a sketch of the scene).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import {
  FONT_FAMILIES,
  forEachElement,
  OGRAF_MODULE_FILE,
  OGRAF_SCENE_FILE,
  type OgrafScenePackage,
  type SceneDefinition,
} from '@onair/protocol';
import { AppError } from '../errors.js';
import { exportManifest, type ExportedScene } from './export-manifest.js';
import { pngSize } from './png.js';
import { sceneThumbnail } from './scene-thumbnail.js';

export interface GraphicExport {
  scene: ExportedScene;
  /** The scene the module draws (scene.json): the definition as stored, library paths and all. */
  view: OgrafScenePackage['scene'];
  /** Library files the scene names, at their place in the package (`assets/{sha256}.{ext}`). */
  files: { file: string; data: Uint8Array }[];
  /** A template's picture among the renderer's (`template-<id>.png`); none: a sketch is drawn. */
  picture: string | null;
  /** The zip's name, without `.zip`. */
  fileStem: string;
}

const NOT_BUILT = 'The renderer is not built; run `npm run build:renderer` (npm start does it).';

/** The zip of `out`; `rendererDir` is renderer/dist. */
export async function graphicPackage(out: GraphicExport, rendererDir: string): Promise<Uint8Array> {
  const dir = path.join(rendererDir, 'ograf');
  const module = await readFile(path.join(dir, OGRAF_MODULE_FILE)).catch(() => null);
  if (!module) throw new AppError('unavailable', NOT_BUILT, { retryAfter: 5 });
  const thumbnail = await thumbnailOf(out, dir);
  const manifest = exportManifest(out.scene, { file: 'thumbnail.png', ...thumbnail.size });
  const pkg: OgrafScenePackage = { format: 1, width: out.scene.width, height: out.scene.height, scene: out.view };
  const files: Zippable = {
    [`${out.fileStem}.ograf.json`]: json(manifest),
    [OGRAF_MODULE_FILE]: module,
    [OGRAF_SCENE_FILE]: json(pkg),
    'thumbnail.png': [thumbnail.png, { level: 0 }],
  };
  for (const font of await fontFiles(dir, out.view.definition)) files[`fonts/${font.name}`] = [font.data, { level: 0 }];
  for (const { file, data } of out.files) files[file] = data;
  return zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

async function thumbnailOf(out: GraphicExport, dir: string) {
  const picture = out.picture ? await readFile(path.join(dir, 'thumbnails', out.picture)).catch(() => null) : null;
  const size = picture && pngSize(picture);
  if (picture && size) return { png: picture, size };
  const sketch = sceneThumbnail(out.view.definition, out.scene);
  return { png: sketch.png, size: { width: sketch.width, height: sketch.height } };
}

/** The bundled fonts the scene's text draws with: every weight of each family it names (Inter when none). */
async function fontFiles(dir: string, definition: SceneDefinition) {
  const families = new Set<string>();
  forEachElement(definition.elements, (el) => {
    if (el.type === 'text' || el.type === 'clock' || el.type === 'crawl') families.add(el.fontFamily ?? 'Inter');
  });
  const prefixes = FONT_FAMILIES.filter((f) => families.has(f)).map(
    (f) => `${f.toLowerCase().replace(/ /g, '-')}-latin-`,
  );
  const names = (await readdir(path.join(dir, 'fonts')).catch(() => [] as string[])).filter(
    (name) => name.endsWith('.woff2') && prefixes.some((p) => name.startsWith(p)),
  );
  return Promise.all(names.map(async (name) => ({ name, data: await readFile(path.join(dir, 'fonts', name)) })));
}
