/**
 * Small static files read once into memory and answered with explicit cache headers.
 *
 * A directory is listed once, when its routes are built: a name is looked up in that listing, so a
 * request for a file that does not exist is answered without touching the disk and without being
 * remembered. Nothing here grows with the names clients ask for (a cache of misses did: every unique
 * missing name stayed in memory for good).
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

/** The regular files of one directory, as listed when it is opened; contents are read on first use. */
export class StaticDir {
  /** Listed name → its contents once read (null: it could not be read). Never more keys than the listing. */
  private readonly files = new Map<string, StaticFile | null | undefined>();

  /** Lists `dir` (a missing directory lists as empty); `only`, when given, keeps just those names. */
  constructor(
    readonly dir: string,
    only?: Iterable<string>,
  ) {
    const wanted = only ? new Set(only) : null;
    for (const name of listFiles(dir)) if (!wanted || wanted.has(name)) this.files.set(name, undefined);
  }

  /** The file called `name`, or null when the listing has no such file. */
  get(name: string): StaticFile | null {
    let file = this.files.get(name);
    if (file === undefined) {
      if (!this.files.has(name)) return null;
      file = readFile(path.join(this.dir, name));
      this.files.set(name, file);
    }
    return file;
  }
}

function listFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Null when the file went away since the listing (a rebuild, a redeploy): answered as missing. */
function readFile(file: string): StaticFile | null {
  try {
    return {
      body: new Uint8Array(fs.readFileSync(file)),
      type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** `headers` adds to the file's own (a page's security headers); no file is ever sniffed as another type. */
export function fileResponse(
  file: StaticFile,
  cacheControl: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(file.body, {
    headers: {
      ...headers,
      'Content-Type': file.type,
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
