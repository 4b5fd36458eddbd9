/**
 * The WebhookStore on the same Postgres database as the rest of the store (tables of migrations 5 and 9). Deliveries
 * and log lines are inserted many per statement, in the order given (their ids and seqs follow it). `settle`
 * locks the subscriptions it touches, in id order, before anything else: their failure counts are read and
 * changed in one transaction, and two settles never wait on each other's rows in opposite orders.
 *
 * `claimDue` is one statement: it picks the due rows `FOR UPDATE SKIP LOCKED` and claims them, so two nodes
 * claiming at once each take different rows, and neither waits for the other. A row the other has just claimed
 * and committed is read again once locked and left out (its claim now lives).
 *
 * Times in ms are whole numbers in bigint columns: a fractional `now` is floored (exact against whole numbers,
 * for `<=` and `>` alike) and a fractional `nextAt` or claim end rounded up (a delivery is never tried earlier,
 * a claim never cut short).
 */
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
import type { Database, Sql } from './database.js';
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
import type { PostgresEventLog } from './postgres-event-log.js';

const SQL = {
  insert: `INSERT INTO webhooks (id, org_id, url, events, channel_id, description, sealed_secret, status,
    consecutive_failures, last_error, disabled_at, created_at, previous_sealed_secret, previous_secret_expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
  // One statement: the secret moved aside is the one this update replaces, whatever another roll did before.
  roll: `UPDATE webhooks SET
    previous_sealed_secret = CASE WHEN $3::text IS NULL THEN NULL ELSE sealed_secret END,
    previous_secret_expires_at = $3, sealed_secret = $2
    WHERE id = $1 RETURNING *`,
  list: 'SELECT * FROM webhooks WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3',
  cursor: 'SELECT last_seq FROM webhook_dispatch WHERE id = 1',
  moveCursor: 'UPDATE webhook_dispatch SET last_seq = $1 WHERE id = 1 AND last_seq < $1',
  // A repeat of a (subscription, event) is ignored; a subscription disabled or deleted gets nothing.
  insertDeliveries: `INSERT INTO webhook_deliveries
    (webhook_id, event_id, type, event_created_at, body, state, attempts, next_at)
    SELECT d.webhook_id, d.event_id, d.type, d.event_created_at, d.body, 'pending', 0, d.next_at
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY
      AS d(webhook_id, event_id, type, event_created_at, body, next_at, n)
    WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.status = 'enabled')
    ORDER BY d.n
    ON CONFLICT (webhook_id, event_id) DO NOTHING`,
  // A line for a deleted subscription is dropped.
  insertAttempts: `INSERT INTO webhook_attempts
    (webhook_id, event_id, type, attempt, outcome, status, error, duration_ms, at)
    SELECT a.webhook_id, a.event_id, a.type, a.attempt, a.outcome, a.status, a.error, a.duration_ms, a.at
    FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::float8[],
      $9::text[]) WITH ORDINALITY AS a(webhook_id, event_id, type, attempt, outcome, status, error, duration_ms, at, n)
    WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.id = a.webhook_id)
    ORDER BY a.n`,
  claim: `WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE webhook_id = $1 AND state = 'pending' AND next_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2)
      ORDER BY next_at, id LIMIT $3
      FOR UPDATE SKIP LOCKED
    )
    UPDATE webhook_deliveries AS d SET claimed_by = $4, claimed_until = $5 FROM due WHERE d.id = due.id
    RETURNING d.id, d.webhook_id, d.event_id, d.type, d.event_created_at, d.body, d.attempts, d.next_at`,
  // Two reads, each on its index: the next retry, and the first claim to run out.
  nextDue: `SELECT least(
      (SELECT min(next_at) FROM webhook_deliveries WHERE state = 'pending' AND next_at > $1),
      (SELECT min(claimed_until) FROM webhook_deliveries WHERE state = 'pending' AND claimed_until > $1)) AS at`,
  release: `UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
    WHERE id = ANY($1::bigint[]) AND state = 'pending'`,
  skip: `UPDATE webhook_dispatch
    SET last_seq = greatest(last_seq, (SELECT coalesce(max(seq), 0) FROM event_batches)) WHERE id = 1`,
  lockSubscriptions: 'SELECT id FROM webhooks WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
  // A result for an attempt already recorded (its claim ran out and another node made it too) moves nothing.
  setDelivery: `UPDATE webhook_deliveries SET state = $2, attempts = $3, next_at = $4,
    body = CASE WHEN $2 = 'pending' THEN body ELSE NULL END, claimed_by = NULL, claimed_until = NULL
    WHERE id = $1 AND state = 'pending' AND attempts < $3`,
  failures: `SELECT consecutive_failures AS n FROM webhooks WHERE id = $1 AND status = 'enabled'`,
  setFailures: 'UPDATE webhooks SET consecutive_failures = $1 WHERE id = $2',
  disable: `UPDATE webhooks SET status = 'disabled', consecutive_failures = $2, last_error = $3, disabled_at = $4
    WHERE id = $1`,
  dropPending: `UPDATE webhook_deliveries SET state = 'dropped', body = NULL, claimed_by = NULL, claimed_until = NULL
    WHERE webhook_id = $1 AND state = 'pending'`,
  attempts: 'SELECT * FROM webhook_attempts WHERE webhook_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
  depth: `SELECT (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
    (SELECT count(*) FROM event_batches WHERE seq > (SELECT last_seq FROM webhook_dispatch WHERE id = 1)) AS batches`,
  pruneAttempts: 'DELETE FROM webhook_attempts WHERE at < $1',
  pruneDeliveries: `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND event_created_at < $1`,
};

export class PostgresWebhooks implements WebhookStore {
  constructor(
    private readonly db: Database,
    private readonly events: PostgresEventLog,
  ) {}

  async insertSubscription(s: SubscriptionRecord): Promise<void> {
    await this.db.run(SQL.insert, [
      s.id,
      s.orgId,
      s.url,
      JSON.stringify(s.events),
      s.channelId,
      s.description,
      s.sealedSecret,
      s.status,
      s.consecutiveFailures,
      s.lastError ? JSON.stringify(s.lastError) : null,
      s.disabledAt,
      s.createdAt,
      s.previousSecret?.sealed ?? null,
      s.previousSecret?.expiresAt ?? null,
    ]);
  }

  async getSubscription(id: string): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.row<SubscriptionRow>('SELECT * FROM webhooks WHERE id = $1', [id]);
    return row ? subscription(row) : undefined;
  }

  async listSubscriptions(orgId: string, page: SubscriptionPage): Promise<SubscriptionRecord[]> {
    return subscriptionsPage(page, (after, limit) => this.db.rows<SubscriptionRow>(SQL.list, [orgId, after, limit]));
  }

  async countSubscriptions(orgId: string): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE org_id = $1', [orgId]))!.n;
  }

  async deleteSubscription(id: string): Promise<void> {
    await this.db.run('DELETE FROM webhooks WHERE id = $1', [id]);
  }

  async rollSecret(
    id: string,
    sealedSecret: string,
    previousExpiresAt: string | null,
  ): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.row<SubscriptionRow>(SQL.roll, [id, sealedSecret, previousExpiresAt]);
    return row ? subscription(row) : undefined;
  }

  async enabledSubscriptions(): Promise<SubscriptionRecord[]> {
    const rows = await this.db.rows<SubscriptionRow>("SELECT * FROM webhooks WHERE status = 'enabled' ORDER BY id");
    return rows.map(subscription);
  }

  async undispatched(limit: number): Promise<EventBatch[]> {
    const { last_seq } = (await this.db.row<{ last_seq: number }>(SQL.cursor))!;
    return this.events.batchesAfter(this.db, last_seq, limit);
  }

  async fanOut(seq: number, deliveries: readonly NewDelivery[], drops: readonly AttemptRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (deliveries.length > 0) await tx.run(SQL.insertDeliveries, deliveryColumns(deliveries));
      await insertAttempts(tx, drops);
      await tx.run(SQL.moveCursor, [seq]);
    });
  }

  async claimDue(subscriptionId: string, now: number, limit: number, claim: DeliveryClaim): Promise<DeliveryRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.db.rows<DeliveryRow>(SQL.claim, [
      subscriptionId,
      Math.floor(now),
      limit,
      claim.by,
      Math.ceil(claim.untilMs),
    ]);
    // RETURNING keeps no order: oldest first, as picked.
    return rows.sort((a, b) => a.next_at - b.next_at || a.id - b.id).map(delivery);
  }

  async nextDueAt(now: number): Promise<number | null> {
    return (await this.db.row<{ at: number | null }>(SQL.nextDue, [Math.floor(now)]))!.at;
  }

  async releaseClaims(deliveryIds: readonly number[]): Promise<void> {
    if (deliveryIds.length > 0) await this.db.run(SQL.release, [deliveryIds]);
  }

  async skipUndispatched(): Promise<void> {
    await this.db.run(SQL.skip);
  }

  async settle(settlements: readonly Settlement[], disableAfter: number): Promise<string[]> {
    if (settlements.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const ids = [...new Set(settlements.map((s) => s.attempt.subscriptionId))];
      await tx.run(SQL.lockSubscriptions, [ids]);
      const disabled: string[] = [];
      for (const s of settlements) if (await settleOne(tx, s, disableAfter)) disabled.push(s.attempt.subscriptionId);
      return disabled;
    });
  }

  async listAttempts(
    subscriptionId: string,
    page: { limit: number; after?: string | undefined },
  ): Promise<{ attempts: AttemptRecord[]; nextCursor: string | null }> {
    const after = page.after && /^\d+$/.test(page.after) ? Math.min(Number(page.after), Number.MAX_SAFE_INTEGER) : 0;
    const rows = await this.db.rows<AttemptRow>(SQL.attempts, [subscriptionId, after, page.limit + 1]);
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    return { attempts: shown.map(attemptOf), nextCursor: more ? String(shown[shown.length - 1]!.seq) : null };
  }

  async logAttempt(attempt: AttemptRecord): Promise<void> {
    await insertAttempts(this.db, [attempt]);
  }

  async outboxDepth(): Promise<{ pendingDeliveries: number; undispatchedBatches: number }> {
    const row = (await this.db.row<{ pending: number; batches: number }>(SQL.depth))!;
    return { pendingDeliveries: row.pending, undispatchedBatches: row.batches };
  }

  async pruneDeliveries(olderThan: string): Promise<number> {
    return (await this.db.run(SQL.pruneAttempts, [olderThan])) + (await this.db.run(SQL.pruneDeliveries, [olderThan]));
  }
}

/** One settlement, inside settle's transaction (its subscription locked); true when it disabled the subscription. */
async function settleOne(tx: Sql, s: Settlement, disableAfter: number): Promise<boolean> {
  const a = s.attempt;
  await insertAttempts(tx, [a]);
  const nextAt = s.state === 'pending' ? Math.ceil(s.nextAt) : 0;
  const changed = await tx.run(SQL.setDelivery, [s.deliveryId, s.state, a.attempt, nextAt]);
  const current = await tx.row<{ n: number }>(SQL.failures, [a.subscriptionId]);
  const effect = failureCount(s, current?.n, changed > 0, disableAfter);
  if (effect.change === 'count') await tx.run(SQL.setFailures, [effect.failures, a.subscriptionId]);
  if (effect.change !== 'disable') return false;
  await tx.run(SQL.disable, [a.subscriptionId, effect.failures, JSON.stringify(effect.lastError), a.at]);
  await tx.run(SQL.dropPending, [a.subscriptionId]);
  return true;
}

async function insertAttempts(sql: Sql, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  const col = <K extends keyof AttemptRecord>(k: K) => attempts.map((a) => a[k]);
  await sql.run(SQL.insertAttempts, [
    col('subscriptionId'),
    col('eventId'),
    col('type'),
    col('attempt'),
    col('outcome'),
    col('status'),
    col('error'),
    col('durationMs'),
    col('at'),
  ]);
}

function deliveryColumns(deliveries: readonly NewDelivery[]): unknown[] {
  const col = <K extends keyof NewDelivery>(k: K) => deliveries.map((d) => d[k]);
  const nextAt = deliveries.map((d) => Math.ceil(d.nextAt));
  return [col('subscriptionId'), col('eventId'), col('type'), col('eventCreatedAt'), col('body'), nextAt];
}
