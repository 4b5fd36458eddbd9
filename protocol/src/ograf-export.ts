/**
 * A scene exported as an OGraf graphic package (docs/ograf.md, "Export"): the file names inside the package and the
 * scene file the graphic's module reads next to itself. The server writes the package; the module (renderer/src,
 * ograf-graphic.ts) draws it in any OGraf renderer, with no onair server.
 */
import type { SceneView } from './scene.js';

/** The module every exported package carries: its default export is the graphic's web component. */
export const OGRAF_MODULE_FILE = 'graphic.mjs';
/** The scene the module draws, beside it. */
export const OGRAF_SCENE_FILE = 'scene.json';
/** Files of the asset library the scene names, as `assets/{sha256}.{ext}`: the library's path without its `/`. */
export const OGRAF_ASSETS_DIR = 'assets';

export interface OgrafScenePackage {
  format: 1;
  /** The stage the scene was designed on, in pixels: the module scales it to the graphic's element. */
  width: number;
  height: number;
  scene: SceneView;
}
