/**
 * Two connections to the test Redis, as two nodes would hold them, for a suite of a Redis-backed component, and key
 * prefixes of the suite's own; when the suite ends, every key under them is deleted and the connections closed. Call
 * it inside the suite's describe (it registers the suite's beforeAll and afterAll).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { serviceUrl, uniqueName } from './services.js';

export interface RedisNodes {
  readonly redis: Redis;
  readonly other: Redis;
  /** A prefix no other test uses, whose keys go at the end of the suite. */
  freshPrefix(): string;
  keysUnder(prefix: string): Promise<string[]>;
}

export function redisNodes(tag: string): RedisNodes {
  const prefixes: string[] = [];
  let redis: Redis | undefined;
  let other: Redis | undefined;
  const nodes: RedisNodes = {
    get redis() {
      return redis!;
    },
    get other() {
      return other!;
    },
    freshPrefix() {
      const prefix = `${uniqueName(tag)}:`;
      prefixes.push(prefix);
      return prefix;
    },
    async keysUnder(prefix) {
      const out: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await redis!.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        out.push(...keys);
        cursor = next;
      } while (cursor !== '0');
      return out;
    },
  };
  beforeAll(() => {
    redis = new Redis(serviceUrl('redis'));
    other = new Redis(serviceUrl('redis'));
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await nodes.keysUnder(prefix);
      if (keys.length > 0) await redis!.del(...keys);
    }
    redis?.disconnect();
    other?.disconnect();
  });
  return nodes;
}
