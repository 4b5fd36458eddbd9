/**
 * The Companion module's pure parts, from its sources: what operators type (times, values), what keys show (clocks,
 * variable ids), how a feedback compares, and where the module connects.
 */
import { describe, expect, it } from 'vitest';
import { endpointOf } from '../../companion/src/config.js';
import { compare } from '../../companion/src/feedbacks.js';
import { parseTime, parseValue } from '../../companion/src/values.js';
import { formatClock, segment } from '../../companion/src/variables.js';

describe('typed values', () => {
  it('times: m:ss, h:mm:ss, seconds, signed for adjust', () => {
    expect(parseTime('5:00')).toBe(300_000);
    expect(parseTime('1:02:05')).toBe(3_725_000);
    expect(parseTime('90')).toBe(90_000);
    expect(parseTime('-10')).toBe(-10_000);
    expect(parseTime('+1:30.5')).toBe(90_500);
    expect(() => parseTime('soon')).toThrow(/not a time/);
  });

  it('values read as the input’s type', () => {
    expect(parseValue('7', { name: 'scoreA', type: 'number', label: '', default: 0 })).toBe(7);
    expect(() => parseValue('x', { name: 'scoreA', type: 'number', label: '', default: 0 })).toThrow(/not a number/);
    expect(parseValue('on', { name: 'show', type: 'boolean', label: '', default: false })).toBe(true);
    expect(parseValue(' 7 ', { name: 'home', type: 'text', label: '', default: '' })).toBe(' 7 ');
  });
});

describe('what keys show', () => {
  it('clocks as m:ss: counting down rounded up, counting up rounded down', () => {
    expect(formatClock(719_001, true)).toBe('12:00');
    expect(formatClock(719_001, false)).toBe('11:59');
    expect(formatClock(0, true)).toBe('0:00');
    expect(formatClock(4_500_000, false)).toBe('75:00');
  });

  it('variable id segments keep to Companion’s characters', () => {
    expect(segment('Studio B')).toBe('Studio_B');
    expect(segment('Über.Score!')).toBe('ber_Score');
    expect(segment('***')).toBe('_');
  });

  it('comparisons: numbers as numbers, text as text', () => {
    expect(compare(10, 'gt', '9')).toBe(true);
    expect(compare('10', 'gt', '9')).toBe(false);
    expect(compare(3, 'eq', '3')).toBe(true);
    expect(compare('LIONS', 'contains', 'ION')).toBe(true);
    expect(compare(null, 'eq', '')).toBe(true);
  });
});

describe('where the module connects', () => {
  it('one socket for the channels named, or all of them; nothing without a host or a key', () => {
    const config = { host: 'gfx.local', port: 8443, tls: true, channels: 'ch_a, ch_b ch_a' };
    expect(endpointOf(config, { apiKey: 'onair_sk_x' })).toEqual({
      httpBase: 'https://gfx.local:8443',
      wsUrl: 'wss://gfx.local:8443/v1/ws?channels=ch_a,ch_b&scenes=all',
      key: 'onair_sk_x',
    });
    expect(endpointOf({ ...config, tls: false, channels: '' }, { apiKey: 'k' })?.wsUrl).toBe(
      'ws://gfx.local:8443/v1/ws?channels=*&scenes=all',
    );
    expect(endpointOf(config, { apiKey: '' })).toBeNull();
    expect(endpointOf({ ...config, host: ' ' }, { apiKey: 'k' })).toBeNull();
  });
});
