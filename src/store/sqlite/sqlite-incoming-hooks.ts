/**
 * The IncomingHookStore on the same SQLite database as the rest of the store (tables of migrations 6 and 10).
 */
import type Database from 'better-sqlite3';
import type {
  HookChanges,
  HookDeliveryRecord,
  HookRefusalRecord,
  IncomingHookRecord,
  IncomingHookStore,
  PostClaim,
} from '../incoming-hook-store.js';
import { hook, hookDelivery, ReplayKeyHeld, type HookDeliveryRow, type HookRow } from '../incoming-hook-rows.js';

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(`INSERT INTO incoming_hooks (id, org_id, channel_id, name, token_hash, mapping,
      require_signature, sealed_secret, created_at, updated_at)
      VALUES (@id, @orgId, @channelId, @name, @tokenHash, @mapping, @requireSignature, @sealedSecret, @createdAt,
      @updatedAt)`),
    byId: db.prepare('SELECT * FROM incoming_hooks WHERE id = ?'),
    byToken: db.prepare('SELECT * FROM incoming_hooks WHERE token_hash = ?'),
    list: db.prepare('SELECT * FROM incoming_hooks WHERE channel_id = ? ORDER BY id'),
    update: db.prepare(`UPDATE incoming_hooks SET name = coalesce(@name, name), mapping = coalesce(@mapping, mapping),
      updated_at = @updatedAt WHERE id = @id`),
    delete: db.prepare('DELETE FROM incoming_hooks WHERE id = ?'),
    log: db.prepare(`INSERT INTO incoming_hook_deliveries (hook_id, at, status, applied, ignored, error, payload, dry_run)
      SELECT @hookId, @at, @status, @applied, @ignored, @error, @payload, @dryRun
      WHERE EXISTS (SELECT 1 FROM incoming_hooks WHERE id = @hookId)`),
    trim: db.prepare(`DELETE FROM incoming_hook_deliveries WHERE hook_id = @hookId AND seq <= (
      SELECT seq FROM incoming_hook_deliveries WHERE hook_id = @hookId ORDER BY seq DESC LIMIT 1 OFFSET @keep)`),
    deliveries: db.prepare('SELECT * FROM incoming_hook_deliveries WHERE hook_id = ? ORDER BY seq DESC'),
    refuse: db.prepare(`INSERT INTO incoming_hook_refusals (hook_id, at, status, error, payload, count)
      SELECT @hookId, @at, @status, @error, @payload, @count WHERE EXISTS (SELECT 1 FROM incoming_hooks WHERE id = @hookId)
      ON CONFLICT (hook_id, at) DO UPDATE SET count = count + excluded.count`),
    trimRefusals: db.prepare(`DELETE FROM incoming_hook_refusals WHERE hook_id = @hookId AND at <= (
      SELECT at FROM incoming_hook_refusals WHERE hook_id = @hookId ORDER BY at DESC LIMIT 1 OFFSET @keep)`),
    refusals: db.prepare(
      'SELECT at, status, error, payload, count FROM incoming_hook_refusals WHERE hook_id = ? ORDER BY at DESC',
    ),
    hookExists: db.prepare('SELECT 1 FROM incoming_hooks WHERE id = ?'),
    // A key still held is left as it is (no change); an expired one is taken over.
    claim: db.prepare(`INSERT INTO incoming_hook_claims (hook_id, key, expires_at) VALUES (@hookId, @key, @expiresAt)
      ON CONFLICT (hook_id, key) DO UPDATE SET expires_at = excluded.expires_at
      WHERE incoming_hook_claims.expires_at <= @now`),
    release: db.prepare('DELETE FROM incoming_hook_claims WHERE hook_id = ? AND key = ?'),
    prune: db.prepare('DELETE FROM incoming_hook_claims WHERE expires_at <= ?'),
  };
}

export class SqliteIncomingHooks implements IncomingHookStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly logTx;
  private readonly refuseTx;
  private readonly claimTx;

  constructor(db: Database.Database) {
    const st = (this.st = prepare(db));
    this.logTx = db.transaction((hookId: string, e: HookDeliveryRecord, keep: number) => {
      st.log.run({
        hookId,
        at: e.at,
        status: e.status,
        applied: JSON.stringify(e.applied),
        ignored: JSON.stringify(e.ignored),
        error: e.error,
        payload: e.payload,
        dryRun: e.dryRun ? 1 : 0,
      });
      st.trim.run({ hookId, keep });
    });
    this.refuseTx = db.transaction((hookId: string, e: HookRefusalRecord, keep: number) => {
      st.refuse.run({ hookId, ...e });
      st.trimRefusals.run({ hookId, keep });
    });
    this.claimTx = db.transaction((hookId: string, claims: PostClaim[], now: number) => {
      if (!st.hookExists.get(hookId)) return;
      for (const { key, expiresAt } of claims) {
        if (st.claim.run({ hookId, key, expiresAt, now }).changes === 0) throw new ReplayKeyHeld(key);
      }
    });
  }

  async insertHook(h: IncomingHookRecord): Promise<void> {
    this.st.insert.run({ ...h, mapping: JSON.stringify(h.mapping), requireSignature: h.requireSignature ? 1 : 0 });
  }

  async getHook(id: string): Promise<IncomingHookRecord | undefined> {
    const row = this.st.byId.get(id) as HookRow | undefined;
    return row ? hook(row) : undefined;
  }

  async findHookByTokenHash(hash: string): Promise<IncomingHookRecord | undefined> {
    const row = this.st.byToken.get(hash) as HookRow | undefined;
    return row ? hook(row) : undefined;
  }

  async listHooks(channelId: string): Promise<IncomingHookRecord[]> {
    return (this.st.list.all(channelId) as HookRow[]).map(hook);
  }

  async updateHook(id: string, changes: HookChanges): Promise<void> {
    this.st.update.run({
      id,
      name: changes.name ?? null,
      mapping: changes.mapping ? JSON.stringify(changes.mapping) : null,
      updatedAt: changes.updatedAt,
    });
  }

  async deleteHook(id: string): Promise<void> {
    this.st.delete.run(id);
  }

  async logDelivery(hookId: string, entry: HookDeliveryRecord, keep: number): Promise<void> {
    this.logTx(hookId, entry, keep);
  }

  async listDeliveries(hookId: string): Promise<HookDeliveryRecord[]> {
    return (this.st.deliveries.all(hookId) as HookDeliveryRow[]).map(hookDelivery);
  }

  async logRefusal(hookId: string, entry: HookRefusalRecord, keep: number): Promise<void> {
    this.refuseTx(hookId, entry, keep);
  }

  async listRefusals(hookId: string): Promise<HookRefusalRecord[]> {
    return this.st.refusals.all(hookId) as HookRefusalRecord[];
  }

  async claimPost(hookId: string, claims: PostClaim[], now: number): Promise<string | null> {
    try {
      this.claimTx(hookId, claims, now);
      return null;
    } catch (err) {
      if (err instanceof ReplayKeyHeld) return err.key;
      throw err;
    }
  }

  async releasePost(hookId: string, keys: string[]): Promise<void> {
    for (const key of keys) this.st.release.run(hookId, key);
  }

  async pruneClaims(now: number): Promise<number> {
    return this.st.prune.run(now).changes;
  }
}
