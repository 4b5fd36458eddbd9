import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/protocol/index.js';
import { clockElapsed, formatClock, formatValue, msUntilNextSecond } from './format.js';

describe('formatValue', () => {
  it('prints numbers, booleans and null as the wire means them', () => {
    expect(formatValue(42)).toBe('42');
    expect(formatValue(-1.5)).toBe('-1.5');
    expect(formatValue(true)).toBe('true');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(null)).toBe('');
    expect(formatValue(undefined)).toBe('');
    expect(formatValue('Jane')).toBe('Jane');
  });
});

describe('formatClock', () => {
  it('shows m:ss under an hour', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(999)).toBe('0:00');
    expect(formatClock(59_999)).toBe('0:59');
    expect(formatClock(60_000)).toBe('1:00');
    expect(formatClock(754_000)).toBe('12:34');
    expect(formatClock(3_599_999)).toBe('59:59');
  });

  it('shows h:mm:ss from an hour on', () => {
    expect(formatClock(3_600_000)).toBe('1:00:00');
    expect(formatClock(3_600_000 + 5 * 60_000 + 7_000)).toBe('1:05:07');
    expect(formatClock(25 * 3_600_000)).toBe('25:00:00');
  });

  it('never shows a negative time', () => {
    expect(formatClock(-400)).toBe('0:00');
  });
});

describe('clockElapsed', () => {
  it('counts from the server anchor only while running', () => {
    expect(clockElapsed({ running: true, ms: 10_000, at: 1_000_000 }, 1_002_500)).toBe(12_500);
    expect(clockElapsed({ running: false, ms: 10_000, at: 1_000_000 }, 1_002_500)).toBe(10_000);
  });
});

describe('msUntilNextSecond', () => {
  it('aims just past the next whole second', () => {
    expect(msUntilNextSecond(12_300, 0)).toBe(700);
    expect(msUntilNextSecond(12_000, 0)).toBe(1000);
    expect(msUntilNextSecond(12_999, 10)).toBe(11);
    expect(msUntilNextSecond(-300, 0)).toBe(300);
  });
});

describe('interpolate', () => {
  it('replaces known placeholders and blanks unknown ones', () => {
    const values: Record<string, string> = { name: 'Jane', score: '3' };
    const text = interpolate('{name} scored {score}{missing}!', (n) => values[n] ?? '');
    expect(text).toBe('Jane scored 3!');
  });

  it('leaves braces that are not placeholders alone', () => {
    expect(interpolate('{ not one } {1x}', () => 'X')).toBe('{ not one } {1x}');
  });
});
