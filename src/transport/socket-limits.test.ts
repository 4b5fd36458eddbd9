import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { MemoryRateLimiter } from '../limits/memory-rate-limiter.js';
import { ConnectionLimits, DEFAULT_SOCKET_LIMITS, limitAddress } from './socket-limits.js';

const limitsWith = (overrides: Partial<typeof DEFAULT_SOCKET_LIMITS>, now = () => 0) =>
  new ConnectionLimits({ ...DEFAULT_SOCKET_LIMITS, ...overrides }, new MemoryRateLimiter(now));

const refusalOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, retryAfter: err.retryAfter, ...err.extra };
    throw err;
  }
  return null;
};

describe('ConnectionLimits', () => {
  it('counts open connections per channel and per address, and frees them on close', () => {
    const limits = limitsWith({ connectionsPerChannel: 2, connectionsPerAddress: 3 });
    limits.opened('192.0.2.1');
    limits.joined('ch_a');
    limits.opened('192.0.2.2');
    limits.joined('ch_a');
    expect(refusalOf(() => limits.assertRoom(['ch_a'], '192.0.2.3'))).toEqual({
      code: 'rate_limited',
      retryAfter: 5,
      limit: 2,
      setting: 'ONAIR_WS_MAX_PER_CHANNEL',
    });
    limits.opened('192.0.2.1');
    limits.joined('ch_b');
    limits.opened('192.0.2.1');
    limits.joined('ch_c');
    expect(refusalOf(() => limits.assertRoom(['ch_d'], '192.0.2.1'))).toMatchObject({
      limit: 3,
      setting: 'ONAIR_WS_MAX_PER_ADDRESS',
    });
    limits.closed('192.0.2.1');
    limits.left('ch_a');
    expect(refusalOf(() => limits.assertRoom(['ch_a'], '192.0.2.1'))).toBeNull();
  });

  it('takes 0 as no limit', async () => {
    const limits = limitsWith({ connectionsPerChannel: 0, connectionsPerAddress: 0, upgradesPerAddress: 0 });
    for (let i = 0; i < 5_000; i++) {
      await limits.admitUpgrade('192.0.2.1');
      limits.opened('192.0.2.1');
      limits.joined('ch_a');
    }
    expect(refusalOf(() => limits.assertRoom(['ch_a'], '192.0.2.1'))).toBeNull();
  });

  it('admits the upgrades of a window, then refuses with the wait', async () => {
    let now = 0;
    const limits = limitsWith({ upgradesPerAddress: 2 }, () => now);
    await limits.admitUpgrade('192.0.2.1');
    await limits.admitUpgrade('192.0.2.1');
    await expect(limits.admitUpgrade('192.0.2.1')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfter: 10,
      extra: { limit: 2, setting: 'ONAIR_WS_UPGRADES_PER_ADDRESS' },
    });
    await limits.admitUpgrade('192.0.2.9'); // another address
    now = 10_000;
    await limits.admitUpgrade('192.0.2.1');
  });

  it('counts an IPv6 client by its /64', () => {
    expect(limitAddress('2001:db8:0:1:0:0:0:7')).toBe(limitAddress('2001:db8:0:1:abcd:0:0:1'));
    expect(limitAddress('192.0.2.1')).toBe('192.0.2.1');
  });
});
