/**
 * Row shapes of the webhook tables, the same in both stores (sqlite/sqlite-webhooks.ts,
 * postgres/postgres-webhooks.ts), and their mapping to the WebhookStore's records.
 */
import type {
  AttemptRecord,
  DeliveryRecord,
  LastError,
  SubscriptionPage,
  SubscriptionRecord,
} from './webhook-store.js';

export interface SubscriptionRow {
  id: string;
  org_id: string;
  url: string;
  events: string;
  channel_id: string | null;
  description: string | null;
  sealed_secret: string;
  previous_sealed_secret: string | null;
  previous_secret_expires_at: string | null;
  status: 'enabled' | 'disabled';
  consecutive_failures: number;
  last_error: string | null;
  disabled_at: string | null;
  created_at: string;
}

export interface DeliveryRow {
  id: number;
  webhook_id: string;
  event_id: string;
  type: string;
  event_created_at: string;
  body: string;
  attempts: number;
  next_at: number;
}

export interface AttemptRow {
  seq: number;
  webhook_id: string;
  event_id: string;
  type: string;
  attempt: number;
  outcome: AttemptRecord['outcome'];
  status: number | null;
  error: string | null;
  duration_ms: number | null;
  at: string;
}

export const subscription = (r: SubscriptionRow): SubscriptionRecord => ({
  id: r.id,
  orgId: r.org_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  channelId: r.channel_id,
  description: r.description,
  sealedSecret: r.sealed_secret,
  previousSecret:
    r.previous_sealed_secret !== null && r.previous_secret_expires_at !== null
      ? { sealed: r.previous_sealed_secret, expiresAt: r.previous_secret_expires_at }
      : null,
  status: r.status,
  consecutiveFailures: r.consecutive_failures,
  lastError: r.last_error ? (JSON.parse(r.last_error) as LastError) : null,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
});

export const delivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  subscriptionId: r.webhook_id,
  eventId: r.event_id,
  type: r.type,
  eventCreatedAt: r.event_created_at,
  body: r.body,
  attempts: r.attempts,
  nextAt: r.next_at,
});

export const attemptOf = (r: AttemptRow): AttemptRecord => ({
  subscriptionId: r.webhook_id,
  eventId: r.event_id,
  type: r.type,
  attempt: r.attempt,
  outcome: r.outcome,
  status: r.status,
  error: r.error,
  durationMs: r.duration_ms,
  at: r.at,
});

/**
 * A page of a workspace's subscriptions, read in id order `SUBSCRIPTION_ROWS` at a time from `after` by `read`.
 * A channel lock filters here, not in SQL: a workspace holds a few dozen subscriptions at most.
 */
export async function subscriptionsPage(
  page: SubscriptionPage,
  read: (after: string, limit: number) => SubscriptionRow[] | Promise<SubscriptionRow[]>,
): Promise<SubscriptionRecord[]> {
  const only = page.onlyChannelIds ? new Set(page.onlyChannelIds) : null;
  const found: SubscriptionRecord[] = [];
  let after = page.after ?? '';
  for (;;) {
    const rows = await read(after, SUBSCRIPTION_ROWS);
    for (const row of rows) {
      if (!only || (row.channel_id !== null && only.has(row.channel_id))) found.push(subscription(row));
      if (found.length >= page.limit) return found;
    }
    if (rows.length < SUBSCRIPTION_ROWS) return found;
    after = rows[rows.length - 1]!.id;
  }
}

const SUBSCRIPTION_ROWS = 100;
