/**
 * The WebhookStore on the same SQLite database as the rest of the store (tables of migrations 5 and 9).
 *
 * Claims (webhook-store.ts) are taken by one UPDATE that picks and claims the due rows: SQLite has one writer at a
 * time, so no two claims interleave. One statement rather than a read and then a write in a transaction: a
 * transaction that has read cannot wait for the write lock (SQLite answers SQLITE_BUSY at once rather than risk a
 * deadlock), and the checkpointer holds that lock now and then; a statement that writes takes the lock first, and
 * waits for it like any write. One process at a time holds a SQLite database (data-dir-lock.ts), so a claim found at open was left
 * by a process that is gone: open ends them all, and what a crash left in flight is sent again at once, as before
 * claims existed, instead of after the claims run out.
 */
import type Database from 'better-sqlite3';
import type { EventLog } from './event-log.js';
import {
  attemptOf,
  delivery,
  subscription,
  subscriptionsPage,
  type AttemptRow,
  type DeliveryRow,
  type SubscriptionRow,
} from '../webhook-rows.js';
import { failureCount } from '../failure-count.js';
import type {
  AttemptRecord,
  DeliveryClaim,
  DeliveryRecord,
  EventBatch,
  NewDelivery,
  Settlement,
  SubscriptionPage,
  SubscriptionRecord,
  WebhookStore,
} from '../webhook-store.js';

const DELIVERY_COLUMNS = 'id, webhook_id, event_id, type, event_created_at, body, attempts, next_at';

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(`INSERT INTO webhooks (id, org_id, url, events, channel_id, description, sealed_secret,
      previous_sealed_secret, previous_secret_expires_at, status, consecutive_failures, last_error, disabled_at,
      created_at)
      VALUES (@id, @orgId, @url, @events, @channelId, @description, @sealedSecret, @previousSealed,
      @previousExpiresAt, @status, @consecutiveFailures, @lastError, @disabledAt, @createdAt)`),
    // One statement: the secret moved aside is the one this update replaces, whatever another roll did before.
    roll: db.prepare(`UPDATE webhooks SET
      previous_sealed_secret = CASE WHEN @expiresAt IS NULL THEN NULL ELSE sealed_secret END,
      previous_secret_expires_at = @expiresAt, sealed_secret = @sealed
      WHERE id = @id RETURNING *`),
    byId: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
    list: db.prepare('SELECT * FROM webhooks WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?'),
    count: db.prepare('SELECT count(*) AS n FROM webhooks WHERE org_id = ?'),
    delete: db.prepare('DELETE FROM webhooks WHERE id = ?'),
    enabled: db.prepare("SELECT * FROM webhooks WHERE status = 'enabled' ORDER BY id"),
    cursor: db.prepare('SELECT last_seq FROM webhook_dispatch WHERE id = 1'),
    moveCursor: db.prepare('UPDATE webhook_dispatch SET last_seq = ? WHERE id = 1 AND last_seq < ?'),
    insertDelivery: db.prepare(`INSERT OR IGNORE INTO webhook_deliveries
      (webhook_id, event_id, type, event_created_at, body, state, attempts, next_at)
      SELECT @subscriptionId, @eventId, @type, @eventCreatedAt, @body, 'pending', 0, @nextAt
      WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = @subscriptionId AND status = 'enabled')`),
    insertAttempt: db.prepare(`INSERT INTO webhook_attempts
      (webhook_id, event_id, type, attempt, outcome, status, error, duration_ms, at)
      SELECT @subscriptionId, @eventId, @type, @attempt, @outcome, @status, @error, @durationMs, @at
      WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = @subscriptionId)`),
    claim: db.prepare(`UPDATE webhook_deliveries SET claimed_by = @by, claimed_until = @untilMs
      WHERE id IN (SELECT id FROM webhook_deliveries
        WHERE webhook_id = @subscriptionId AND state = 'pending' AND next_at <= @now
          AND (claimed_until IS NULL OR claimed_until <= @now)
        ORDER BY next_at, id LIMIT @limit)
      RETURNING ${DELIVERY_COLUMNS}`),
    // Two reads, each on its index: the next retry, and the first claim to run out.
    nextDue: db.prepare(`SELECT min(at) AS at FROM (
        SELECT min(next_at) AS at FROM webhook_deliveries WHERE state = 'pending' AND next_at > @now
        UNION ALL
        SELECT min(claimed_until) FROM webhook_deliveries WHERE state = 'pending' AND claimed_until > @now)`),
    endClaims: db.prepare(`UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
      WHERE state = 'pending' AND claimed_until IS NOT NULL`),
    endClaim: db.prepare(`UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
      WHERE id = ? AND state = 'pending'`),
    skip: db.prepare(
      'UPDATE webhook_dispatch SET last_seq = max(last_seq, (SELECT coalesce(max(seq), 0) FROM event_batches))',
    ),
    // A result for an attempt already recorded (its claim ran out and another node made it too) moves nothing.
    setDelivery: db.prepare(`UPDATE webhook_deliveries SET state = @state, attempts = @attempt, next_at = @nextAt,
      body = CASE WHEN @state = 'pending' THEN body ELSE NULL END, claimed_by = NULL, claimed_until = NULL
      WHERE id = @id AND state = 'pending' AND attempts < @attempt`),
    failures: db.prepare("SELECT consecutive_failures AS n FROM webhooks WHERE id = ? AND status = 'enabled'"),
    setFailures: db.prepare('UPDATE webhooks SET consecutive_failures = ? WHERE id = ?'),
    disable: db.prepare(`UPDATE webhooks SET status = 'disabled', consecutive_failures = @n, last_error = @lastError,
      disabled_at = @at WHERE id = @id`),
    dropPending: db.prepare(`UPDATE webhook_deliveries SET state = 'dropped', body = NULL, claimed_by = NULL,
      claimed_until = NULL WHERE webhook_id = ? AND state = 'pending'`),
    attempts: db.prepare('SELECT * FROM webhook_attempts WHERE webhook_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    pending: db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE state = 'pending'"),
    undispatched: db.prepare(
      'SELECT count(*) AS n FROM event_batches WHERE seq > (SELECT last_seq FROM webhook_dispatch WHERE id = 1)',
    ),
    pruneAttempts: db.prepare('DELETE FROM webhook_attempts WHERE at < ?'),
    pruneDeliveries: db.prepare("DELETE FROM webhook_deliveries WHERE state != 'pending' AND event_created_at < ?"),
  };
}

export class SqliteWebhooks implements WebhookStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly fanOutTx;
  private readonly settleTx;
  private readonly releaseTx;

  constructor(
    db: Database.Database,
    private readonly events: EventLog,
  ) {
    const st = (this.st = prepare(db));
    this.releaseTx = db.transaction((ids: readonly number[]) => {
      for (const id of ids) st.endClaim.run(id);
    });
    this.fanOutTx = db.transaction(
      (seq: number, deliveries: readonly NewDelivery[], drops: readonly AttemptRecord[]) => {
        for (const d of deliveries) st.insertDelivery.run(d);
        for (const a of drops) st.insertAttempt.run(a);
        st.moveCursor.run(seq, seq);
      },
    );
    this.settleTx = db.transaction((settlements: readonly Settlement[], disableAfter: number) => {
      const disabled: string[] = [];
      for (const s of settlements) if (this.settleOne(s, disableAfter)) disabled.push(s.attempt.subscriptionId);
      return disabled;
    });
    st.endClaims.run();
  }

  async insertSubscription(s: SubscriptionRecord): Promise<void> {
    this.st.insert.run({
      ...s,
      previousSealed: s.previousSecret?.sealed ?? null,
      previousExpiresAt: s.previousSecret?.expiresAt ?? null,
      events: JSON.stringify(s.events),
      lastError: s.lastError ? JSON.stringify(s.lastError) : null,
    });
  }

  async getSubscription(id: string): Promise<SubscriptionRecord | undefined> {
    const row = this.st.byId.get(id) as SubscriptionRow | undefined;
    return row ? subscription(row) : undefined;
  }

  async listSubscriptions(orgId: string, page: SubscriptionPage): Promise<SubscriptionRecord[]> {
    return subscriptionsPage(page, (after, limit) => this.st.list.all(orgId, after, limit) as SubscriptionRow[]);
  }

  async countSubscriptions(orgId: string): Promise<number> {
    return (this.st.count.get(orgId) as { n: number }).n;
  }

  async deleteSubscription(id: string): Promise<void> {
    this.st.delete.run(id);
  }

  async rollSecret(
    id: string,
    sealedSecret: string,
    previousExpiresAt: string | null,
  ): Promise<SubscriptionRecord | undefined> {
    const row = this.st.roll.get({ id, sealed: sealedSecret, expiresAt: previousExpiresAt }) as
      SubscriptionRow | undefined;
    return row ? subscription(row) : undefined;
  }

  async enabledSubscriptions(): Promise<SubscriptionRecord[]> {
    return (this.st.enabled.all() as SubscriptionRow[]).map(subscription);
  }

  async undispatched(limit: number): Promise<EventBatch[]> {
    const { last_seq } = this.st.cursor.get() as { last_seq: number };
    return this.events.batchesAfter(last_seq, limit);
  }

  async fanOut(seq: number, deliveries: readonly NewDelivery[], drops: readonly AttemptRecord[]): Promise<void> {
    this.fanOutTx(seq, deliveries, drops);
  }

  async claimDue(subscriptionId: string, now: number, limit: number, claim: DeliveryClaim): Promise<DeliveryRecord[]> {
    if (limit <= 0) return [];
    const rows = this.st.claim.all({
      subscriptionId,
      now,
      limit,
      by: claim.by,
      untilMs: claim.untilMs,
    }) as DeliveryRow[];
    // RETURNING keeps no order: oldest first, as picked.
    return rows.sort((a, b) => a.next_at - b.next_at || a.id - b.id).map(delivery);
  }

  async releaseClaims(deliveryIds: readonly number[]): Promise<void> {
    if (deliveryIds.length > 0) this.releaseTx(deliveryIds);
  }

  async nextDueAt(now: number): Promise<number | null> {
    return (this.st.nextDue.get({ now }) as { at: number | null }).at;
  }

  async skipUndispatched(): Promise<void> {
    this.st.skip.run();
  }

  async settle(settlements: readonly Settlement[], disableAfter: number): Promise<string[]> {
    return this.settleTx(settlements, disableAfter);
  }

  /** One settlement, inside settle's transaction; true when it disabled the subscription. */
  private settleOne(s: Settlement, disableAfter: number): boolean {
    const a = s.attempt;
    this.st.insertAttempt.run(a);
    const changed = this.st.setDelivery.run({
      id: s.deliveryId,
      state: s.state,
      attempt: a.attempt,
      nextAt: s.state === 'pending' ? s.nextAt : 0,
    }).changes;
    const current = this.st.failures.get(a.subscriptionId) as { n: number } | undefined;
    const effect = failureCount(s, current?.n, changed > 0, disableAfter);
    if (effect.change === 'count') this.st.setFailures.run(effect.failures, a.subscriptionId);
    if (effect.change !== 'disable') return false;
    const lastError = JSON.stringify(effect.lastError);
    this.st.disable.run({ id: a.subscriptionId, n: effect.failures, lastError, at: a.at });
    this.st.dropPending.run(a.subscriptionId);
    return true;
  }

  async listAttempts(
    subscriptionId: string,
    page: { limit: number; after?: string | undefined },
  ): Promise<{ attempts: AttemptRecord[]; nextCursor: string | null }> {
    const after = page.after && /^\d+$/.test(page.after) ? Number(page.after) : 0;
    const rows = this.st.attempts.all(subscriptionId, after, page.limit + 1) as AttemptRow[];
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    return { attempts: shown.map(attemptOf), nextCursor: more ? String(shown[shown.length - 1]!.seq) : null };
  }

  async logAttempt(attempt: AttemptRecord): Promise<void> {
    this.st.insertAttempt.run(attempt);
  }

  async outboxDepth(): Promise<{ pendingDeliveries: number; undispatchedBatches: number }> {
    return {
      pendingDeliveries: (this.st.pending.get() as { n: number }).n,
      undispatchedBatches: (this.st.undispatched.get() as { n: number }).n,
    };
  }

  async pruneDeliveries(olderThan: string): Promise<number> {
    return this.st.pruneAttempts.run(olderThan).changes + this.st.pruneDeliveries.run(olderThan).changes;
  }
}
