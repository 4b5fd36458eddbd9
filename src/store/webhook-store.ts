/**
 * Outgoing webhooks in storage: subscriptions, the deliveries fanned out from the event log, and the log of
 * attempts (docs/webhooks.md).
 *
 * Guarantees every implementation keeps (webhook-store.contract.ts runs against each), besides Store's
 * (durable when the promise resolves):
 * - The event log is the queue. `undispatched` reads committed event batches after the dispatcher's cursor;
 *   `fanOut` inserts their deliveries, records their drops and moves the cursor in one transaction, so an
 *   event is fanned out once, even across a crash, and never for a tick that was not committed.
 * - A delivery exists once per (subscription, event): the event id is its identity across retries.
 * - `settle` is atomic per call: each attempt's log row, its delivery's new state and its subscription's
 *   failure count change together. A failed attempt that brings the count to `disableAfter` disables the
 *   subscription, sets its last error and drops its pending deliveries in the same transaction; a success
 *   resets the count. Attempts on a subscription already disabled or deleted change nothing but the log.
 * - Deleting a subscription deletes its deliveries and attempts.
 * - A due delivery is handed out under a claim (`claimDue`), so that workers on several nodes sharing one
 *   database never make the same attempt at once. A live claim excludes everyone, its holder included: a worker
 *   needs no list of what it has in flight, and two workers that happen to share a name still never share a
 *   delivery. `settle` ends the claim; a claim left by a node that died mid-attempt expires at its `untilMs`,
 *   and the delivery is then claimable again, so the attempt is made again (at least once, never lost). A
 *   settlement for an attempt the delivery has already recorded (a result from a node whose claim expired while
 *   it was still sending) changes only the log: it neither moves the delivery nor counts as a failure.
 */
import type { EngineEvent } from '../engine/index.js';

export type SubscriptionStatus = 'enabled' | 'disabled';

export interface LastError {
  at: string;
  message: string;
  /** The HTTP status of the failed attempt, null for a network error. */
  status: number | null;
}

/** The secret a roll replaced: it still signs deliveries, beside the current one, until `expiresAt`. */
export interface PreviousSecret {
  /** Sealed like the current one, for the same subscription id. */
  sealed: string;
  /** ISO 8601. */
  expiresAt: string;
}

export interface SubscriptionRecord {
  id: string;
  orgId: string;
  url: string;
  /** Empty: every event type, including types added later. */
  events: string[];
  channelId: string | null;
  description: string | null;
  /** The signing secret, sealed (src/crypto/secret-box.ts): storage never holds it in clear. */
  sealedSecret: string;
  /** Set by a roll with an overlap; it may have expired since (readers compare `expiresAt` with the time). */
  previousSecret: PreviousSecret | null;
  status: SubscriptionStatus;
  consecutiveFailures: number;
  lastError: LastError | null;
  disabledAt: string | null;
  createdAt: string;
}

/** One event for one subscription, tried up to the attempt limit. */
export interface DeliveryRecord {
  id: number;
  subscriptionId: string;
  eventId: string;
  type: string;
  /** When the event was created (ISO 8601): an attempt is never started once it is too old. */
  eventCreatedAt: string;
  /** The envelope as sent: the bytes signed are these. */
  body: string;
  /** Attempts made so far. */
  attempts: number;
  /** Not before this time (ms since the epoch). */
  nextAt: number;
}

/** Who holds a delivery's attempt, and until when (ms since the epoch, on the claiming node's clock). */
export interface DeliveryClaim {
  /** Names the claiming node, for whoever reads the table: claims are never matched against it. */
  by: string;
  untilMs: number;
}

export type NewDelivery = Omit<DeliveryRecord, 'id' | 'attempts'>;

export type AttemptOutcome = 'succeeded' | 'failed' | 'dropped';

/** A line of a subscription's delivery log. */
export interface AttemptRecord {
  subscriptionId: string;
  eventId: string;
  type: string;
  /** 1, 2, 3…; for a drop, the attempt that was not made. */
  attempt: number;
  outcome: AttemptOutcome;
  status: number | null;
  error: string | null;
  durationMs: number | null;
  at: string;
}

/** A line of the delivery log whose outcome is `O`. */
export type AttemptWith<O extends AttemptOutcome> = AttemptRecord & { outcome: O };

/**
 * What became of one attempt (or of a delivery dropped without one), for `settle`: the delivery's new state goes
 * with the attempt's outcome. A success ends the delivery; a failure leaves it pending, tried again at `nextAt`,
 * or ends it as failed when no attempt is left; a drop ends it untried.
 */
export type Settlement =
  | { state: 'succeeded'; deliveryId: number; attempt: AttemptWith<'succeeded'> }
  | { state: 'pending'; deliveryId: number; attempt: AttemptWith<'failed'>; /** ms since the epoch. */ nextAt: number }
  | { state: 'failed'; deliveryId: number; attempt: AttemptWith<'failed'> }
  | { state: 'dropped'; deliveryId: number; attempt: AttemptWith<'dropped'> };

/** Which of a workspace's subscriptions a list answers: `onlyChannelIds` keeps those limited to these channels. */
export interface SubscriptionPage {
  limit: number;
  after?: string | undefined;
  onlyChannelIds?: readonly string[] | undefined;
}

export interface EventBatch {
  seq: number;
  orgId: string;
  events: EngineEvent[];
}

export interface WebhookStore {
  insertSubscription(s: SubscriptionRecord): Promise<void>;
  getSubscription(id: string): Promise<SubscriptionRecord | undefined>;
  /** A workspace's subscriptions in creation order; `onlyChannelIds` keeps those limited to these channels. */
  listSubscriptions(orgId: string, page: SubscriptionPage): Promise<SubscriptionRecord[]>;
  countSubscriptions(orgId: string): Promise<number>;
  deleteSubscription(id: string): Promise<void>;
  /**
   * Replaces a subscription's secret with `sealedSecret`, atomically: the secret it held becomes the previous one,
   * until `previousExpiresAt` (none when null; a previous secret held before is forgotten either way). Two rolls at
   * once each replace the secret the other left, so the last one's secret is current and the first one's previous.
   * Answers the updated subscription, or undefined when there is none.
   */
  rollSecret(
    id: string,
    sealedSecret: string,
    previousExpiresAt: string | null,
  ): Promise<SubscriptionRecord | undefined>;
  /** Every enabled subscription of every workspace: the dispatcher keeps them in memory. */
  enabledSubscriptions(): Promise<SubscriptionRecord[]>;

  /** Up to `limit` committed event batches after the dispatcher's cursor, oldest first. */
  undispatched(limit: number): Promise<EventBatch[]>;
  /** Inserts deliveries (a repeat of a (subscription, event) is ignored), logs drops, moves the cursor to `seq`. */
  fanOut(seq: number, deliveries: readonly NewDelivery[], drops: readonly AttemptRecord[]): Promise<void>;
  /** Moves the cursor past every batch committed so far, fanning out nothing (no subscription exists). */
  skipUndispatched(): Promise<void>;
  /**
   * Claims up to `limit` of a subscription's pending deliveries due at `now` and under no live claim (none, or
   * one whose `untilMs` is not after `now`), oldest first, for `claim.by` until `claim.untilMs`, atomically: two
   * calls at once, from any nodes, never answer the same delivery while its claim lives.
   */
  claimDue(subscriptionId: string, now: number, limit: number, claim: DeliveryClaim): Promise<DeliveryRecord[]>;
  /**
   * The earliest time after `now` at which a pending delivery may become claimable (its `nextAt`, or the end of
   * a live claim on it), or null. It may come early (a claim that is settled before it ends frees nothing
   * then), never late: a worker that wakes at it also takes over what a dead node left claimed.
   */
  nextDueAt(now: number): Promise<number | null>;
  /**
   * Ends the claims on these deliveries, where they are still pending: a node stopping gracefully gives back what
   * it had in flight, so another node attempts them at once instead of after the claim ran out. Settled deliveries
   * are left alone.
   */
  releaseClaims(deliveryIds: readonly number[]): Promise<void>;
  /** Records attempts (see the guarantees above); answers the ids of subscriptions it disabled. */
  settle(settlements: readonly Settlement[], disableAfter: number): Promise<string[]>;
  /** A subscription's delivery log, oldest first; `after` is the cursor a previous page answered. */
  listAttempts(
    subscriptionId: string,
    page: { limit: number; after?: string | undefined },
  ): Promise<{ attempts: AttemptRecord[]; nextCursor: string | null }>;
  /** Adds a line to a subscription's log without touching its deliveries or failure count (pings). */
  logAttempt(attempt: AttemptRecord): Promise<void>;
  /** Pending deliveries plus committed event batches not yet fanned out. */
  outboxDepth(): Promise<{ pendingDeliveries: number; undispatchedBatches: number }>;
  /** Deletes log lines and finished deliveries older than `olderThan` (ISO 8601); returns how many. */
  pruneDeliveries(olderThan: string): Promise<number>;
}
