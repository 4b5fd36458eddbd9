/**
 * Outgoing webhooks: attempts by outcome, how long each took, and how much waits in the outbox (pending
 * deliveries, and committed event batches not yet fanned out).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptRecord } from '../store/webhook-store.js';
import type { WebhookRecorder } from '../webhooks/webhooks.js';

/** Seconds: a local receiver answers in a millisecond, a distant one in hundreds, a dead one at the timeout. */
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface OutboxDepth {
  pendingDeliveries: number;
  undispatchedBatches: number;
}

export function webhookMetrics(registry: Registry, depth: () => Promise<OutboxDepth>): WebhookRecorder {
  const registers = [registry];
  const deliveries = new Counter({
    name: 'onair_webhook_deliveries_total',
    help: 'Delivery attempts by outcome (succeeded, failed) and deliveries dropped unsent (dropped)',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of ['succeeded', 'failed', 'dropped']) deliveries.inc({ outcome }, 0);
  const duration = new Histogram({
    name: 'onair_webhook_attempt_duration_seconds',
    help: 'Seconds each delivery attempt took, from the request to the answer or the error',
    buckets: ATTEMPT_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'onair_webhook_outbox_depth',
    help: 'Outgoing webhook work waiting: pending deliveries, and event batches not yet fanned out',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const d = await depth();
      this.set({ kind: 'deliveries' }, d.pendingDeliveries);
      this.set({ kind: 'event_batches' }, d.undispatchedBatches);
    },
  });
  return {
    settled(a: AttemptRecord) {
      deliveries.inc({ outcome: a.outcome });
      if (a.durationMs !== null) duration.observe(a.durationMs / 1000);
    },
  };
}
