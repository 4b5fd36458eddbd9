/** The IncomingHookStore on the same Postgres database as the rest of the store (tables of migrations 6 and 10). */
import type {
  HookChanges,
  HookDeliveryRecord,
  HookRefusalRecord,
  IncomingHookRecord,
  IncomingHookStore,
  PostClaim,
} from '../incoming-hook-store.js';
import { hook, hookDelivery, ReplayKeyHeld, type HookDeliveryRow, type HookRow } from '../incoming-hook-rows.js';
import type { Database } from './database.js';

const SQL = {
  insert: `INSERT INTO incoming_hooks (id, org_id, channel_id, name, token_hash, mapping, require_signature,
    sealed_secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  update: `UPDATE incoming_hooks SET name = coalesce($2, name), mapping = coalesce($3, mapping), updated_at = $4
    WHERE id = $1`,
  // A line for a hook deleted meanwhile is dropped.
  log: `INSERT INTO incoming_hook_deliveries (hook_id, at, status, applied, ignored, error, payload, dry_run)
    SELECT $1::text, $2::text, $3::int, $4::text, $5::text, $6::text, $7::text, $8::boolean
    WHERE EXISTS (SELECT 1 FROM incoming_hooks WHERE id = $1)`,
  trim: `DELETE FROM incoming_hook_deliveries WHERE hook_id = $1 AND seq <= (
    SELECT seq FROM incoming_hook_deliveries WHERE hook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
  refuse: `INSERT INTO incoming_hook_refusals AS r (hook_id, at, status, error, payload, count)
    SELECT $1::text, $2::text, $3::int, $4::text, $5::text, $6::int
    WHERE EXISTS (SELECT 1 FROM incoming_hooks WHERE id = $1)
    ON CONFLICT (hook_id, at) DO UPDATE SET count = r.count + excluded.count`,
  trimRefusals: `DELETE FROM incoming_hook_refusals WHERE hook_id = $1 AND at <= (
    SELECT at FROM incoming_hook_refusals WHERE hook_id = $1 ORDER BY at DESC LIMIT 1 OFFSET $2)`,
  // The hook's row is held against deletion while its keys go in.
  hookExists: 'SELECT 1 FROM incoming_hooks WHERE id = $1 FOR KEY SHARE',
  // A key still held is left as it is (no row changed); an expired one is taken over. A second post claiming the
  // same key waits for the first one's transaction, then finds it held.
  claim: `INSERT INTO incoming_hook_claims AS c (hook_id, key, expires_at) VALUES ($1, $2, $3)
    ON CONFLICT (hook_id, key) DO UPDATE SET expires_at = excluded.expires_at WHERE c.expires_at <= $4`,
};

export class PostgresIncomingHooks implements IncomingHookStore {
  constructor(private readonly db: Database) {}

  async insertHook(h: IncomingHookRecord): Promise<void> {
    await this.db.run(SQL.insert, [
      h.id,
      h.orgId,
      h.channelId,
      h.name,
      h.tokenHash,
      JSON.stringify(h.mapping),
      h.requireSignature,
      h.sealedSecret,
      h.createdAt,
      h.updatedAt,
    ]);
  }

  async getHook(id: string): Promise<IncomingHookRecord | undefined> {
    const row = await this.db.row<HookRow>('SELECT * FROM incoming_hooks WHERE id = $1', [id]);
    return row ? hook(row) : undefined;
  }

  async findHookByTokenHash(hash: string): Promise<IncomingHookRecord | undefined> {
    const row = await this.db.row<HookRow>('SELECT * FROM incoming_hooks WHERE token_hash = $1', [hash]);
    return row ? hook(row) : undefined;
  }

  async listHooks(channelId: string): Promise<IncomingHookRecord[]> {
    const rows = await this.db.rows<HookRow>('SELECT * FROM incoming_hooks WHERE channel_id = $1 ORDER BY id', [
      channelId,
    ]);
    return rows.map(hook);
  }

  async updateHook(id: string, changes: HookChanges): Promise<void> {
    await this.db.run(SQL.update, [
      id,
      changes.name ?? null,
      changes.mapping ? JSON.stringify(changes.mapping) : null,
      changes.updatedAt,
    ]);
  }

  async deleteHook(id: string): Promise<void> {
    await this.db.run('DELETE FROM incoming_hooks WHERE id = $1', [id]);
  }

  /** Adds the line and trims the log to the newest `keep`, in one transaction. */
  async logDelivery(hookId: string, e: HookDeliveryRecord, keep: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(SQL.log, [
        hookId,
        e.at,
        e.status,
        JSON.stringify(e.applied),
        JSON.stringify(e.ignored),
        e.error,
        e.payload,
        e.dryRun,
      ]);
      await tx.run(SQL.trim, [hookId, keep]);
    });
  }

  async listDeliveries(hookId: string): Promise<HookDeliveryRecord[]> {
    const rows = await this.db.rows<HookDeliveryRow>(
      'SELECT * FROM incoming_hook_deliveries WHERE hook_id = $1 ORDER BY seq DESC',
      [hookId],
    );
    return rows.map(hookDelivery);
  }

  /** Adds the refusals to their second's line and trims the log to the newest `keep` lines, in one transaction. */
  async logRefusal(hookId: string, e: HookRefusalRecord, keep: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(SQL.refuse, [hookId, e.at, e.status, e.error, e.payload, e.count]);
      await tx.run(SQL.trimRefusals, [hookId, keep]);
    });
  }

  async listRefusals(hookId: string): Promise<HookRefusalRecord[]> {
    return this.db.rows<HookRefusalRecord>(
      'SELECT at, status, error, payload, count FROM incoming_hook_refusals WHERE hook_id = $1 ORDER BY at DESC',
      [hookId],
    );
  }

  async claimPost(hookId: string, claims: PostClaim[], now: number): Promise<string | null> {
    try {
      await this.db.transaction(async (tx) => {
        if (!(await tx.row(SQL.hookExists, [hookId]))) return;
        for (const { key, expiresAt } of claims) {
          if ((await tx.run(SQL.claim, [hookId, key, expiresAt, now])) === 0) throw new ReplayKeyHeld(key);
        }
      });
      return null;
    } catch (err) {
      if (err instanceof ReplayKeyHeld) return err.key;
      throw err;
    }
  }

  async releasePost(hookId: string, keys: string[]): Promise<void> {
    await this.db.run('DELETE FROM incoming_hook_claims WHERE hook_id = $1 AND key = ANY($2::text[])', [hookId, keys]);
  }

  async pruneClaims(now: number): Promise<number> {
    return this.db.run('DELETE FROM incoming_hook_claims WHERE expires_at <= $1', [now]);
  }
}
