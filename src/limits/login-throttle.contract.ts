/**
 * The guarantees of LoginThrottle (see login-throttle.ts), as one suite every implementation runs:
 * `loginThrottleContract('MemoryLoginThrottle', (clock) => new MemoryLoginThrottle(clock))`.
 * The factory receives a manual clock (milliseconds); the suite moves it, so nothing here sleeps.
 */
import { describe, expect, it } from 'vitest';
import { LOGIN_RULES, type LoginThrottle } from './login-throttle.js';

export type LoginThrottleFactory = (clock: () => number) => LoginThrottle | Promise<LoginThrottle>;

const T0 = 1_700_000_000_000;
const OWNER = 'acct-owner';
const HOME = '198.51.100.7';

export function loginThrottleContract(name: string, factory: LoginThrottleFactory): void {
  describe(`LoginThrottle contract: ${name}`, () => {
    let now = T0;
    const open = async () => {
      now = T0;
      return factory(() => now);
    };
    const fail = async (t: LoginThrottle, account: string, address: string, times: number) => {
      for (let i = 0; i < times; i++) {
        expect((await t.check(account, address)).allowed, `failure ${i + 1} of ${times}`).toBe(true);
        await t.failed(account, address);
      }
    };

    it('lets successes through without limit: they are not counted', async () => {
      const t = await open();
      for (let i = 0; i < 200; i++) {
        expect((await t.check(OWNER, HOME)).allowed).toBe(true);
        await t.succeeded(OWNER, HOME);
      }
    });

    it('gives an (account, address) pair 5 free failures, then growing delays', async () => {
      const t = await open();
      await fail(t, OWNER, HOME, LOGIN_RULES.freeFailures);
      const first = await t.check(OWNER, HOME);
      expect(first.allowed).toBe(false);
      expect(first.retryAfterMs).toBe(1_000);
      now += 1_000;
      await fail(t, OWNER, HOME, 1);
      expect((await t.check(OWNER, HOME)).retryAfterMs).toBe(2_000);
      now += 2_000;
      await fail(t, OWNER, HOME, 1);
      expect((await t.check(OWNER, HOME)).retryAfterMs).toBe(4_000);
      now += 3_999;
      expect((await t.check(OWNER, HOME)).allowed).toBe(false);
      now += 1;
      expect((await t.check(OWNER, HOME)).allowed).toBe(true);
    });

    it('caps the delay at 15 minutes', async () => {
      const t = await open();
      for (let i = 0; i < 30; i++) {
        const d = await t.check(OWNER, HOME);
        now += d.retryAfterMs;
        await t.failed(OWNER, HOME);
      }
      const d = await t.check(OWNER, HOME);
      expect(d.allowed).toBe(false);
      expect(d.retryAfterMs).toBe(LOGIN_RULES.maxDelayMs);
    });

    it('resets the pair on success', async () => {
      const t = await open();
      await fail(t, OWNER, HOME, LOGIN_RULES.freeFailures);
      now += 1_000;
      await t.succeeded(OWNER, HOME);
      await fail(t, OWNER, HOME, LOGIN_RULES.freeFailures);
    });

    it('does not slow another address or another account', async () => {
      const t = await open();
      await fail(t, OWNER, HOME, LOGIN_RULES.freeFailures);
      expect((await t.check(OWNER, HOME)).allowed).toBe(false);
      expect((await t.check(OWNER, '203.0.113.9')).allowed).toBe(true);
      expect((await t.check('acct-other', HOME)).allowed).toBe(true);
    });

    it('refuses an address past 100 failures across accounts, until they leak away', async () => {
      const t = await open();
      for (let i = 0; i < LOGIN_RULES.addressFailures; i++) await fail(t, `acct-${i}`, HOME, 1);
      const refused = await t.check('acct-fresh', HOME);
      expect(refused.allowed).toBe(false);
      now += refused.retryAfterMs;
      expect((await t.check('acct-fresh', HOME)).allowed).toBe(true);
      expect((await t.check('acct-fresh', '203.0.113.9')).allowed).toBe(true);
    });

    it('holds the address ceiling when the failures come over time, and drains it within 15 minutes', async () => {
      const t = await open();
      for (let i = 0; i < LOGIN_RULES.addressFailures; i++) {
        now += 50;
        await fail(t, `acct-${i}`, HOME, 1);
      }
      const refused = await t.check('acct-fresh', HOME);
      expect(refused.allowed).toBe(false);
      // One failure drains every 9 s: the refusal lasts under that, and then exactly one more fits.
      expect(refused.retryAfterMs).toBeLessThanOrEqual(LOGIN_RULES.periodMs / LOGIN_RULES.addressFailures);
      now += refused.retryAfterMs;
      await fail(t, 'acct-fresh', HOME, 1);
      expect((await t.check('acct-fresher', HOME)).allowed).toBe(false);
      now += LOGIN_RULES.periodMs;
      for (let i = 0; i < LOGIN_RULES.addressFailures; i++) await fail(t, `acct-later-${i}`, HOME, 1);
      expect((await t.check('acct-fresh', HOME)).allowed).toBe(false);
    });

    it('past 50 failures on an account, refuses the addresses that failed and admits the others', async () => {
      const t = await open();
      for (let i = 0; i < LOGIN_RULES.accountFailures; i++) await fail(t, OWNER, `10.0.${i}.1`, 1);
      const locked = await t.check(OWNER, '10.0.0.1');
      expect(locked.allowed).toBe(false);
      expect((await t.check(OWNER, HOME)).allowed).toBe(true);
      now += locked.retryAfterMs;
      expect((await t.check(OWNER, '10.0.0.1')).allowed).toBe(true);
    });

    it('admits an address that signed in to the account before, even after it mistyped, during an attack', async () => {
      const t = await open();
      await t.succeeded(OWNER, HOME);
      now += 60_000;
      await fail(t, OWNER, HOME, 1);
      for (let i = 0; i < LOGIN_RULES.accountFailures; i++) await fail(t, OWNER, `10.0.${i}.1`, 1);
      expect((await t.check(OWNER, '10.0.0.1')).allowed).toBe(false);
      expect((await t.check(OWNER, HOME)).allowed).toBe(true);
    });

    it('refusing stores nothing: a refused stream of new accounts leaves the size alone', async () => {
      const t = await open();
      for (let i = 0; i < LOGIN_RULES.addressFailures; i++) await fail(t, `acct-${i}`, HOME, 1);
      for (let i = 0; i < 5_000; i++) expect((await t.check(`acct-new-${i}`, HOME)).allowed).toBe(false);
    });
  });
}
