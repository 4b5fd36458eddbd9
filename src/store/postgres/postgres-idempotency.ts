/**
 * The IdempotencyStore on the same Postgres database as the rest of the store (table of migration 8). A claim is
 * one upsert that inserts the key or replaces an expired record: of concurrent claims Postgres lets one insert
 * and makes the others wait for it, then find the key taken. The body is stored as the API hands it (sealed).
 */
import { idempotencyRecord, type IdempotencyRow } from '../idempotency-rows.js';
import type { Claim, IdempotencyClaim, IdempotencyStore, StoredResponse } from '../idempotency-store.js';
import type { Database } from './database.js';

/** Inserts the key, or replaces a record created before `expiredBefore` ($6); answers a row when it claimed. */
const CLAIM = `INSERT INTO idempotency_keys (scope, key, fingerprint, owner, created_at) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, owner = excluded.owner,
    created_at = excluded.created_at, status = NULL, headers = NULL, body = NULL
  WHERE idempotency_keys.created_at < $6
  RETURNING 1 AS claimed`;
const FIND =
  'SELECT fingerprint, owner, created_at, status, headers, body FROM idempotency_keys WHERE scope = $1 AND key = $2';

export class PostgresIdempotency implements IdempotencyStore {
  constructor(private readonly db: Database) {}

  /** A record released between the upsert and the read is gone: the claim is tried again. */
  async claim(c: IdempotencyClaim): Promise<Claim> {
    for (;;) {
      const claimed = await this.db.row(CLAIM, [c.scope, c.key, c.fingerprint, c.owner, c.now, c.expiredBefore]);
      if (claimed) return { claimed: true };
      const row = await this.db.row<IdempotencyRow>(FIND, [c.scope, c.key]);
      if (row) return { claimed: false, record: idempotencyRecord(row) };
    }
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.db.run(
      'UPDATE idempotency_keys SET status = $3, headers = $4, body = $5 WHERE scope = $1 AND key = $2',
      [scope, key, response.status, JSON.stringify(response.headers), response.body],
    );
  }

  async release(scope: string, key: string): Promise<void> {
    await this.db.run('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL', [scope, key]);
  }

  async prune(before: string): Promise<number> {
    return this.db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [before]);
  }
}
