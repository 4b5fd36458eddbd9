/**
 * One onair per data directory. Two servers writing one database would each believe their own state and
 * overwrite the other's ticks; the second one must refuse to start instead.
 *
 * The lock is the kernel's advisory lock on a small file, `onair.lock`, taken through SQLite: a connection
 * in exclusive locking mode inside a transaction that is never committed keeps an EXCLUSIVE lock on it for
 * as long as it is open. The kernel drops the lock when the process dies, however it dies (kill -9, power
 * cut), so a crashed server never blocks a restart and no staleness timeout is needed. SQLite's unix VFS
 * also tracks locks per file within a process, so a second store in the same process is refused too.
 *
 * Nothing is ever written to `onair.lock` (it stays empty) and no journal is kept for it. Who holds the lock
 * is written beside it, to `onair.pid`, only to name that process in the error message.
 *
 * Do not open `onair.lock` with anything but this module: closing any descriptor of a file drops every
 * POSIX lock the process holds on it. Locks are advisory and local: on a network filesystem they may not
 * be honoured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';

export const LOCK_FILE = 'onair.lock';
export const HOLDER_FILE = 'onair.pid';

const Holder = z.object({ pid: z.number().int(), host: z.string(), startedAt: z.string() });
export type Holder = z.infer<typeof Holder>;

/** Another onair (or another store in this process) holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | null,
  ) {
    super(
      `the data directory ${dataDir} is in use by another onair (${describe(holder)}). ` +
        'Stop it first, or use another ONAIR_DATA_DIR.',
    );
    this.name = 'DataDirInUseError';
  }
}

export class DataDirLock {
  private constructor(
    private readonly db: Database.Database,
    readonly dataDir: string,
  ) {}

  /** Takes the data directory (which must exist) for this process, or throws DataDirInUseError at once. */
  static acquire(dataDir: string): DataDirLock {
    const db = new Database(path.join(dataDir, LOCK_FILE), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      db.close();
      if (isBusy(err)) throw new DataDirInUseError(dataDir, readHolder(dataDir));
      throw err;
    }
    try {
      writeHolder(dataDir);
    } catch (err) {
      // A full or read-only disk: the start fails, and gives the lock back.
      db.close();
      throw err;
    }
    return new DataDirLock(db, dataDir);
  }

  /** Gives the directory back; safe to call twice. */
  release(): void {
    if (!this.db.open) return;
    // The pid file goes first: while the lock is held, nobody else writes it. On a file system gone read-only it
    // stays: it only names a holder, and the next start writes its own.
    try {
      fs.rmSync(path.join(this.dataDir, HOLDER_FILE), { force: true });
    } catch {
      // left for the next start to overwrite
    }
    this.db.close();
  }
}

function isBusy(err: unknown): boolean {
  return err instanceof Database.SqliteError && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');
}

/** Written whole under a temporary name, then renamed: a reader never sees half of it. */
function writeHolder(dataDir: string): void {
  const holder: Holder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  const file = path.join(dataDir, HOLDER_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch (err) {
    // On a full disk, no empty temporary file is left behind by each start that fails.
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // a read-only file system, where it could not be made either
    }
    throw err;
  }
}

/** The holder as it described itself; null when it has not written its file yet or the file is damaged. */
export function readHolder(dataDir: string): Holder | null {
  try {
    const parsed = Holder.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function describe(holder: Holder | null): string {
  if (!holder) return `its ${HOLDER_FILE} is missing or unreadable`;
  return `pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt}`;
}
