import { describe, expect, it } from 'vitest';
import { alignedOffset, fitOrigin, fitScale, fitText, measureKey, minScale } from './fit-text.js';

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

describe('smallest size, ellipsis and a box that fits its text', () => {
  const fixed = { width: 400, minScale: 0.75, cut: true };
  const hugging = { ...fixed, minWidth: 100 };

  it('shrinks only down to 75 % of the design size unless told otherwise', () => {
    expect(minScale({ fontSize: 40 })).toBe(0.75);
    expect(minScale({ fontSize: 40, minFontSize: 20 })).toBe(0.5);
    expect(minScale({ fontSize: 40, minFontSize: 40 })).toBe(1);
    expect(minScale({ fontSize: 40, minFontSize: 60 })).toBe(1);
    expect(minScale({ fontSize: 40, shrink: false, minFontSize: 20 })).toBe(1);
  });

  it('draws a line that fits whole, one a little too long smaller, and cuts one far too long at the smallest size', () => {
    expect(fitText(300, fixed)).toEqual({ scale: 1, cutAt: null, width: 400 });
    const smaller = fitText(480, fixed);
    expect(smaller.cutAt).toBeNull();
    expect(smaller.scale).toBeGreaterThan(0.75);
    expect(480 * smaller.scale).toBeLessThanOrEqual(399);
    const cut = fitText(2000, fixed);
    expect(cut.scale).toBe(0.75);
    expect(cut.cutAt).toBe(532);
    expect(cut.cutAt! * cut.scale).toBeLessThanOrEqual(399);
  });

  it('never cuts nor shrinks without shrink: the line overflows as before', () => {
    expect(fitText(2000, { ...fixed, minScale: 1, cut: false })).toEqual({ scale: 1, cutAt: null, width: 400 });
  });

  it('sizes a box to its text between its minimum and its width', () => {
    expect(fitText(40, hugging).width).toBe(100);
    expect(fitText(250.2, hugging).width).toBe(252);
    expect(fitText(480, hugging).width).toBeLessThanOrEqual(400);
    expect(fitText(480, hugging).width).toBeGreaterThan(398);
    expect(fitText(5000, hugging).width).toBeLessThanOrEqual(400);
    const widths = [10, 120, 240, 390, 480, 5000].map((w) => fitText(w, hugging).width);
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
  });

  it('keeps the aligned side where it was', () => {
    expect(alignedOffset('left', 400, 100)).toBe(0);
    expect(alignedOffset(undefined, 400, 100)).toBe(0);
    expect(alignedOffset('right', 400, 100)).toBe(300);
    expect(alignedOffset('center', 400, 100)).toBe(150);
  });
});
