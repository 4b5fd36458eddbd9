/**
 * One server's metrics: a prom-client Registry owned by the server (several servers can run in one
 * process, as tests do), the families of each part, and the text /metrics answers with. Metric names and
 * labels are listed in docs/api.md ("Operations").
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { Engine } from '../engine/index.js';
import { droppedLogLines } from '../logger.js';
import type { LoginThrottle } from '../limits/login-throttle.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { StoreTimings } from '../store/sqlite/sqlite-store.js';
import { SocketCounters } from '../transport/render-socket.js';
import { engineMetrics, type EngineRecorder } from './engine-metrics.js';
import { httpMetrics, type RequestRecorder } from './http-metrics.js';
import { countLoginThrottle, countRefusals } from './limit-metrics.js';
import { processRegistry } from './process-metrics.js';
import { outputMetrics } from './output-metrics.js';
import { socketMetrics } from './socket-metrics.js';
import { sourceMetrics } from './source-metrics.js';
import { storageMetrics } from './storage-metrics.js';
import { webhookMetrics, type OutboxDepth } from './webhook-metrics.js';
import type { WebhookRecorder } from '../webhooks/webhooks.js';
import { OutputCounters } from '../outputs/output-counters.js';
import type { OutputHealth } from '@onair/protocol';
import type { SourceRecorder } from '../sources/data-sources.js';

export interface MetricSources {
  version: string;
  engine: Pick<Engine, 'clockStats'>;
  /** Store.failure(): why writes can no longer be confirmed, or null. */
  storageFailure: () => string | null;
  outboxDepth: () => Promise<OutboxDepth>;
  /** The outputs connected now, by health (read when scraped). */
  outputsByHealth?: () => Record<OutputHealth, number>;
}

export interface ServerMetrics {
  engine: EngineRecorder;
  storage: StoreTimings;
  /** Counts the render socket keeps; the transport is handed them. */
  sockets: SocketCounters;
  /** Counts the outputs keep; the outputs are handed them. */
  outputs: OutputCounters;
  request: RequestRecorder;
  webhooks: WebhookRecorder;
  sources: SourceRecorder;
  /** The limiter, counting its refusals. */
  countRefusals(limiter: RateLimiter): RateLimiter;
  /** The login throttle, counting failed sign-ins and its refusals. */
  countLoginThrottle(throttle: LoginThrottle): LoginThrottle;
  /** The Prometheus text exposition: this server's families and the process's. */
  render(): Promise<string>;
}

export function createServerMetrics(sources: MetricSources): ServerMetrics {
  const registry = new Registry();
  new Gauge({
    name: 'onair_build_info',
    help: 'Always 1; the running version is in the label',
    labelNames: ['version'] as const,
    registers: [registry],
  }).set({ version: sources.version }, 1);
  let droppedSeen = 0;
  new Counter({
    name: 'onair_log_lines_dropped_total',
    help: 'Log lines dropped because stdout could not keep up (at most 2 MiB wait to be written)',
    registers: [registry],
    collect() {
      const now = droppedLogLines();
      this.inc(now - droppedSeen);
      droppedSeen = now;
    },
  });
  const sockets = new SocketCounters();
  socketMetrics(registry, sockets);
  const outputs = new OutputCounters();
  outputMetrics(registry, outputs, sources.outputsByHealth ?? (() => ({ ok: 0, lagging: 0, error: 0 })));
  return {
    engine: engineMetrics(registry, sources.engine),
    storage: storageMetrics(registry, sources.storageFailure),
    sockets,
    outputs,
    request: httpMetrics(registry),
    webhooks: webhookMetrics(registry, sources.outboxDepth),
    sources: sourceMetrics(registry),
    countRefusals: (limiter) => countRefusals(registry, limiter),
    countLoginThrottle: (throttle) => countLoginThrottle(registry, throttle),
    render: () => Registry.merge([processRegistry(), registry]).metrics(),
  };
}
