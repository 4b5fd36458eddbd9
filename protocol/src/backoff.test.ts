import { describe, expect, it } from 'vitest';
import { RECONNECT_BACKOFF, reconnectDelay } from './backoff.js';
import { CloseCode } from './close-codes.js';

const low = (): number => 0;
const high = (): number => 1;

describe('reconnectDelay', () => {
  it('starts near 250 ms and doubles up to about 5 s', () => {
    expect(reconnectDelay(0, 1006, RECONNECT_BACKOFF, high)).toBe(250);
    expect(reconnectDelay(0, 1006, RECONNECT_BACKOFF, low)).toBe(125);
    expect(reconnectDelay(3, 1006, RECONNECT_BACKOFF, high)).toBe(2000);
    expect(reconnectDelay(50, 1006, RECONNECT_BACKOFF, high)).toBe(5000);
    expect(reconnectDelay(50, CloseCode.slowConsumer, RECONNECT_BACKOFF, high)).toBe(5000);
  });

  it('always jitters between half and all of the step', () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const d = reconnectDelay(attempt, 1006);
      const step = Math.min(5000, 250 * 2 ** attempt);
      expect(d).toBeGreaterThanOrEqual(step / 2);
      expect(d).toBeLessThanOrEqual(step);
    }
  });

  it('backs off to about 30 s when the token or channel is refused', () => {
    expect(reconnectDelay(50, CloseCode.unauthorized, RECONNECT_BACKOFF, high)).toBe(30_000);
    expect(reconnectDelay(50, CloseCode.channelDeleted, RECONNECT_BACKOFF, high)).toBe(30_000);
  });

  it('comes back quickly from a draining server', () => {
    expect(reconnectDelay(0, CloseCode.goingAway, RECONNECT_BACKOFF, high)).toBeLessThanOrEqual(100);
  });

  it("takes a client's own first and largest delay, and still comes back within 100 ms from a draining server", () => {
    const own = { initialDelayMs: 10, maxDelayMs: 40 };
    expect(reconnectDelay(0, 1006, own, high)).toBe(10);
    expect(reconnectDelay(5, 1006, own, high)).toBe(40);
    expect(reconnectDelay(0, CloseCode.goingAway, { initialDelayMs: 500, maxDelayMs: 5_000 }, high)).toBe(100);
  });
});
