/**
 * The built renderer (renderer/dist, made by `npm run build:renderer`): the HTML shell, its content-hashed
 * script, and the hashes of the shell's inline loader and style for the page's Content-Security-Policy.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { InlineHashes } from '../../http/page-headers.js';

export interface RendererAssets {
  /** Served under /render/assets/ (listed once, when the routes are built). */
  dir: string;
  /** The shell HTML, or null when the renderer has not been built. */
  html: string | null;
  /** CSP sources for the shell's inline `<script>` and `<style>` elements; none when absent. */
  inline?: InlineHashes;
}

const Manifest = z.object({ html: z.string() });

export function loadRendererAssets(dir: string): RendererAssets {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) return { dir, html: null };
  const manifest = Manifest.parse(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
  const html = fs.readFileSync(path.join(dir, manifest.html), 'utf8');
  return { dir, html, inline: inlineHashes(html) };
}

/**
 * Hashes of the shell's inline elements, taken from the very HTML that is served, so the policy can never
 * disagree with the page (the loader must stay inline: it is what retries when the script fails to load).
 */
export function inlineHashes(html: string): InlineHashes {
  return { scripts: hashesOf(html, 'script'), styles: hashesOf(html, 'style') };
}

function hashesOf(html: string, tag: 'script' | 'style'): string[] {
  // Only attribute-less elements are inline code; <script src=…> loads a file.
  const inline = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');
  return [...html.matchAll(inline)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '', 'utf8')
        .digest('base64')}'`,
  );
}
