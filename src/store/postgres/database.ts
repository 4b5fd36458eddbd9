/**
 * The connection to Postgres: a small pool, and the one place statements run. Values are always bound
 * parameters. A statement that cannot reach Postgres (refused, reset, terminated, timed out connecting)
 * rejects with AppError `unavailable` (Retry-After: 1) and is reported by `failure()` until a later statement
 * gets through; any other error (a constraint, a bad statement) passes through as it is.
 *
 * Counts, sequence numbers and frame numbers are bigint columns; they are parsed as numbers (all of them stay
 * far below 2^53), for this pool only, so other users of `pg` in the process keep its defaults.
 */
import pg from 'pg';
import { AppError } from '../../errors.js';

const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 5000;
const INT8 = 20;

/** Node's and Postgres's ways of saying the connection is gone (class 08, and a server shutting down). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);
const LOST_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|not queryable/;

/** Keys of the advisory locks the store takes, each paired with the schema's hash (one database, many schemas). */
export const LOCKS = {
  migrations: 0x6f6e0001,
  eventLog: 0x6f6e0002,
  defaultOrg: 0x6f6e0003,
} as const;

/** Whether an error means Postgres could not be reached, rather than that it refused the statement. */
export function isConnectionLoss(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.has(code) || code.startsWith('08'))) {
    return true;
  }
  return LOST_MESSAGE.test(err.message);
}

/** Whether the last statement reached Postgres; turns a lost connection into `unavailable`. */
class Reachability {
  lost: string | null = null;

  reached(): void {
    this.lost = null;
  }

  refusal(err: unknown): Error {
    if (!isConnectionLoss(err)) return err instanceof Error ? err : new Error(String(err));
    this.lost = `Postgres is unreachable: ${(err as Error).message}`;
    return new AppError('unavailable', 'The database is unreachable; nothing was applied. Retry shortly.', {
      retryAfter: 1,
    });
  }
}

/** Runs statements: on the pool (each its own transaction) or on one connection inside a transaction. */
export class Sql {
  constructor(
    private readonly target: pg.Pool | pg.PoolClient,
    protected readonly reach: Reachability,
  ) {}

  async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.exec<R>(text, values)).rows;
  }

  async row<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.exec<R>(text, values)).rows[0];
  }

  /** Runs a statement; returns how many rows it changed. */
  async run(text: string, values: unknown[] = []): Promise<number> {
    return (await this.exec(text, values)).rowCount ?? 0;
  }

  /** Takes one of LOCKS until the transaction ends. */
  async lock(key: number): Promise<void> {
    await this.run(`SELECT pg_advisory_xact_lock($1::int, hashtext(coalesce(current_schema(), '')))`, [key]);
  }

  private async exec<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      const result = await this.target.query<R>(text, values);
      this.reach.reached();
      return result;
    } catch (err) {
      throw this.reach.refusal(err);
    }
  }
}

export interface DatabaseOptions {
  /** Connections at most; default 10. */
  poolSize?: number | undefined;
  /** An idle connection died (Postgres restarted, the network dropped it): for logs. */
  onError?: ((err: unknown) => void) | undefined;
}

export class Database extends Sql {
  private readonly pool: pg.Pool;
  private closing: Promise<void> | undefined;

  constructor(url: string, { poolSize = POOL_SIZE, onError }: DatabaseOptions = {}) {
    const types = new pg.TypeOverrides();
    types.setTypeParser(INT8, 'text', Number);
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      types,
      // An acknowledged write must survive a crash of the server: whatever the server's default, commits wait
      // for the WAL flush.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it (its types say void)
      onConnect: async (client) => {
        await client.query('SET synchronous_commit = on');
      },
    });
    super(pool, new Reachability());
    this.pool = pool;
    // An idle connection that dies is dropped by the pool, and the next statement opens another. Meanwhile failure()
    // says Postgres is unreachable if that is what it died of (the next statement that gets through clears it).
    // Without a listener the error would end the process.
    pool.on('error', (err) => {
      this.reach.refusal(err);
      onError?.(err);
    });
  }

  /** Why writes fail, or null: Postgres could not be reached by the last statement. */
  failure(): string | null {
    return this.reach.lost;
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Sql) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.reach.refusal(err);
    }
    const tx = new Sql(client, this.reach);
    try {
      await tx.run(begin);
      const result = await work(tx);
      await tx.run('COMMIT');
      client.release();
      return result;
    } catch (err) {
      // A connection that cannot even roll back is closed rather than returned to the pool.
      const broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
      client.release(broken);
      throw err;
    }
  }

  /** Runs reads on one consistent snapshot of the database. */
  snapshot<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.transaction(work, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }
}
