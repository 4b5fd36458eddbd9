/**
 * Outgoing webhooks put together: what the subscription operations need (subscription-desk.ts), the dispatcher that turns
 * committed events into deliveries, and the worker that sends them, each subscription through a guarded agent
 * of its own (endpoint-pools.ts). main.ts starts it after the engine and stops it before the store closes.
 */
import type { Logger } from 'pino';
import type { EngineEvent } from '../engine/index.js';
import type { AttemptRecord, WebhookStore } from '../store/webhook-store.js';
import { DeliveryWorker } from './delivery-worker.js';
import type { SlotLimits } from './delivery-slots.js';
import { createGuardedAgent, type GuardedAgentOptions, type Resolve } from './endpoint-guard/index.js';
import { EndpointPools } from './endpoint-pools.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';
import { SecretBox } from '../crypto/secret-box.js';
import { sendAttempt, type AttemptTarget } from './send-attempt.js';
import { SubscriptionIndex } from './subscription-index.js';
import { createSubscriptionDesk, type SubscriptionDesk } from './subscription-desk.js';

/** An attempt is never started for an event older than this. */
export const MAX_EVENT_AGE_MS = 5 * 60_000;
/** Consecutive failed attempts that disable a subscription. */
export const DISABLE_AFTER = 20;
/** The delivery log keeps a week, like the event log. */
const LOG_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** Attempts in flight (delivery-slots.ts): per subscription at most, per workspace, in all, a workspace's minimum. */
export const SLOT_LIMITS: SlotLimits = { perEndpoint: 8, perWorkspace: 32, overall: 128, workspaceMinimum: 4 };
/**
 * A delivery's claim outlasts its attempt's timeout by this much (30 s with the default 10 s timeout): time to
 * write the result, and room for the nodes' clocks to disagree. A node that dies mid-attempt holds its deliveries
 * for that long; then another node makes the attempts again.
 */
export const CLAIM_MARGIN_MS = 20_000;

export interface WebhookSettings {
  allowPrivate: boolean;
  retryDelaysMs: number[];
  timeoutMs: number;
  /** TCP + TLS handshake deadline per address (ONAIR_WEBHOOK_CONNECT_TIMEOUT_MS); never more than `timeoutMs`. */
  connectTimeoutMs: number;
  secretKey: string | undefined;
  dataDir: string;
  version: string;
  /** Tests only: the resolver deliveries and saves use (default: the system's). */
  resolve?: Resolve | undefined;
  /** Tests only: certificates to trust besides the system's. */
  trustedCa?: string | undefined;
  /** Names this node on the deliveries it claims (several nodes); default: host and process id. */
  nodeId?: string | undefined;
}

export interface WebhookRecorder {
  settled(attempt: AttemptRecord): void;
}

export interface Webhooks {
  /** What the webhook operations need (operations/webhooks.ts). */
  desk: SubscriptionDesk;
  /** Seals signing secrets: incoming hooks keep theirs with the same key. */
  box: SecretBox;
  /** The engine's onEvents: a tick with these events is durable. */
  durable(events: readonly EngineEvent[]): void;
  /**
   * Several nodes: reads the enabled subscriptions again (another node created, deleted or disabled one) and looks
   * for work (deliveries another node fanned out, claims that expired).
   */
  resync(): Promise<void>;
  /** Several nodes: `listener` runs when this node creates, deletes or disables a subscription, or rolls its secret. */
  onSubscriptionsChanged(listener: () => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWebhooks(
  deps: { store: WebhookStore; logger: Logger; recorder?: WebhookRecorder | undefined },
  settings: WebhookSettings,
): Webhooks {
  const { box, created } = SecretBox.open(settings.secretKey, settings.dataDir);
  const logger = deps.logger.child({ component: 'webhooks' });
  if (created) logger.info('generated the key that seals webhook secrets (secret.key in the data directory)');
  if (settings.allowPrivate) {
    logger.warn(
      'ONAIR_WEBHOOK_ALLOW_PRIVATE is on: webhooks and data sources may reach http and private addresses (tests only)',
    );
  }
  const connectTimeoutMs = Math.min(settings.connectTimeoutMs, settings.timeoutMs);
  const agentOptions: GuardedAgentOptions = {
    allowPrivate: settings.allowPrivate,
    resolve: settings.resolve,
    connections: SLOT_LIMITS.perEndpoint,
    connectTimeoutMs,
    tls: settings.trustedCa ? { ca: settings.trustedCa } : undefined,
  };
  const pools = new EndpointPools(() => createGuardedAgent(agentOptions), logger);
  const sendOptions = {
    timeoutMs: settings.timeoutMs,
    connectTimeoutMs,
    userAgent: `onair-webhooks/${settings.version}`,
  };
  let resyncing = false;
  let changed: () => void = () => {};
  const index = new SubscriptionIndex(
    box,
    () => {
      if (!resyncing) changed();
    },
    // Only ever called after the worker exists: nothing is removed while the index is being made.
    (id) => {
      worker.forget(id);
      pools.drop(id);
    },
  );
  const worker = new DeliveryWorker({
    store: deps.store,
    index,
    logger,
    now: Date.now,
    send: (sub, d) =>
      sendAttempt(
        sub,
        { eventId: d.eventId, type: d.type, body: Buffer.from(d.body) },
        { ...sendOptions, agent: pools.for(sub.id) },
      ),
    retryDelaysMs: settings.retryDelaysMs,
    maxAgeMs: MAX_EVENT_AGE_MS,
    disableAfter: DISABLE_AFTER,
    limits: SLOT_LIMITS,
    onSettled: deps.recorder ? (a) => deps.recorder!.settled(a) : undefined,
    nodeId: settings.nodeId,
    claimMs: settings.timeoutMs + CLAIM_MARGIN_MS,
  });
  const dispatcher = new OutboxDispatcher({
    store: deps.store,
    index,
    logger,
    now: Date.now,
    maxAgeMs: MAX_EVENT_AGE_MS,
    onDeliveries: () => worker.pump(),
  });
  // A ping is rare and may go to a disabled subscription: a pool of its own, closed after it.
  const ping = async (target: AttemptTarget, body: Buffer, eventId: string) => {
    const agent = createGuardedAgent({ ...agentOptions, connections: 1 });
    try {
      return await sendAttempt(target, { eventId, type: 'webhook.ping', body }, { ...sendOptions, agent });
    } finally {
      await agent.destroy();
    }
  };
  const desk = createSubscriptionDesk({
    box,
    index,
    allowPrivate: settings.allowPrivate,
    resolve: settings.resolve,
    send: ping,
  });
  const prune = () =>
    deps.store
      .pruneDeliveries(new Date(Date.now() - LOG_RETENTION_MS).toISOString())
      .then((pruned) => pruned > 0 && logger.info({ pruned }, 'webhook delivery log pruned'))
      .catch((err: unknown) => logger.error({ err }, 'pruning the webhook delivery log failed'));
  let pruner: NodeJS.Timeout | undefined;
  return {
    desk,
    box,
    durable: (events) => dispatcher.durable(events),
    async resync() {
      const enabled = await deps.store.enabledSubscriptions();
      const ids = new Set(enabled.map((e) => e.id));
      resyncing = true;
      try {
        for (const live of [...index.all()]) if (!ids.has(live.id)) index.remove(live.id);
        // put, not add: a subscription this node holds may have had its secret rolled on another node.
        for (const record of enabled) index.put(record);
      } finally {
        resyncing = false;
      }
      dispatcher.wake();
      worker.pump();
    },
    onSubscriptionsChanged(listener) {
      changed = listener;
    },
    async start() {
      await prune();
      pruner = setInterval(() => void prune(), PRUNE_EVERY_MS);
      pruner.unref();
      resyncing = true;
      try {
        for (const s of await deps.store.enabledSubscriptions()) index.add(s);
      } finally {
        resyncing = false;
      }
      // What a crash or a stop left: events committed but not fanned out, and deliveries still pending.
      dispatcher.wake();
      worker.pump();
    },
    async stop() {
      clearInterval(pruner);
      await dispatcher.stop();
      await worker.stop();
      await pools.destroy();
    },
  };
}
