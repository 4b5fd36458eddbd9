import { describe, expect, it } from 'vitest';
import { clockTime, interpolate } from '@onair/protocol';
import { formatClock, formatValue } from './format.js';

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
  it('m:ss counting up shows whole seconds elapsed, minutes unbounded', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(999)).toBe('0:00');
    expect(formatClock(59_999)).toBe('0:59');
    expect(formatClock(60_000)).toBe('1:00');
    expect(formatClock(754_000)).toBe('12:34');
    expect(formatClock(90 * 60_000)).toBe('90:00');
  });

  it('m:ss counting down shows the second it is in rounded up: 0:00 only at zero', () => {
    expect(formatClock(0, 'm:ss', 'down')).toBe('0:00');
    expect(formatClock(1, 'm:ss', 'down')).toBe('0:01');
    expect(formatClock(999, 'm:ss', 'down')).toBe('0:01');
    expect(formatClock(1_000, 'm:ss', 'down')).toBe('0:01');
    expect(formatClock(1_001, 'm:ss', 'down')).toBe('0:02');
    expect(formatClock(720_000, 'm:ss', 'down')).toBe('12:00');
    expect(formatClock(719_999, 'm:ss', 'down')).toBe('12:00');
    expect(formatClock(719_000, 'm:ss', 'down')).toBe('11:59');
  });

  it('mm:ss pads the minutes', () => {
    expect(formatClock(125_000, 'mm:ss')).toBe('02:05');
    expect(formatClock(0, 'mm:ss', 'down')).toBe('00:00');
    expect(formatClock(6_000_000, 'mm:ss')).toBe('100:00');
  });

  it('h:mm:ss always shows hours', () => {
    expect(formatClock(3_725_000, 'h:mm:ss')).toBe('1:02:05');
    expect(formatClock(5_000, 'h:mm:ss')).toBe('0:00:05');
    expect(formatClock(3_599_001, 'h:mm:ss', 'down')).toBe('1:00:00');
    expect(formatClock(25 * 3_600_000, 'h:mm:ss')).toBe('25:00:00');
  });

  it('s shows whole seconds; s.t adds tenths under 5 seconds, with the same rounding', () => {
    expect(formatClock(24_000, 's', 'down')).toBe('24');
    expect(formatClock(23_001, 's', 'down')).toBe('24');
    expect(formatClock(90_000, 's')).toBe('90');
    expect(formatClock(4_500, 's', 'down')).toBe('5');
    expect(formatClock(24_000, 's.t', 'down')).toBe('24');
    expect(formatClock(5_000, 's.t', 'down')).toBe('5');
    expect(formatClock(4_950, 's.t', 'down')).toBe('5');
    expect(formatClock(4_900, 's.t', 'down')).toBe('4.9');
    expect(formatClock(4_801, 's.t', 'down')).toBe('4.9');
    expect(formatClock(4_899, 's.t')).toBe('4.8');
    expect(formatClock(1, 's.t', 'down')).toBe('0.1');
    expect(formatClock(0, 's.t', 'down')).toBe('0.0');
    expect(formatClock(-5, 's', 'down')).toBe('0');
  });

  it('m:ss.t shows tenths under a minute, m:ss from a minute on, with the same rounding', () => {
    expect(formatClock(9_400, 'm:ss.t')).toBe('0:09.4');
    expect(formatClock(9_499, 'm:ss.t')).toBe('0:09.4');
    expect(formatClock(9_401, 'm:ss.t', 'down')).toBe('0:09.5');
    expect(formatClock(59_999, 'm:ss.t')).toBe('0:59.9');
    expect(formatClock(60_000, 'm:ss.t')).toBe('1:00');
    expect(formatClock(59_950, 'm:ss.t', 'down')).toBe('1:00');
    expect(formatClock(59_900, 'm:ss.t', 'down')).toBe('0:59.9');
    expect(formatClock(61_500, 'm:ss.t', 'down')).toBe('1:02');
    expect(formatClock(0, 'm:ss.t', 'down')).toBe('0:00.0');
    expect(formatClock(1, 'm:ss.t', 'down')).toBe('0:00.1');
  });

  it('never shows a negative time, nor float noise', () => {
    expect(formatClock(-400)).toBe('0:00');
    expect(formatClock(-400, 'm:ss', 'down')).toBe('0:00');
    expect(formatClock(4_000.0000001, 'm:ss', 'down')).toBe('0:04');
    expect(formatClock(3_999.9999999)).toBe('0:04');
  });

  it('a countdown read every 16 ms shows every second once, in order, from 0:10 to 0:00', () => {
    const def = { direction: 'down' as const };
    const state = { running: true, ms: 10_000, at: 1_000 };
    const shown: string[] = [];
    for (let now = 1_000; now <= 12_000; now += 16) {
      const text = formatClock(clockTime(state, def, now), 'm:ss', 'down');
      if (shown[shown.length - 1] !== text) shown.push(text);
    }
    expect(shown).toEqual(['0:10', '0:09', '0:08', '0:07', '0:06', '0:05', '0:04', '0:03', '0:02', '0:01', '0:00']);
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
