import { describe, expect, it } from 'vitest';
import { fitOrigin, fitScale, measureKey } from './fit-text.js';

describe('shrink to fit', () => {
  it('leaves text that fits at its size', () => {
    expect(fitScale(80, 100)).toBe(1);
    expect(fitScale(99, 100)).toBe(1);
  });

  it('shrinks a long line so that it fits its box, never more than needed', () => {
    const scale = fitScale(400, 200);
    expect(scale).toBeLessThan(0.5);
    expect(scale).toBeGreaterThan(0.49);
    expect(400 * scale).toBeLessThanOrEqual(199);
    for (const [natural, box] of [
      [101, 100],
      [1234.5, 321],
      [5000, 7],
    ] as const) {
      expect(natural * fitScale(natural, box)).toBeLessThanOrEqual(box - 1);
    }
  });

  it('does not divide by nothing', () => {
    expect(fitScale(0, 100)).toBe(1);
    expect(fitScale(100, 0)).toBe(1);
    expect(fitScale(Number.NaN, 100)).toBe(1);
  });

  it('scales towards the aligned side', () => {
    expect(fitOrigin('left')).toBe('0% 50%');
    expect(fitOrigin(undefined)).toBe('0% 50%');
    expect(fitOrigin('center')).toBe('50% 50%');
    expect(fitOrigin('right')).toBe('100% 50%');
  });

  it('measures a tabular clock again only when its shape changes', () => {
    expect(measureKey('12:34', true)).toBe(measureKey('09:59', true));
    expect(measureKey('9:59', true)).not.toBe(measureKey('10:00', true));
    expect(measureKey('12:34', false)).not.toBe(measureKey('09:59', false));
  });
});
