/**
 * Online backup of the database while a server runs on it (`onair backup <file>`, docs: README "Backups").
 *
 * It runs in its own process, opens `onair.db` read-only and does not take the data-directory lock
 * (./data-dir-lock.ts): the server keeps running. SQLite's backup API restarts a copy whenever another
 * connection writes the source between two steps, and the server writes up to 60 times a second, so the
 * copy is made in one step: one read transaction, one consistent snapshot (WAL mode lets the server go on
 * writing meanwhile). Everything committed before that snapshot, which includes every acknowledged write,
 * is in the copy.
 *
 * The copy is written under a temporary name beside the target, turned into a single self-contained file
 * (rollback journal instead of WAL), checked, synced, and only then renamed into place. It is 0600 from the
 * start, whatever the umask: it holds what the data directory does (./data-dir-modes.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createPrivateFile } from './data-dir-modes.js';
import { MIGRATIONS } from './migrations.js';

export const DB_FILE = 'onair.db';

/** The largest step better-sqlite3 accepts: every page of the database in one step. */
const ALL_PAGES = 0x7fffffff;

/** A backup or restore refused or failed for a reason the user can act on; the message says which. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupOptions {
  /** Replace `target` if it exists. */
  force: boolean;
}

export interface BackupResult {
  file: string;
  bytes: number;
  /** When the snapshot was taken: the copy holds every write committed before it. */
  takenAt: Date;
  durationMs: number;
}

export async function backupDatabase(dataDir: string, target: string, options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const source = path.join(dataDir, DB_FILE);
  const file = path.resolve(target);
  checkBackupTarget(source, file, options.force);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    createPrivateFile(temp);
    const takenAt = await copyInOneStep(source, temp);
    verifyCopy(temp, `the copy of ${source}`);
    fsyncPath(temp);
    if (!options.force && fs.existsSync(file)) throw exists(file);
    fs.renameSync(temp, file);
    fsyncPath(path.dirname(file));
    return { file, bytes: fs.statSync(file).size, takenAt, durationMs: performance.now() - started };
  } finally {
    removeDatabase(temp);
  }
}

/** A database file with whatever SQLite may have left beside it; for our own temporary copies. */
export function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

function checkBackupTarget(source: string, file: string, force: boolean): void {
  if (!fs.existsSync(source)) {
    throw new BackupError(`there is no database at ${source}: is ONAIR_DATA_DIR right?`);
  }
  if (path.dirname(file) === path.dirname(source)) {
    // A backup beside the database is lost with it, and could take the name of one of its files.
    throw new BackupError(`write the backup outside the data directory ${path.dirname(source)}`);
  }
  if (!fs.existsSync(path.dirname(file))) throw new BackupError(`the directory ${path.dirname(file)} does not exist`);
  if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new BackupError(`${file} is a directory: give the backup's file name, such as ${path.join(file, DB_FILE)}`);
  }
  if (!force && fs.existsSync(file)) throw exists(file);
}

function exists(file: string): BackupError {
  return new BackupError(`${file} already exists; pass --force to replace it`);
}

/** Returns when the snapshot was taken. */
async function copyInOneStep(source: string, temp: string): Promise<Date> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  let takenAt = new Date();
  try {
    db.pragma('busy_timeout = 5000');
    // better-sqlite3 asks how many pages the next step copies after a first step that copies none.
    await db.backup(temp, {
      progress: () => {
        takenAt = new Date();
        return ALL_PAGES;
      },
    });
  } finally {
    db.close();
  }
  return takenAt;
}

/**
 * Makes a fresh copy a single self-contained file (rollback journal: nothing needed beside it), then checks
 * it is a sound onair database this version can run: integrity_check passes, it has the migrations table,
 * and no migration newer than this version knows. Returns its schema version.
 */
export function verifyCopy(file: string, label: string): number {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    throw new BackupError(`cannot open ${label}: ${(err as Error).message}`);
  }
  try {
    db.pragma('journal_mode = DELETE');
    return checkContents(db, label);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${label} is not a usable onair database: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

function checkContents(db: Database.Database, label: string): number {
  const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  if (problems.length !== 1 || problems[0]?.integrity_check !== 'ok') {
    const first = problems.slice(0, 3).map((p) => p.integrity_check);
    throw new BackupError(`${label} failed SQLite's integrity check: ${first.join('; ')}`);
  }
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) throw new BackupError(`${label} is not an onair database (it has no schema_migrations table)`);
  const { version } = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  if ((version ?? 0) > known) {
    throw new BackupError(`${label} was written by a newer onair (schema ${version}; this one knows up to ${known})`);
  }
  return version ?? 0;
}

/** fsync a file or a directory (a rename is durable once its directory is synced). */
export function fsyncPath(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } catch (err) {
    // Some platforms refuse to sync a directory; the data itself was synced before the rename.
    if (!fs.statSync(file).isDirectory()) throw err;
  } finally {
    fs.closeSync(fd);
  }
}
