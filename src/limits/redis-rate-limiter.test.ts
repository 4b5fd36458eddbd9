import { describe, expect, it } from 'vitest';
import { redisNodes } from '../../test/helpers/redis-nodes.js';
import { serviceGate } from '../../test/helpers/services.js';
import { rateLimiterContract } from './rate-limiter.contract.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

const gate = serviceGate('redis');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(gate.skip)(`RedisRateLimiter${gate.label}`, () => {
  const nodes = redisNodes('rl');

  rateLimiterContract(
    'RedisRateLimiter',
    (clock) => new RedisRateLimiter({ redis: nodes.redis, prefix: nodes.freshPrefix(), clock }),
  );

  describe('beyond the contract', () => {
    it('is exact across nodes: two limiters on two connections, hammered at once, admit exactly `limit`', async () => {
      const prefix = nodes.freshPrefix();
      const a = new RedisRateLimiter({ redis: nodes.redis, prefix });
      const b = new RedisRateLimiter({ redis: nodes.other, prefix });
      const ds = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).take('k', 30, 60_000)));
      const admitted = ds.filter((d) => d.allowed);
      expect(admitted).toHaveLength(30);
      // Each admission saw its own count: the remaining values are 29 … 0, each once.
      expect(admitted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(await nodes.redis.zcard(`${prefix}k`)).toBe(30);
    });

    it('keeps hits made on the same millisecond by two nodes apart', async () => {
      const prefix = nodes.freshPrefix();
      const now = 1_700_000_000_000;
      const a = new RedisRateLimiter({ redis: nodes.redis, prefix, clock: () => now });
      const b = new RedisRateLimiter({ redis: nodes.other, prefix, clock: () => now });
      const ds = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take('k', 30, 1_000)));
      expect(ds.filter((d) => d.allowed)).toHaveLength(30);
      expect(await nodes.redis.zcard(`${prefix}k`)).toBe(30);
    });

    it('takes the time from Redis TIME without a clock', async () => {
      const limiter = new RedisRateLimiter({ redis: nodes.redis, prefix: nodes.freshPrefix() });
      expect((await limiter.take('k', 2, 1_000)).allowed).toBe(true);
      expect((await limiter.take('k', 2, 1_000)).allowed).toBe(true);
      const refused = await limiter.take('k', 2, 1_000);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
      await sleep(refused.retryAfterMs + 5);
      expect((await limiter.take('k', 2, 1_000)).allowed).toBe(true);
    });

    it('keeps a key at most `limit` hits and a window long, then lets it expire', async () => {
      const prefix = nodes.freshPrefix();
      const limiter = new RedisRateLimiter({ redis: nodes.redis, prefix });
      for (let i = 0; i < 50; i++) await limiter.take('k', 10, 5_000);
      expect(await nodes.redis.zcard(`${prefix}k`)).toBe(10);
      const ttl = await nodes.redis.pttl(`${prefix}k`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5_000);

      await limiter.take('short', 3, 50);
      expect(await nodes.redis.pttl(`${prefix}short`)).toBeLessThanOrEqual(50);
      await sleep(120);
      expect(await nodes.redis.exists(`${prefix}short`)).toBe(0);
    });

    it('loads its script again when the server has forgotten it', async () => {
      const limiter = new RedisRateLimiter({ redis: nodes.other, prefix: nodes.freshPrefix() });
      expect((await limiter.take('k', 1, 60_000)).allowed).toBe(true);
      await nodes.other.script('FLUSH');
      expect((await limiter.take('k', 1, 60_000)).allowed).toBe(false);
    });
  });
});
