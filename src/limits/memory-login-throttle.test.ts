import { describe, expect, it } from 'vitest';
import { loginThrottleContract } from './login-throttle.contract.js';
import { throttleAddress } from './login-throttle.js';
import { MemoryLoginThrottle } from './memory-login-throttle.js';

loginThrottleContract('MemoryLoginThrottle', (clock) => new MemoryLoginThrottle(clock));

describe('MemoryLoginThrottle beyond the contract', () => {
  it('holds at most its maximum of entries, however many addresses fail', async () => {
    let now = 1_000;
    const t = new MemoryLoginThrottle(() => now, 1_000);
    for (let i = 0; i < 20_000; i++) {
      now += 1;
      await t.failed(`acct-${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    }
    expect(t.entries()).toBeLessThanOrEqual(3 * 1_000);
  });

  it('keeps what still matters when it has to forget', async () => {
    const now = 1_000;
    const t = new MemoryLoginThrottle(() => now, 100);
    for (let i = 0; i < 5; i++) await t.failed('owner', '192.0.2.1');
    for (let i = 0; i < 60; i++) await t.failed(`acct-${i}`, '192.0.2.2');
    expect((await t.check('owner', '192.0.2.1')).allowed).toBe(false);
  });
});

describe('throttleAddress', () => {
  it('counts IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(throttleAddress('192.0.2.1')).toBe('192.0.2.1');
    expect(throttleAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(throttleAddress('0000:0000:0000:0000:0000:ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(throttleAddress('0000:0000:0000:0000:0000:ffff:c000:0201')).toBe('192.0.2.1');
    expect(throttleAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
  });
});
