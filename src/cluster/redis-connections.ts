/**
 * A node's Redis connections (broker, cluster bus, limits), watched in one place. ioredis reconnects by itself and
 * emits an `error` on every failed attempt; a log line each time would flood the log during an outage. So each
 * connection's trouble is logged once per outage: the first error after it was healthy (warn), then `redis
 * reconnected` (info) once it is ready again. failure() says whether Redis is usable now, for /healthz.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

interface Watched {
  name: string;
  /** Since the first error after the connection was last ready. */
  down: boolean;
  lastError: string | null;
}

export class RedisConnections {
  private readonly watched = new Map<Redis, Watched>();

  constructor(private readonly logger: Logger) {}

  /** Watches `redis` under `name` (a label for logs: "broker subscriber"); returns it. */
  watch(name: string, redis: Redis): Redis {
    const entry: Watched = { name, down: false, lastError: null };
    this.watched.set(redis, entry);
    redis.on('error', (err: Error) => {
      entry.lastError = err.message;
      if (entry.down) return;
      entry.down = true;
      this.logger.warn({ err, connection: name }, 'redis connection failed; retrying until it is back');
    });
    redis.on('ready', () => {
      if (!entry.down) return;
      entry.down = false;
      this.logger.info({ connection: name }, 'redis reconnected');
    });
    return redis;
  }

  /**
   * A command on a watched connection that failed with nobody waiting for its answer (an unsubscribe, a reply to
   * another node): logged as the connection's own errors are, once per outage.
   */
  failed(redis: Redis, err: unknown, what: string): void {
    const entry = this.watched.get(redis);
    if (entry?.down) return;
    this.logger.warn({ err, connection: entry?.name }, `redis ${what} failed`);
  }

  /**
   * Why Redis cannot be used right now, or null: a connection that is neither ready nor closed on purpose (reconnecting
   * after a failure). Connections not connected yet do not count: a node is not ready before they are.
   */
  failure(): string | null {
    for (const [redis, { name, lastError }] of this.watched) {
      if (redis.status === 'ready' || redis.status === 'wait' || redis.status === 'end') continue;
      return `Redis is unreachable (${name}: ${lastError ?? redis.status}).`;
    }
    return null;
  }
}
