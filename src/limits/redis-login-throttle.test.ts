import { describe, expect, it } from 'vitest';
import { redisNodes } from '../../test/helpers/redis-nodes.js';
import { serviceGate } from '../../test/helpers/services.js';
import { loginThrottleContract } from './login-throttle.contract.js';
import { LOGIN_RULES } from './login-throttle.js';
import { RedisLoginThrottle } from './redis-login-throttle.js';

const gate = serviceGate('redis');

describe.skipIf(gate.skip)(`RedisLoginThrottle${gate.label}`, () => {
  const nodes = redisNodes('lt');

  loginThrottleContract(
    'RedisLoginThrottle',
    (clock) => new RedisLoginThrottle({ redis: nodes.redis, prefix: nodes.freshPrefix(), clock }),
  );

  describe('beyond the contract', () => {
    const T0 = 1_700_000_000_000;

    it('shares its state across nodes: failures counted on one are refused on the other', async () => {
      const prefix = nodes.freshPrefix();
      let now = T0;
      const a = new RedisLoginThrottle({ redis: nodes.redis, prefix, clock: () => now });
      const b = new RedisLoginThrottle({ redis: nodes.other, prefix, clock: () => now });
      for (let i = 0; i < LOGIN_RULES.freeFailures; i++) await a.failed('owner', '192.0.2.1');
      expect(await b.check('owner', '192.0.2.1')).toEqual({ allowed: false, retryAfterMs: 1_000 });
      now += 1_000;
      expect((await b.check('owner', '192.0.2.1')).allowed).toBe(true);
      await b.succeeded('owner', '192.0.2.1');
      expect(await nodes.redis.exists(`${prefix}p:owner\n192.0.2.1`)).toBe(0);
    });

    it('loses no failure when two nodes count at once', async () => {
      const prefix = nodes.freshPrefix();
      const now = T0;
      const a = new RedisLoginThrottle({ redis: nodes.redis, prefix, clock: () => now });
      const b = new RedisLoginThrottle({ redis: nodes.other, prefix, clock: () => now });
      const n = LOGIN_RULES.addressFailures - 1;
      await Promise.all(Array.from({ length: n }, (_, i) => (i % 2 ? a : b).failed(`acct-${i}`, '192.0.2.9')));
      expect((await a.check('acct-fresh', '192.0.2.9')).allowed).toBe(true);
      await b.failed('acct-last', '192.0.2.9');
      expect((await a.check('acct-fresh', '192.0.2.9')).allowed).toBe(false);

      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).failed('owner', '192.0.2.10')));
      expect(await nodes.redis.hget(`${prefix}p:owner\n192.0.2.10`, 'failures')).toBe('40');
    });

    it('takes the time from Redis TIME without a clock', async () => {
      const t = new RedisLoginThrottle({ redis: nodes.redis, prefix: nodes.freshPrefix() });
      for (let i = 0; i < LOGIN_RULES.freeFailures; i++) {
        expect((await t.check('owner', '192.0.2.1')).allowed).toBe(true);
        await t.failed('owner', '192.0.2.1');
      }
      const refused = await t.check('owner', '192.0.2.1');
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    });

    it('gives every key a TTL no longer than the time it matters', async () => {
      const prefix = nodes.freshPrefix();
      const t = new RedisLoginThrottle({ redis: nodes.redis, prefix });
      await t.failed('owner', '192.0.2.1');
      const pair = await nodes.redis.pttl(`${prefix}p:owner\n192.0.2.1`);
      expect(pair).toBeGreaterThan(LOGIN_RULES.maxDelayMs - 60_000);
      expect(pair).toBeLessThanOrEqual(LOGIN_RULES.maxDelayMs);
      // One failure drains in a period / limit: 9 s for an address, 18 s for an account (+ rounding up and 1 ms).
      const address = await nodes.redis.pttl(`${prefix}a:192.0.2.1`);
      expect(address).toBeGreaterThan(0);
      expect(address).toBeLessThanOrEqual(LOGIN_RULES.periodMs / LOGIN_RULES.addressFailures + 2);
      const account = await nodes.redis.pttl(`${prefix}c:owner`);
      expect(account).toBeGreaterThan(0);
      expect(account).toBeLessThanOrEqual(LOGIN_RULES.periodMs / LOGIN_RULES.accountFailures + 2);

      await t.succeeded('owner', '192.0.2.1');
      expect(await nodes.redis.exists(`${prefix}p:owner\n192.0.2.1`)).toBe(0);
      const trusted = await nodes.redis.pttl(`${prefix}t:owner\n192.0.2.1`);
      expect(trusted).toBeGreaterThan(0);
      expect(trusted).toBeLessThanOrEqual(LOGIN_RULES.trustedForMs);
    });

    it('keeps a pair as long as its account still needs draining, so an address that failed stays known', async () => {
      const prefix = nodes.freshPrefix();
      const now = T0;
      const t = new RedisLoginThrottle({ redis: nodes.redis, prefix, clock: () => now });
      for (let i = 0; i < 200; i++) await t.failed('owner', `10.0.${i}.1`);
      // 200 failures on the account drain in an hour: longer than the pair's own 15 minutes.
      const pair = await nodes.redis.pttl(`${prefix}p:owner\n10.0.199.1`);
      expect(pair).toBeGreaterThan(LOGIN_RULES.maxDelayMs);
      expect(pair).toBeLessThanOrEqual((200 * LOGIN_RULES.periodMs) / LOGIN_RULES.accountFailures + 2);
    });

    it('stores nothing when it refuses', async () => {
      const prefix = nodes.freshPrefix();
      const t = new RedisLoginThrottle({ redis: nodes.redis, prefix, clock: () => T0 });
      for (let i = 0; i < LOGIN_RULES.addressFailures; i++) await t.failed(`acct-${i}`, '192.0.2.1');
      const before = (await nodes.keysUnder(prefix)).length;
      for (let i = 0; i < 500; i++) expect((await t.check(`acct-new-${i}`, '192.0.2.1')).allowed).toBe(false);
      expect((await nodes.keysUnder(prefix)).length).toBe(before);
    });
  });
});
