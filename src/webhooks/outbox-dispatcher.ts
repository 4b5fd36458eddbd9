/**
 * Moves committed events from the event log (the outbox) into durable deliveries, one per matching
 * subscription. It runs after the engine reports a tick durable and reads only what storage holds, so
 * nothing is sent for a change that was not committed, and the tick never waits for it. An event already
 * too old to send is recorded as dropped instead. Reading is bounded per pass: a flood of events waits in
 * the log, not in memory.
 */
import type { Logger } from 'pino';
import type { EngineEvent } from '../engine/index.js';
import type { AttemptRecord, AttemptWith, EventBatch, NewDelivery, WebhookStore } from '../store/webhook-store.js';
import type { SubscriptionIndex } from './subscription-index.js';
import { SinglePass } from './single-pass.js';

/** Event batches read per transaction. */
const BATCHES_PER_PASS = 64;

export const STALE_DROP_MESSAGE = 'dropped: the event is older than 5 minutes';

export interface OutboxDispatcherDeps {
  store: WebhookStore;
  index: SubscriptionIndex;
  logger: Logger;
  now: () => number;
  /** Events older than this are dropped, not sent. */
  maxAgeMs: number;
  /** Called after deliveries were created. */
  onDeliveries: () => void;
}

export class OutboxDispatcher {
  /** Events with ids up to this one are durable; at start everything on disk is. */
  private durableUpTo = '\uffff';
  private readonly passes = new SinglePass(
    () => this.drain(),
    (err) => this.deps.logger.error({ err }, 'webhook dispatch failed; retried on the next event'),
  );

  constructor(private readonly deps: OutboxDispatcherDeps) {}

  /** The engine's onEvents: these events' tick is durable. */
  durable(events: readonly EngineEvent[]): void {
    const last = events[events.length - 1];
    if (!last) return;
    if (this.durableUpTo === '\uffff' || last.id > this.durableUpTo) this.durableUpTo = last.id;
    this.wake();
  }

  /** Fans out whatever is waiting; a wake during a pass runs one more pass after it. */
  wake(): void {
    this.passes.request();
  }

  /** Waits for the pass in progress, and runs no more. */
  async stop(): Promise<void> {
    await this.passes.stop();
  }

  private async drain(): Promise<void> {
    // Nobody to deliver to: the cursor moves on without reading the events.
    if (this.deps.index.size === 0) return this.deps.store.skipUndispatched();
    for (;;) {
      const batches = await this.deps.store.undispatched(BATCHES_PER_PASS);
      const ready = this.durablePrefix(batches);
      if (ready.length === 0) return;
      const { deliveries, drops } = this.expand(ready);
      await this.deps.store.fanOut(ready[ready.length - 1]!.seq, deliveries, drops);
      if (deliveries.length > 0) this.deps.onDeliveries();
      if (ready.length < batches.length || batches.length < BATCHES_PER_PASS) return;
    }
  }

  /** Batches in order up to the first whose tick is not yet known durable. */
  private durablePrefix(batches: EventBatch[]): EventBatch[] {
    const cut = batches.findIndex((b) => b.events[b.events.length - 1]!.id > this.durableUpTo);
    return cut === -1 ? batches : batches.slice(0, cut);
  }

  private expand(batches: EventBatch[]): { deliveries: NewDelivery[]; drops: AttemptRecord[] } {
    const deliveries: NewDelivery[] = [];
    const drops: AttemptRecord[] = [];
    const now = this.deps.now();
    for (const batch of batches) {
      for (const event of batch.events) {
        const targets = this.deps.index.matching(event);
        if (targets.length === 0) continue;
        const stale = now - Date.parse(event.createdAt) > this.deps.maxAgeMs;
        const body = stale ? '' : envelope(event);
        for (const s of targets) {
          if (stale) drops.push(staleDrop(s.id, event, now));
          else
            deliveries.push({
              subscriptionId: s.id,
              eventId: event.id,
              type: event.type,
              eventCreatedAt: event.createdAt,
              body,
              nextAt: now,
            });
        }
      }
    }
    return { deliveries, drops };
  }
}

/** The delivery body (docs/webhooks.md, "Delivery format"): the event's envelope, as GET /v1/events shows it. */
export function envelope(event: EngineEvent): string {
  const { id, type, orgId, channelId, createdAt, data } = event;
  return JSON.stringify({ id, type, orgId, channelId, createdAt, data });
}

export function staleDrop(
  subscriptionId: string,
  event: { id: string; type: string },
  now: number,
): AttemptWith<'dropped'> {
  return {
    subscriptionId,
    eventId: event.id,
    type: event.type,
    attempt: 1,
    outcome: 'dropped',
    status: null,
    error: STALE_DROP_MESSAGE,
    durationMs: null,
    at: new Date(now).toISOString(),
  };
}
