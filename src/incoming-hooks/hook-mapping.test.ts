import { describe, expect, it } from 'vitest';
import type { InputRegistry } from '../engine/index.js';
import { isFieldPath, type InputDef } from '@onair/protocol';
import { mapPayload } from './hook-mapping.js';

const defs: InputDef[] = [
  { name: 'scoreA', type: 'number', label: 'A', default: 0 },
  { name: 'home', type: 'text', label: 'Home', default: '' },
  { name: 'live', type: 'boolean', label: 'Live', default: false },
  { name: 'gameClock', type: 'clock', label: 'Clock', default: 720000 },
];
const registry: InputRegistry = new Map(defs.map((d) => [d.name, d]));

describe('mapPayload', () => {
  it('maps flat fields by name when the mapping is empty, and lists the rest', () => {
    const m = mapPayload({ scoreA: 2, home: 'LIONS', venue: 'Arena' }, {}, registry);
    expect(m.patch).toEqual({ scoreA: 2, home: 'LIONS' });
    expect(m.applied).toEqual({ scoreA: 2, home: 'LIONS' });
    expect(m.ignored).toEqual(['venue']);
  });

  it('follows dotted paths into nested objects and lists unmapped leaves by path', () => {
    const payload = { game: { home: { score: '3', name: 7 }, away: { score: 1 }, clock: { running: true } } };
    const mapping = { 'game.home.score': 'scoreA', 'game.home.name': 'home', 'game.clock.running': 'gameClock' };
    const m = mapPayload(payload, mapping, registry);
    expect(m.patch).toEqual({ scoreA: 3, home: '7' });
    expect(m.clocks).toEqual([{ name: 'gameClock', action: 'start' }]);
    expect(m.ignored).toEqual(['game.away.score']);
  });

  it('coerces as senders write values, and drives clocks with booleans or milliseconds', () => {
    const m = mapPayload(
      { live: 'false', c: '300000', s: null },
      { live: 'live', c: 'gameClock', s: 'scoreA' },
      registry,
    );
    expect(m.patch).toEqual({ live: false, scoreA: null });
    expect(m.clocks).toEqual([{ name: 'gameClock', action: 'set', ms: 300000 }]);
    expect(mapPayload({ c: false }, { c: 'gameClock' }, registry).clocks).toEqual([
      { name: 'gameClock', action: 'stop' },
    ]);
  });

  it('names the field and the input when a value does not fit, and the unknown target', () => {
    expect(() => mapPayload({ h: 'abc' }, { h: 'scoreA' }, registry)).toThrow(
      /Field "h" sets input "scoreA" \(number\)/,
    );
    expect(() => mapPayload({ live: 'yes' }, {}, registry)).toThrow(/must be true or false/);
    expect(() => mapPayload({ c: -5 }, { c: 'gameClock' }, registry)).toThrow(/whole milliseconds/);
    expect(() => mapPayload({ x: 1 }, { x: 'nope' }, registry)).toThrow(/mapped to "nope"/);
    expect(() => mapPayload([1, 2], {}, registry)).toThrow(/JSON object/);
  });

  it('reads own fields only: a __proto__ key is data, not a way into the prototype', () => {
    const payload = JSON.parse('{"__proto__": {"scoreA": 9}, "scoreA": 1}') as unknown;
    const m = mapPayload(payload, { '__proto__.scoreA': 'scoreA' }, registry);
    expect(m.patch.scoreA).toBe(9);
    expect(({} as Record<string, unknown>).scoreA).toBeUndefined();
  });
});

describe('isFieldPath', () => {
  it('takes 1 to 8 names of A–Z a–z 0–9 _ - joined by dots, and no name that reaches a prototype', () => {
    const a64 = 'a'.repeat(64);
    for (const ok of ['home_score', 'game.home.score', 'a-b.C_9', a64, 'a.b.c.d.e.f.g.h', 'toString', 'valueOf.x']) {
      expect(isFieldPath(ok), ok).toBe(true);
    }
    const bad = ['', '.', 'a.', '.a', 'a..b', 'a b', 'score!', `${a64}a`, 'a.b.c.d.e.f.g.h.i', 'é'];
    for (const no of [...bad, '__proto__', 'constructor', 'prototype', 'game.__proto__.x', 'a.constructor']) {
      expect(isFieldPath(no), no).toBe(false);
    }
  });
});
