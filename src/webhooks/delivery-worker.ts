/**
 * Sends pending deliveries and records every attempt (docs/webhooks.md, "Retries and disabling"). Work is
 * read from storage, a few rows per subscription at a time, so memory holds only what is in flight. How many
 * attempts each subscription, each workspace and the node may have in flight is DeliverySlots' to say (fair
 * shares, and a narrower window for an endpoint that times out); the worker visits the workspaces round-robin,
 * and each workspace's subscriptions round-robin, so none is always served first. Results are written in
 * batches, one transaction per turn of the event loop.
 *
 * Several nodes may run a worker on one database (docs/architecture/several-nodes.md, "Webhooks"): a delivery is
 * claimed for `claimMs` when it is read (WebhookStore.claimDue), so each attempt is made by one worker, and the
 * claim ends when its result is written. A live claim also keeps a worker from reading again what it has in flight
 * itself. A worker that dies mid-attempt leaves its claims to run out, and any worker then makes the attempt again:
 * `claimMs` must outlast an attempt (its timeout) and the writing of its result, with a margin for the nodes'
 * clocks, which judge the claims.
 */
import os from 'node:os';
import type { Logger } from 'pino';
import type { AttemptRecord, DeliveryRecord, Settlement, WebhookStore } from '../store/webhook-store.js';
import { staleDrop } from './outbox-dispatcher.js';
import { DeliverySlots, type SlotLimits } from './delivery-slots.js';
import type { AttemptResult } from './send-attempt.js';
import type { LiveSubscription, SubscriptionIndex } from './subscription-index.js';
import { SinglePass } from './single-pass.js';

export interface DeliveryWorkerDeps {
  store: WebhookStore;
  index: SubscriptionIndex;
  logger: Logger;
  now: () => number;
  send: (target: LiveSubscription, delivery: DeliveryRecord) => Promise<AttemptResult>;
  /** Waits before the 2nd, 3rd… attempt. */
  retryDelaysMs: readonly number[];
  maxAgeMs: number;
  disableAfter: number;
  limits: SlotLimits;
  /** For metrics: each settled attempt or drop. */
  onSettled?: (attempt: AttemptRecord) => void;
  /** Names this node on its claims (default: host and process id). */
  nodeId?: string | undefined;
  /** How long a claim lasts: the attempt timeout plus a margin (webhooks.ts). */
  claimMs: number;
}

/** The default claimant: a name for this process that whoever reads the deliveries table can trace. */
export function defaultNodeId(): string {
  return `${os.hostname()}:${process.pid}`;
}

export class DeliveryWorker {
  /** Attempts in flight (their deliveries stay claimed by this worker meanwhile). */
  private readonly slots: DeliverySlots;
  private readonly nodeId: string;
  private readonly passes = new SinglePass(
    () => this.fill(),
    (err) => {
      this.deps.logger.error({ err }, 'webhook worker failed; retrying in 1 s');
      this.retryIn(1000);
    },
  );
  private timer: NodeJS.Timeout | null = null;
  private queue: { settlement: Settlement; release?: (() => void) | undefined }[] = [];
  private flushing: Promise<void> | null = null;
  private stopped = false;
  /** After stop(): results that still arrive are not written (storage is closing). */
  private closed = false;
  /** Deliveries claimed here whose attempt has not been written yet. */
  private readonly inflight = new Set<number>();
  /** Counts the pumps: where each starts among the workspaces, and among each workspace's subscriptions. */
  private turn = 0;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.nodeId = deps.nodeId ?? defaultNodeId();
    this.slots = new DeliverySlots(deps.limits);
  }

  /** Subscription `id` is gone (deleted, disabled): its slot window is forgotten. */
  forget(id: string): void {
    this.slots.forget(id);
  }

  /** Looks for due work now (new deliveries, a slot freed, a retry due). */
  pump(): void {
    this.passes.request();
  }

  /**
   * Starts no more attempts and writes the results already in. Attempts still in flight are not waited for
   * (an endpoint may take its full timeout): their deliveries stay pending and are sent again under the same
   * delivery id, after a restart or by another node once their claims run out.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.passes.stop();
    await this.flush();
    this.closed = true;
    await this.giveBack();
  }

  /**
   * A graceful stop gives back the claims of attempts still in flight (their results will not be written): another
   * node makes them at once instead of waiting for the claims to run out. An endpoint that got one of them may get
   * it again: deliveries are at least once, deduplicated on their id.
   */
  private async giveBack(): Promise<void> {
    const ids = [...this.inflight];
    this.inflight.clear();
    if (ids.length === 0) return;
    try {
      await this.deps.store.releaseClaims(ids);
      this.deps.logger.info({ deliveries: ids.length }, 'webhook attempts in flight given back to other nodes');
    } catch (err) {
      this.deps.logger.warn(
        { err, deliveries: ids.length },
        'webhook claims not given back: they run out by themselves',
      );
    }
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.slots.inFlight;
  }

  private async fill(): Promise<void> {
    const workspaces = this.deps.index.workspaces();
    const now = this.deps.now();
    const claim = { by: this.nodeId, untilMs: now + this.deps.claimMs };
    const turn = this.turn++;
    for (let i = 0; i < workspaces.length; i++) {
      const subs = workspaces[(turn + i) % workspaces.length]!;
      for (let j = 0; j < subs.length; j++) {
        const sub = subs[(turn + j) % subs.length]!;
        const free = this.slots.room(sub);
        if (free <= 0) continue;
        for (const d of await this.deps.store.claimDue(sub.id, now, free, claim)) this.start(sub, d, now);
      }
    }
    await this.armTimer(now);
  }

  private start(sub: LiveSubscription, d: DeliveryRecord, now: number): void {
    const attempt = d.attempts + 1;
    if (now - Date.parse(d.eventCreatedAt) > this.deps.maxAgeMs) {
      this.settle({
        deliveryId: d.id,
        state: 'dropped',
        attempt: { ...staleDrop(sub.id, { id: d.eventId, type: d.type }, now), attempt },
      });
      return;
    }
    // The slot is held until the result is written (the claim ends then), so the caps count it.
    const free = this.slots.take(sub);
    this.inflight.add(d.id);
    const release = () => {
      this.inflight.delete(d.id);
      free();
    };
    this.deps.send(sub, d).then(
      (result) => {
        if (result.timedOut) this.slots.timedOut(sub.id);
        else if (result.status !== null) this.slots.answered(sub.id);
        this.settle(this.settlement(d, attempt, result), release);
      },
      (err: unknown) => {
        this.deps.logger.error({ err, deliveryId: d.id }, 'webhook attempt failed to settle');
        release();
      },
    );
  }

  private settlement(d: DeliveryRecord, attempt: number, r: AttemptResult): Settlement {
    const record = {
      subscriptionId: d.subscriptionId,
      eventId: d.eventId,
      type: d.type,
      attempt,
      status: r.status,
      error: r.error,
      durationMs: r.durationMs,
      at: new Date(this.deps.now()).toISOString(),
    };
    if (r.ok) return { deliveryId: d.id, attempt: { ...record, outcome: 'succeeded' }, state: 'succeeded' };
    const failed = { ...record, outcome: 'failed' as const };
    const delay = this.deps.retryDelaysMs[attempt - 1];
    if (delay === undefined) return { deliveryId: d.id, attempt: failed, state: 'failed' };
    return { deliveryId: d.id, attempt: failed, state: 'pending', nextAt: this.deps.now() + delay };
  }

  /** Queues a result; one transaction per turn of the event loop writes them all. */
  private settle(s: Settlement, release?: () => void): void {
    if (this.closed) return release?.();
    this.queue.push({ settlement: s, release });
    if (this.queue.length === 1) setImmediate(() => void this.flush().then(() => this.pump()));
  }

  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.write(batch).finally(() => (this.flushing = null));
    await this.flushing;
  }

  private async write(queued: { settlement: Settlement; release?: (() => void) | undefined }[]): Promise<void> {
    const batch = queued.map((q) => q.settlement);
    try {
      const disabled = await this.deps.store.settle(batch, this.deps.disableAfter);
      for (const id of disabled) {
        this.deps.index.remove(id);
        this.deps.logger.warn({ webhookId: id }, 'webhook disabled after consecutive failures');
      }
      for (const s of batch) this.deps.onSettled?.(s.attempt);
    } catch (err) {
      // The deliveries stay pending, and claimed until their claims run out; then they are tried again (the
      // timer wakes for it): an attempt is at least once, never lost.
      this.deps.logger.error({ err, attempts: batch.length }, 'recording webhook attempts failed');
    } finally {
      for (const q of queued) q.release?.();
    }
  }

  /** Wakes at the next retry that falls due. */
  private async armTimer(now: number): Promise<void> {
    if (this.stopped) return;
    const next = await this.deps.store.nextDueAt(now);
    if (next !== null) this.retryIn(Math.max(1, next - this.deps.now()));
  }

  private retryIn(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), ms);
    this.timer.unref();
  }
}
