/**
 * What one node of several runs on (docs/architecture/several-nodes.md): the Postgres store fenced by the node's
 * channel leases, the Redis broker, rate limiter and login throttle, and the cluster bus. main.ts picks these instead
 * of the single node's SQLite and in-memory parts when ONAIR_DATABASE_URL and ONAIR_REDIS_URL are set.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import { AppError } from '../errors.js';
import type { LoginThrottle } from '../limits/login-throttle.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { RedisLoginThrottle } from '../limits/redis-login-throttle.js';
import { RedisRateLimiter } from '../limits/redis-rate-limiter.js';
import { Database } from '../store/postgres/database.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { ChannelLeases } from './channel-leases.js';
import { ClusterBus } from './cluster-bus.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { RedisBroker } from './redis-broker.js';

export interface ClusterConfig {
  databaseUrl: string;
  redisUrl: string;
  /** Before every Redis key and channel name: several deployments can share one Redis. */
  redisPrefix: string;
  nodeId: string;
}

export interface ClusterParts {
  nodeId: string;
  store: PostgresStore;
  leases: ChannelLeases;
  broker: RedisBroker;
  bus: ClusterBus;
  limiter: RateLimiter;
  loginThrottle: LoginThrottle;
  /** Revocations made on this node reach the others' caches (and theirs reach this one). Returns the stop function. */
  shareRevocations(auth: Authenticator): () => void;
  /**
   * Subscriptions created, deleted or disabled on one node reach the others' dispatchers at once; every node also
   * reads them again and looks for deliveries to make every 2 s (a missed message, another node's fan-out).
   */
  shareWebhooks(webhooks: Pick<Webhooks, 'resync' | 'onSubscriptionsChanged'>): () => void;
  close(): Promise<void>;
}

/** Connects to Postgres (migrating it) and Redis; rejects, closing what it opened, when either cannot be reached. */
export async function openCluster(config: ClusterConfig, logger: Logger): Promise<ClusterParts> {
  const opened: { close(): Promise<unknown> }[] = [];
  try {
    const leaseDb = new Database(config.databaseUrl, 2);
    opened.push(leaseDb);
    const leases = new ChannelLeases(leaseDb, { nodeId: config.nodeId });
    const store = await PostgresStore.open({ url: config.databaseUrl, fence: (tx, ids) => leases.fence(tx, ids) });
    opened.push(store);
    await leases.migrate();
    const onListenerError = (err: unknown) => logger.error({ err }, 'broker listener failed');
    const prefix = config.redisPrefix;
    const broker = await RedisBroker.connect({ url: config.redisUrl, prefix, onListenerError });
    opened.push(broker);
    const bus = await ClusterBus.connect({
      url: config.redisUrl,
      nodeId: config.nodeId,
      prefix,
      onError: (err) => logger.error({ err }, 'cluster message failed'),
    });
    opened.push(bus);
    const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    redis.on('error', (err: unknown) => logger.warn({ err }, 'redis connection error'));
    await redis.connect();
    opened.push({ close: () => redis.quit() });
    const parts: ClusterParts = {
      nodeId: config.nodeId,
      store,
      leases,
      broker,
      bus,
      limiter: unavailableWithoutRedis(new RedisRateLimiter({ redis, prefix: `${prefix}rl:` })),
      loginThrottle: unavailableWithoutRedis(new RedisLoginThrottle({ redis, prefix: `${prefix}lt:` })),
      shareRevocations: (auth) => shareRevocations(auth, bus),
      shareWebhooks: (webhooks) => shareWebhooks(webhooks, bus, logger),
      close: async () => {
        for (const part of opened.reverse()) await part.close().catch(() => {});
      },
    };
    return parts;
  } catch (err) {
    for (const part of opened.reverse()) await part.close().catch(() => {});
    throw err;
  }
}

/** A key revoked on one node is dropped from every node's cache (and its WebSockets closed) within a message. */
function shareRevocations(auth: Authenticator, bus: ClusterBus): () => void {
  let hearing = false;
  const stopListening = bus.onControl((body) => {
    const message = body as { kind?: string; keyId?: unknown };
    if (message.kind !== 'key-revoked' || typeof message.keyId !== 'string') return;
    hearing = true;
    try {
      auth.revoked(message.keyId);
    } finally {
      hearing = false;
    }
  });
  const stopTelling = auth.onRevoked((keyId) => {
    if (!hearing) void bus.broadcast({ kind: 'key-revoked', keyId }).catch(() => {});
  });
  return () => {
    stopListening();
    stopTelling();
  };
}

function shareWebhooks(webhooks: Pick<Webhooks, 'resync' | 'onSubscriptionsChanged'>, bus: ClusterBus, logger: Logger) {
  const resync = () =>
    webhooks.resync().catch((err: unknown) => logger.warn({ err }, 'webhook subscriptions not read again'));
  webhooks.onSubscriptionsChanged(() => void bus.broadcast({ kind: 'webhooks-changed' }).catch(() => {}));
  const stopListening = bus.onControl((body) => {
    if ((body as { kind?: string }).kind === 'webhooks-changed') void resync();
  });
  const timer = setInterval(() => void resync(), 2_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    stopListening();
  };
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
