/**
 * What the store does when the disk refuses a write: a full disk, a file system gone read-only, an I/O error.
 *
 * Every statement the SQLite store runs goes through `guardDatabase`, so whichever write meets the fault (a tick,
 * a channel created, a key's lastUsedAt, an idempotency claim, a webhook delivery settled) it fails the same way:
 * an AppError `unavailable` (503 with Retry-After, or an `error` reply on the WebSocket) that says what happened,
 * never a bare SQLite error (500). SQLite rolls the failed transaction back, so nothing of it was written. Reads
 * keep working: they need no room and no write access.
 *
 * The first such error puts the store in a failed state, which Store.failure() reports (/healthz says
 * `storage_failed`), and in which every later write is refused before it reaches the disk (SQLite's `query_only`):
 * a small write that still finds room must not be acknowledged while the writes around it are refused.
 *
 * - **Full** (SQLITE_FULL): ends by itself. Once a second the store looks at the free space of the data
 *   directory's file system; once RESUME_FREED_BYTES more are free than when it filled up, writes are tried again
 *   (and a write that still does not fit starts it over).
 * - **Broken** (an I/O error, a read-only file system, a database file moved away or damaged): lasts until the
 *   process restarts. After such an error what is on disk may no longer be what SQLite believes it wrote; a restart
 *   recovers from what is on disk.
 * - **Unflushed**: a flush of the WAL failed (wal-flush.ts). Until a restart ticks are still written and drawn, but
 *   never acknowledged; every other write is refused (a later fsync that "succeeds" proves nothing).
 *
 * SQLITE_BUSY and SQLITE_LOCKED (another process held the database longer than busy_timeout) are answered 503 too,
 * but are no fault of the disk: the store stays healthy.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../errors.js';

/** How much must be freed on the file system, after it filled up, before writes are tried again. */
export const RESUME_FREED_BYTES = 16 * 1024 * 1024;
/** How often a full store looks at the free space. */
const FREE_SPACE_CHECK_MS = 1000;
const RETRY_AFTER_S = 1;

type FaultKind = 'full' | 'unflushed' | 'broken';

/** A later fault replaces an earlier one only when it lasts at least as long. */
const RANK: Record<FaultKind, number> = { full: 1, unflushed: 2, broken: 3 };

interface Fault {
  kind: FaultKind;
  /** For Store.failure(): what happened and what ends it. */
  failure: string;
  /** For the refused request. */
  detail: string;
}

/** SQLite's result codes that mean the storage under the database failed (not the request, not the schema). */
const BROKEN = /^SQLITE_(IOERR|READONLY|CORRUPT|NOTADB|CANTOPEN)/;
const BUSY = /^SQLITE_(BUSY|LOCKED)/;

export class StorageFaults {
  private fault: Fault | null = null;
  /** Whether `query_only` is on: it follows `fault`, once no transaction is open. */
  private refusing = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly dataDir: string,
  ) {}

  /** Why writes are refused, or null. */
  failure(): string | null {
    return this.fault?.failure ?? null;
  }

  /** Runs one call into SQLite: a storage error becomes AppError `unavailable` and may start a fault. */
  run<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      throw this.refusal(err);
    } finally {
      this.settle();
    }
  }

  /**
   * Writes a tick. While the only fault is a failed flush, a tick is still written (and drawn); the flush that
   * follows fails as the first one did, so it is never acknowledged.
   */
  writeTick<T>(write: () => T): T {
    if (this.fault?.kind !== 'unflushed' || !this.refusing) return write();
    this.db.pragma('query_only = OFF');
    try {
      return write();
    } finally {
      this.db.pragma('query_only = ON');
    }
  }

  /** A flush of the WAL failed: nothing more is acknowledged until a restart. */
  unflushed(message: string): void {
    this.start({
      kind: 'unflushed',
      failure: message,
      detail:
        'The server could not confirm an earlier write is on disk, so it writes nothing more until it is restarted. Reads and output pages keep working.',
    });
  }

  /** Stops looking at the free space (the store is closing). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private refusal(err: unknown): unknown {
    if (!(err instanceof Database.SqliteError)) return err;
    const { code } = err;
    // Our own query_only refusing a write, while a fault lasts.
    if (this.fault && this.refusing && code === 'SQLITE_READONLY') return this.unavailable(this.fault.detail);
    if (BUSY.test(code)) {
      return this.unavailable(`The database is busy (${code}): nothing was written. Retry shortly.`);
    }
    if (code.startsWith('SQLITE_FULL')) {
      this.full(code, err.message);
    } else if (BROKEN.test(code)) {
      this.start({
        kind: 'broken',
        failure: `Storage failed (${code}: ${err.message}): writes are refused until the server restarts; check the disk and the file system of the data directory first.`,
        detail: `The server's storage failed (${code}): nothing was written. Reads and output pages keep working; writes resume once an operator has repaired the storage and restarted the server.`,
      });
    } else {
      return err;
    }
    return this.unavailable(this.fault!.detail);
  }

  private full(code: string, message: string): void {
    const freeAtFault = this.freeBytes();
    const started = this.start({
      kind: 'full',
      failure: `The disk is full (${code}: ${message}): writes are refused until ${RESUME_FREED_BYTES >> 20} MiB are freed on the file system of the data directory.`,
      detail: `The server's disk is full (${code}): nothing was written. Reads and output pages keep working; retry once space has been freed.`,
    });
    if (!started || this.timer) return;
    this.timer = setInterval(() => {
      if (this.fault?.kind !== 'full') return this.close();
      const free = this.freeBytes();
      if (free === null || freeAtFault === null || free < freeAtFault + RESUME_FREED_BYTES) return;
      this.fault = null;
      this.close();
      this.settle();
    }, FREE_SPACE_CHECK_MS);
    this.timer.unref();
  }

  /** Records a fault unless one that lasts longer is already there; true when recorded. */
  private start(fault: Fault): boolean {
    if (this.fault && RANK[this.fault.kind] > RANK[fault.kind]) return false;
    this.fault = fault;
    this.settle();
    return true;
  }

  /** Turns query_only on or off to match the fault, when no transaction is open (a failed one rolls back first). */
  private settle(): void {
    const refuse = this.fault !== null;
    if (refuse === this.refusing || !this.db.open || this.db.inTransaction) return;
    this.db.pragma(`query_only = ${refuse ? 'ON' : 'OFF'}`);
    this.refusing = refuse;
  }

  /** Free bytes on the data directory's file system (root's reserve included), or null if unknown. */
  private freeBytes(): number | null {
    try {
      const s = fs.statfsSync(this.dataDir);
      return s.bfree * s.bsize;
    } catch {
      return null;
    }
  }

  private unavailable(detail: string): AppError {
    return new AppError('unavailable', detail, { retryAfter: RETRY_AFTER_S });
  }
}

/**
 * The database as the store's classes see it: every statement's run/get/all/iterate, every transaction, pragma
 * and exec goes through `faults.run`. Statements prepared through it are guarded the same way.
 */
export function guardDatabase(db: Database.Database, faults: StorageFaults): Database.Database {
  const prepare = (sql: string) => {
    const statement = faults.run(() => db.prepare(sql));
    return guardStatement(statement, faults);
  };
  const transaction = (fn: (...args: unknown[]) => unknown) => {
    const tx = db.transaction(fn);
    return (...args: unknown[]) => faults.run(() => tx(...args));
  };
  const pragma = (source: string, options?: Database.PragmaOptions) => faults.run(() => db.pragma(source, options));
  const exec = (source: string) => faults.run(() => db.exec(source));
  const guarded = new Map<PropertyKey, unknown>([
    ['prepare', prepare],
    ['transaction', transaction],
    ['pragma', pragma],
    ['exec', exec],
  ]);
  return new Proxy(db, { get: (target, key) => (guarded.has(key) ? guarded.get(key) : bound(target, key)) });
}

function guardStatement(statement: Database.Statement, faults: StorageFaults): Database.Statement {
  const guarded = new Map<PropertyKey, unknown>(
    (['run', 'get', 'all', 'iterate'] as const).map((name) => [
      name,
      (...args: unknown[]) =>
        faults.run(() => (statement[name] as (...a: unknown[]) => unknown).apply(statement, args)),
    ]),
  );
  return new Proxy(statement, { get: (target, key) => (guarded.has(key) ? guarded.get(key) : bound(target, key)) });
}

/** A property of a native object, its methods bound to it (they check their receiver). */
function bound(target: object, key: PropertyKey): unknown {
  const value: unknown = Reflect.get(target, key, target);
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}
