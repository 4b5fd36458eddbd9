/**
 * The built renderer (renderer/dist, made by `npm run build:renderer`): the HTML shell and its
 * content-hashed script.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface RendererAssets {
  dir: string;
  /** The shell HTML, or null when the renderer has not been built. */
  html: string | null;
}

export function loadRendererAssets(dir: string): RendererAssets {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) return { dir, html: null };
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { html: string };
  return { dir, html: fs.readFileSync(path.join(dir, manifest.html), 'utf8') };
}
