import { describe, expect, it } from 'vitest';
import { addSample, emptyServerClock, serverOffset, type ServerClock } from './server-clock.js';

function feed(samples: [serverTime: number, receivedAt: number][]): ServerClock {
  return samples.reduce((clock, [s, r]) => addSample(clock, s, r), emptyServerClock());
}

describe('server clock estimate', () => {
  it('is 0 with no sample, and the sample itself with one', () => {
    expect(serverOffset(emptyServerClock())).toBe(0);
    expect(serverOffset(feed([[1_500, 1_000]]))).toBe(500);
  });

  it('keeps the largest sample: latency only ever makes a sample smaller', () => {
    expect(
      serverOffset(
        feed([
          [1_500, 1_000],
          [2_480, 2_000],
          [3_499, 3_000],
        ]),
      ),
    ).toBe(500);
    expect(
      serverOffset(
        feed([
          [1_480, 1_000],
          [2_500, 2_000],
        ]),
      ),
    ).toBe(500);
  });

  it('forgets a lucky sample after 30 s, so drift and clock steps are followed', () => {
    const clock = feed([
      [1_500, 1_000],
      [6_450, 6_000],
      [31_440, 31_000],
    ]);
    // The 1_000 bucket has expired; the best of what is left wins.
    expect(serverOffset(clock)).toBe(450);
    expect(clock.buckets.length).toBeLessThanOrEqual(7);
  });

  it('stays small however many samples arrive', () => {
    let clock = emptyServerClock();
    for (let t = 0; t < 600_000; t += 16) clock = addSample(clock, t + 200 + (t % 7), t);
    expect(clock.buckets.length).toBeLessThanOrEqual(7);
    expect(serverOffset(clock)).toBe(206);
  });

  it('starts over when the local clock goes back', () => {
    const clock = feed([
      [10_500, 10_000],
      [10_600, 5_000],
    ]);
    expect(serverOffset(clock)).toBe(5_600);
  });
});
