/**
 * The files of an uploaded OGraf package (docs/ograf.md, "Importing"): a zip, read with fflate, or a set of files
 * (multipart parts named by their relative paths). Every path is checked before anything is read: no absolute path,
 * no `..`, no backslash or control character. A zip bomb is refused by its own headers: the sizes it declares are what
 * fflate allocates and inflates into (a stored entry's compressed size is what it copies: the larger counts), and the
 * files and their total are capped before any is inflated.
 */
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { AppError } from '../errors.js';

export interface PackageLimits {
  /** The most files a package may hold. */
  maxFiles: number;
  /** The most bytes its files may take once unzipped, together. */
  maxUnzippedBytes: number;
}

/** Relative path (`/`-separated, no leading `./`) → bytes. */
export type PackageFiles = Map<string, Uint8Array>;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];
/** Folders some zip tools add beside the real content (macOS resource forks). */
const IGNORED = /^(__MACOSX\/|.*\/?\.DS_Store$)/;
const MAX_PATH = 500;

export function isZip(data: Uint8Array): boolean {
  const starts = (magic: number[]) => magic.every((b, i) => data[i] === b);
  return starts(ZIP_MAGIC) || starts(EMPTY_ZIP_MAGIC);
}

/** The files of a zip, every path checked and the sizes capped; 422 invalid_graphic naming what is wrong. */
export function unzipPackage(data: Uint8Array, limits: PackageLimits): PackageFiles {
  let count = 0;
  let total = 0;
  const seen = new Set<string>();
  const filter = (file: UnzipFileInfo): boolean => {
    if (file.name.endsWith('/') || IGNORED.test(file.name)) return false;
    checkPath(file.name);
    checkOnce(seen, file.name);
    // fflate answers the files as an object's keys, where this one name would be lost.
    if (file.name === '__proto__') throw invalid(file.name, 'a file is not named __proto__');
    count += 1;
    // A stored entry is copied by its compressed size, whatever it declares unzipped (and entries may share bytes).
    total += Math.max(file.originalSize, file.size);
    assertWithin(count, total, limits);
    return true;
  };
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(data, { filter });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid('(zip)', `the zip could not be read: ${(err as Error).message}`);
  }
  const files: PackageFiles = new Map();
  for (const [name, bytes] of Object.entries(unzipped)) files.set(normalised(name), bytes);
  return files;
}

/** A set of uploaded files, each named by its path relative to the package. */
export function filesPackage(parts: { name: string; data: Uint8Array }[], limits: PackageLimits): PackageFiles {
  const files: PackageFiles = new Map();
  let total = 0;
  const seen = new Set<string>();
  for (const part of parts) {
    checkPath(part.name);
    checkOnce(seen, part.name);
    total += part.data.byteLength;
    assertWithin(files.size + 1, total, limits);
    files.set(normalised(part.name), part.data);
  }
  return files;
}

/** Refuses a second file of the same path (`a/b.js` and `a/./b.js` are one): one of them would be lost. */
function checkOnce(seen: Set<string>, name: string): void {
  const path = normalised(name);
  if (seen.has(path)) throw invalid(name, 'a path appears once in a package');
  seen.add(path);
}

function assertWithin(count: number, total: number, limits: PackageLimits): void {
  if (count > limits.maxFiles) {
    throw new AppError('payload_too_large', `A graphic package holds at most ${limits.maxFiles} files.`, {
      extra: { limit: limits.maxFiles },
    });
  }
  if (total > limits.maxUnzippedBytes) {
    throw new AppError(
      'payload_too_large',
      `A graphic package's files take at most ${limits.maxUnzippedBytes} bytes unzipped (4 × ONAIR_GRAPHIC_UPLOAD_MAX_BYTES).`,
      { extra: { limit: limits.maxUnzippedBytes, setting: 'ONAIR_GRAPHIC_UPLOAD_MAX_BYTES' } },
    );
  }
}

/** Refuses a path that could name something outside the package (422 invalid_graphic naming it). */
export function checkPath(name: string): void {
  const why = pathProblem(name);
  if (why) throw invalid(name.slice(0, MAX_PATH), why);
}

function pathProblem(name: string): string | null {
  if (name.length === 0 || name.length > MAX_PATH) return `a path is 1–${MAX_PATH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return 'a path has no backslash or control character';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'a path is relative to the package, never absolute';
  // `https:x/y.js` as `main` would be imported from another server: the package is what runs.
  if (name.split('/')[0]!.includes(':')) return 'a path never begins as a URL would (a ":" in its first folder)';
  const segments = normalised(name).split('/');
  if (segments.some((s) => s === '..')) return 'a path never climbs out with ..';
  if (segments.some((s) => s === '')) return 'a path has no empty segment';
  return null;
}

function normalised(name: string): string {
  return name
    .split('/')
    .filter((s) => s !== '.')
    .join('/');
}

export function invalid(path: string, message: string): AppError {
  return new AppError('invalid_graphic', `${path}: ${message}`, { errors: [{ path, message }] });
}
