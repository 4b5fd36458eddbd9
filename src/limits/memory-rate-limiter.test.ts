import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import { rateLimiterContract } from './rate-limiter.contract.js';

rateLimiterContract('MemoryRateLimiter', (clock) => new MemoryRateLimiter(clock));

describe('MemoryRateLimiter beyond the contract', () => {
  it('keeps the state of keys still inside their window when it sweeps idle ones', async () => {
    let now = 1_000;
    const limiter = new MemoryRateLimiter(() => now);
    for (let i = 0; i < 30; i++) await limiter.take('busy', 30, 1_000);
    now = 1_500;
    // Enough calls on other (soon idle) keys to run several sweeps.
    for (let i = 0; i < 25_000; i++) await limiter.take(`idle:${i % 500}`, 5, 100);
    expect((await limiter.take('busy', 30, 1_000)).allowed).toBe(false);
    now = 2_000;
    expect((await limiter.take('busy', 30, 1_000)).allowed).toBe(true);
  });

  it('uses a real clock by default', async () => {
    const limiter = new MemoryRateLimiter();
    const first = await limiter.take('k', 1, 60_000);
    const second = await limiter.take('k', 1, 60_000);
    expect(first.allowed).toBe(true);
    expect(second.allowed).toBe(false);
    expect(second.retryAfterMs).toBeGreaterThan(59_000);
    expect(second.retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});
