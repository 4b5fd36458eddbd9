/**
 * The accounts of a data directory, opened from another process beside the live server (for
 * `onair reset-password`). Like a backup it does not take the data-directory lock: SQLite lets two
 * processes write one WAL database, one short transaction at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';
import { SqliteAccounts } from './sqlite-accounts.js';

/** The database is missing or older than this onair: the message says what to do. */
export class LiveAccountsError extends Error {
  override name = 'LiveAccountsError';
}

export interface LiveAccounts {
  accounts: SqliteAccounts;
  close(): void;
}

export function openLiveAccounts(dataDir: string): LiveAccounts {
  const file = path.join(dataDir, 'onair.db');
  if (!fs.existsSync(file)) {
    throw new LiveAccountsError(`there is no database at ${file}: is ONAIR_DATA_DIR right?`);
  }
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { version } = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
      version: number | null;
    };
    const latest = MIGRATIONS.at(-1)?.version ?? 0;
    if (version !== latest) {
      throw new LiveAccountsError(
        `the database is at schema version ${version ?? 0}, this onair expects ${latest}: start this onair once first.`,
      );
    }
    return { accounts: new SqliteAccounts(db), close: () => db.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}
