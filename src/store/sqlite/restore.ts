/**
 * Puts a backup in place of the data directory's database (`onair restore <file>`, docs: README "Backups").
 *
 * It takes the data-directory lock (./data-dir-lock.ts) for the whole swap, so it refuses while a server
 * runs there and no server can start halfway through. The backup is copied into the data directory and
 * checked there before anything else is touched. The current `onair.db` goes aside together with its
 * `-wal` and `-shm` files, into one folder where they still form a whole database: nothing is deleted.
 * Leaving an old `-wal` beside the restored file would be worse than losing it: SQLite would apply that
 * log to a database it was never written for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BackupError, DB_FILE, fsyncPath, removeDatabase, verifyCopy } from './backup.js';
import { DataDirLock } from './data-dir-lock.js';
import { createDataDir, makeDataDirPrivate, makePrivate, PRIVATE_DIR_MODE, type ModeReport } from './data-dir-modes.js';

/** The files of a database in WAL mode (a -journal only if something opened it in rollback mode). */
const DB_FILES = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, `${DB_FILE}-journal`];

export interface RestoreResult {
  /** The database now in place. */
  file: string;
  schemaVersion: number;
  /** The folder holding the database that was there before; null when there was none. */
  movedAside: string | null;
  /** The data directory's modes made private on the way (./data-dir-modes.ts). */
  modes: ModeReport;
}

export function restoreDatabase(dataDir: string, backup: string): RestoreResult {
  const source = path.resolve(backup);
  checkBackupFile(source);
  createDataDir(dataDir);
  const lock = DataDirLock.acquire(dataDir);
  const temp = path.join(dataDir, `${DB_FILE}.${process.pid}.restoring`);
  try {
    const modes = makeDataDirPrivate(dataDir);
    // The copy takes the backup's mode; the restored database is the server's, 0600 like the rest.
    fs.copyFileSync(source, temp);
    makePrivate(temp);
    const schemaVersion = verifyCopy(temp, source);
    fsyncPath(temp);
    const movedAside = moveAside(dataDir);
    const file = path.join(dataDir, DB_FILE);
    fs.renameSync(temp, file);
    fsyncPath(dataDir);
    return { file, schemaVersion, movedAside, modes };
  } finally {
    removeDatabase(temp);
    lock.release();
  }
}

function checkBackupFile(file: string): void {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new BackupError(`there is no file ${file}`);
  // A live database's latest writes may be only in its -wal: copying the main file alone would lose them.
  if ((fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) {
    throw new BackupError(
      `${file} has a -wal file beside it: it looks like a live database, not a backup. ` +
        'Take a backup of it with `onair backup` and restore that.',
    );
  }
}

/** Moves the current database files into `pre-restore-<time>/` in the data directory; null if there were none. */
function moveAside(dataDir: string): string | null {
  const present = DB_FILES.filter((name) => fs.existsSync(path.join(dataDir, name)));
  if (present.length === 0) return null;
  const folder = path.join(dataDir, `pre-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
  for (const name of present) {
    fs.renameSync(path.join(dataDir, name), path.join(folder, name));
    makePrivate(path.join(folder, name));
  }
  fsyncPath(folder);
  return folder;
}
