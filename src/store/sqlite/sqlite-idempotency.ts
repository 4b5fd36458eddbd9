/** The IdempotencyStore on the same SQLite database as the rest of the store (table of migration 8). */
import type Database from 'better-sqlite3';
import { idempotencyRecord, type IdempotencyRow } from '../idempotency-rows.js';
import type { Claim, IdempotencyClaim, IdempotencyStore, StoredResponse } from '../idempotency-store.js';

export class SqliteIdempotency implements IdempotencyStore {
  private readonly claimTx: (c: IdempotencyClaim) => Claim;
  private readonly completeStmt: Database.Statement;
  private readonly releaseStmt: Database.Statement;
  private readonly pruneStmt: Database.Statement;

  constructor(db: Database.Database) {
    const find = db.prepare('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?');
    const put = db.prepare(`INSERT OR REPLACE INTO idempotency_keys (scope, key, fingerprint, owner, created_at)
      VALUES (@scope, @key, @fingerprint, @owner, @now)`);
    // One transaction: of two claims, the second sees the first's row.
    this.claimTx = db.transaction((c: IdempotencyClaim): Claim => {
      const row = find.get(c.scope, c.key) as IdempotencyRow | undefined;
      if (row && row.created_at >= c.expiredBefore) return { claimed: false, record: idempotencyRecord(row) };
      put.run(c);
      return { claimed: true };
    });
    this.completeStmt = db.prepare(
      'UPDATE idempotency_keys SET status = @status, headers = @headers, body = @body WHERE scope = @scope AND key = @key',
    );
    this.releaseStmt = db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL');
    this.pruneStmt = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  }

  async claim(c: IdempotencyClaim): Promise<Claim> {
    return this.claimTx(c);
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    this.completeStmt.run({
      scope,
      key,
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: response.body,
    });
  }

  async release(scope: string, key: string): Promise<void> {
    this.releaseStmt.run(scope, key);
  }

  async prune(before: string): Promise<number> {
    return this.pruneStmt.run(before).changes;
  }
}
