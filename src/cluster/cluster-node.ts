/**
 * What one node of several runs on (docs/architecture/several-nodes.md): the Postgres store fenced by the node's
 * channel leases, the Redis broker, rate limiter and login throttle, the cluster bus and its announcements. main.ts
 * picks these instead of the single node's SQLite and in-memory parts when ONAIR_DATABASE_URL and ONAIR_REDIS_URL
 * are set, and the cluster engine (cluster-engine.ts) instead of a FrameEngine alone.
 *
 * Every connection's trouble is logged: Redis once per outage (redis-connections.ts), a Postgres connection that
 * dies idle each time, a part that fails to close at shutdown.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Outputs } from '../outputs/outputs.js';
import { AppError } from '../errors.js';
import type { LoginThrottle } from '../limits/login-throttle.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { RedisLoginThrottle } from '../limits/redis-login-throttle.js';
import { RedisRateLimiter } from '../limits/redis-rate-limiter.js';
import { Database } from '../store/postgres/database.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { Announcements, type ChannelAnnouncementHandlers } from './announcements.js';
import { ChannelLeases } from './channel-leases.js';
import { ClusterBus } from './cluster-bus.js';
import { RedisBroker } from './redis-broker.js';
import { RedisConnections } from './redis-connections.js';

export interface ClusterConfig {
  databaseUrl: string;
  redisUrl: string;
  /** Before every Redis key and channel name: several deployments can share one Redis. */
  redisPrefix: string;
  nodeId: string;
}

/** Who acts on other nodes' announcements (ClusterParts.hear). */
export interface Listeners {
  /** The cluster engine's `heard`. */
  channels: ChannelAnnouncementHandlers;
  /** Revocations made on this node reach the others' caches (and theirs reach this one). */
  auth: Pick<Authenticator, 'revoked' | 'onRevoked'>;
  /** The other nodes' outputs (outputs/outputs.ts). */
  outputs: Pick<Outputs, 'heard'>;
}

export interface Hearing {
  /**
   * From now on, subscriptions created, deleted or disabled on one node reach the others' dispatchers at once, and
   * this node reads them again and looks for deliveries to make every 2 s (a missed message, another node's fan-out).
   * Called once the dispatcher has started (it reads the subscriptions itself when it starts).
   */
  shareWebhooks(webhooks: Pick<Webhooks, 'resync' | 'onSubscriptionsChanged'>): void;
  stop(): void;
}

export interface ClusterParts {
  nodeId: string;
  store: PostgresStore;
  leases: ChannelLeases;
  broker: RedisBroker;
  bus: ClusterBus;
  announcements: Announcements;
  limiter: RateLimiter;
  loginThrottle: LoginThrottle;
  /** Where in each frame this node's clocks tick (EngineDeps.clockPhase): from the node id, so nodes differ. */
  clockPhase: number;
  /** Why Redis cannot be used right now, or null (for /healthz). */
  redisFailure(): string | null;
  /** Starts acting on other nodes' announcements (all of them: Announcements.hear), and announcing this node's. */
  hear(listeners: Listeners): Hearing;
  close(): Promise<void>;
}

interface Closable {
  name: string;
  close(): Promise<unknown>;
}

/** Connects to Postgres (migrating it) and Redis; rejects, closing what it opened, when either cannot be reached. */
export async function openCluster(config: ClusterConfig, logger: Logger): Promise<ClusterParts> {
  const opened: Closable[] = [];
  const closeAll = async () => {
    for (const part of opened.reverse())
      await part.close().catch((err: unknown) => logger.warn({ err, part: part.name }, 'closing failed'));
  };
  try {
    const parts = await openParts(config, logger, opened);
    return { ...parts, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

async function openParts(
  config: ClusterConfig,
  logger: Logger,
  opened: Closable[],
): Promise<Omit<ClusterParts, 'close'>> {
  const onPoolError = (pool: string) => (err: unknown) =>
    logger.warn({ err, pool }, 'a postgres connection died; the next statement opens another');
  const leaseDb = new Database(config.databaseUrl, { poolSize: 2, onError: onPoolError('leases') });
  opened.push({ name: 'lease pool', close: () => leaseDb.close() });
  const leases = new ChannelLeases(leaseDb, { nodeId: config.nodeId });
  const store = await PostgresStore.open({
    url: config.databaseUrl,
    fence: (tx, ids) => leases.fence(tx, ids),
    onPoolError: onPoolError('store'),
  });
  opened.push({ name: 'store', close: () => store.close() });
  await leases.migrate();
  const connections = new RedisConnections(logger);
  const onListenerError = (err: unknown) => logger.error({ err }, 'broker listener failed');
  const prefix = config.redisPrefix;
  const broker = await RedisBroker.connect({ url: config.redisUrl, prefix, onListenerError, connections });
  opened.push({ name: 'broker', close: () => broker.close() });
  const onError = (err: unknown) => logger.error({ err }, 'cluster message failed');
  const bus = await ClusterBus.connect({ url: config.redisUrl, nodeId: config.nodeId, prefix, connections, onError });
  opened.push({ name: 'bus', close: () => bus.close() });
  const redis = connections.watch('limits', new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 }));
  // Closed even if it never connected: ioredis would go on retrying.
  opened.push({
    name: 'limits',
    close: async () => void (redis.status === 'ready' ? await redis.quit() : redis.disconnect()),
  });
  await redis.connect();
  const announcements = new Announcements(bus, logger);
  return {
    nodeId: config.nodeId,
    store,
    leases,
    broker,
    bus,
    announcements,
    limiter: unavailableWithoutRedis(new RedisRateLimiter({ redis, prefix: `${prefix}rl:` })),
    loginThrottle: unavailableWithoutRedis(new RedisLoginThrottle({ redis, prefix: `${prefix}lt:` })),
    clockPhase: clockPhase(config.nodeId),
    redisFailure: () => connections.failure(),
    hear: (listeners) => hear(announcements, listeners, logger),
  };
}

/** Every announcement of the other nodes, to its listener; this node's revocations and webhook changes, to them. */
function hear(announcements: Announcements, { channels, auth, outputs }: Listeners, logger: Logger): Hearing {
  let hearing = false;
  let resync = () => {};
  let timer: NodeJS.Timeout | undefined;
  const stopHearing = announcements.hear({
    ...channels,
    keyRevoked(keyId) {
      // Dropped here without being announced again (auth.revoked tells this node's onRevoked listeners).
      hearing = true;
      try {
        auth.revoked(keyId);
      } finally {
        hearing = false;
      }
    },
    webhooksChanged: () => resync(),
    outputsShared: (node, summary) => outputs.heard(node, summary),
  });
  const stopTelling = auth.onRevoked((keyId) => {
    if (!hearing) announcements.announce({ kind: 'key-revoked', keyId });
  });
  return {
    shareWebhooks(webhooks) {
      resync = () =>
        void webhooks.resync().catch((err: unknown) => logger.warn({ err }, 'webhook subscriptions not read again'));
      webhooks.onSubscriptionsChanged(() => announcements.announce({ kind: 'webhooks-changed' }));
      timer = setInterval(resync, 2_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      stopHearing();
      stopTelling();
    },
  };
}

/**
 * The node's clock phase, in [0, 0.5) of a frame: a hash of its id, so nodes sharing a machine tick at different
 * moments of each frame. Under half a frame, so a tick keeps most of its frame to finish in.
 */
export function clockPhase(nodeId: string): number {
  const hash = createHash('sha256').update(nodeId).digest().readUInt32BE(0);
  return (hash / 2 ** 32) * 0.5;
}

/**
 * A limit that cannot be checked is not waived: while Redis is unreachable, what needs it is refused with
 * `503 unavailable` and Retry-After (not a 500).
 */
function unavailableWithoutRedis<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, name, receiver) {
      const value: unknown = Reflect.get(obj, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args).catch((err: unknown) => {
          if (err instanceof AppError) throw err;
          throw new AppError('unavailable', 'Limits cannot be checked right now (Redis is unreachable); retry.', {
            retryAfter: 1,
          });
        });
    },
  });
}
