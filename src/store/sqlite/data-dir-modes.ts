/**
 * Who may read the data directory (docs/deploy.md, "File permissions"). It holds password hashes, emails,
 * hashed key and session secrets, and the key that seals webhook secrets: the directory is 0700 and every file
 * onair keeps there is 0600, whatever the umask. SQLite creates a database file 0644 (less the umask) and its
 * -wal and -shm with the database file's mode, so the database file is made 0600 before its WAL exists.
 *
 * An existing directory or file with looser modes (from an older onair, or a permissive umask) is tightened at
 * start, and reported so that the server can say so in its log. A directory that is not the process user's,
 * or that has the sticky bit (a shared one such as /tmp), is left as it is and reported as a problem.
 *
 * Modes are changed by path, never through a descriptor of our own: closing any descriptor of a file drops
 * every POSIX lock the process holds on it, and SQLite's locks are POSIX locks.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The sticky bit (not in Node's fs.constants). */
const STICKY = 0o1000;

/** Every file onair keeps in the data directory. */
export const DATA_FILES = [
  'onair.db',
  'onair.db-wal',
  'onair.db-shm',
  'onair.db-journal',
  'onair.lock',
  'onair.pid',
  'secret.key',
] as const;

export interface ModeReport {
  /** What was made private, as `<path> 0755 → 0700`. */
  tightened: string[];
  /** What could not be, and why. */
  problems: string[];
}

/** Creates the data directory (0700, and any missing parent) if it is missing. */
export function createDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Makes the data directory and the files onair keeps in it private. */
export function makeDataDirPrivate(dataDir: string): ModeReport {
  const report: ModeReport = { tightened: [], problems: [] };
  tightenDir(dataDir, report);
  for (const name of DATA_FILES) makePrivate(path.join(dataDir, name), report);
  return report;
}

/**
 * Makes a file 0600 (exactly, whatever the umask) if it exists; reports a change from a looser mode. Without a
 * report, a file that cannot be changed (another user's) throws; with one, it is reported and left.
 */
export function makePrivate(file: string, report?: ModeReport): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || (stat.mode & 0o777) === PRIVATE_FILE_MODE) return;
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if (!report) throw err;
    report.problems.push(`${file} is ${octal(stat.mode)} and cannot be changed (${(err as Error).message})`);
    return;
  }
  if (stat.mode & 0o077) report?.tightened.push(`${file} ${octal(stat.mode)} → ${octal(PRIVATE_FILE_MODE)}`);
}

/**
 * Creates `file` empty and 0600 (exactly, whatever the umask), replacing what was there; for new files of our own,
 * such as a backup's temporary copy, which SQLite then fills without changing the mode.
 */
export function createPrivateFile(file: string): void {
  const fd = fs.openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

function tightenDir(dir: string, report: ModeReport): void {
  const stat = fs.statSync(dir);
  if ((stat.mode & 0o077) === 0) return;
  const loose = `${dir} is ${octal(stat.mode)}: other users can look into it`;
  if (stat.mode & STICKY) {
    report.problems.push(`${loose}; it is a shared directory (sticky bit), so onair leaves it as it is`);
    return;
  }
  if (process.getuid && stat.uid !== process.getuid()) {
    report.problems.push(`${loose}; it belongs to another user (uid ${stat.uid}), so onair leaves it as it is`);
    return;
  }
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  report.tightened.push(`${dir} ${octal(stat.mode)} → ${octal(PRIVATE_DIR_MODE)}`);
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}
