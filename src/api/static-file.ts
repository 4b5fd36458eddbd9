/**
 * Small static files read once into memory and answered with explicit cache headers.
 */
import fs from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';

export interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

const cache = new Map<string, StaticFile | null>();

/** The file, or null when it does not exist (remembered either way). */
export function readStatic(file: string): StaticFile | null {
  let entry = cache.get(file);
  if (entry === undefined) {
    entry =
      fs.existsSync(file) && fs.statSync(file).isFile()
        ? { body: new Uint8Array(fs.readFileSync(file)), type: TYPES[path.extname(file)] ?? 'application/octet-stream' }
        : null;
    cache.set(file, entry);
  }
  return entry;
}

export function fileResponse(file: StaticFile, cacheControl: string): Response {
  return new Response(file.body, { headers: { 'Content-Type': file.type, 'Cache-Control': cacheControl } });
}

/** Resolves `name` inside `dir`, refusing anything that escapes it. */
export function safeJoin(dir: string, name: string): string | null {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) return null;
  return path.join(dir, name);
}
