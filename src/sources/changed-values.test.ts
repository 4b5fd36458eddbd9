import { describe, expect, it } from 'vitest';
import type { MappedChange } from '../incoming-hooks/hook-mapping.js';
import { appliedState, changedOnly, isEmptyChange } from './changed-values.js';

function change(patch: MappedChange['patch'], clocks: MappedChange['clocks'] = []): MappedChange {
  const applied: Record<string, unknown> = { ...patch };
  for (const c of clocks) applied[c.name] = c.action === 'set' ? c.ms : c.action === 'start';
  return { patch, clocks, applied, ignored: ['venue'] };
}

describe('changedOnly', () => {
  it('sends everything the first time', () => {
    const first = change({ scoreA: 1 });
    expect(changedOnly(null, first)).toBe(first);
  });

  it('keeps only the values that differ from the last applied ones', () => {
    const state = appliedState(null, change({ scoreA: 1, home: 'Lions' }));
    const reduced = changedOnly(state, change({ scoreA: 2, home: 'Lions' }));
    expect(reduced.patch).toEqual({ scoreA: 2 });
    expect(reduced.applied).toEqual({ scoreA: 2 });
    expect(reduced.ignored).toEqual(['venue']);
    expect(isEmptyChange(changedOnly(state, change({ scoreA: 1, home: 'Lions' })))).toBe(true);
  });

  it('compares lists deeply, and a state read back from JSON the same way', () => {
    const rows = [
      { team: 'Lions', pts: 7 },
      { team: 'Bears', pts: 4 },
    ];
    const state = JSON.parse(JSON.stringify(appliedState(null, change({ standings: rows })))) as Record<
      string,
      unknown
    >;
    expect(isEmptyChange(changedOnly(state, change({ standings: rows.map((r) => ({ ...r })) })))).toBe(true);
    const moved = changedOnly(state, change({ standings: [rows[1]!, rows[0]!] }));
    expect(moved.patch).toEqual({ standings: [rows[1], rows[0]] });
  });

  it("remembers a clock's time and its running state apart", () => {
    const feed = change({}, [
      { name: 'gameClock', action: 'set', ms: 720_000 },
      { name: 'gameClock', action: 'start' },
    ]);
    const state = appliedState(null, feed);
    expect(isEmptyChange(changedOnly(state, feed))).toBe(true);
    const stopped = changedOnly(
      state,
      change({}, [
        { name: 'gameClock', action: 'set', ms: 720_000 },
        { name: 'gameClock', action: 'stop' },
      ]),
    );
    expect(stopped.clocks).toEqual([{ name: 'gameClock', action: 'stop' }]);
    expect(stopped.applied).toEqual({ gameClock: false });
  });

  it('sends a value the feed starts to give, and a null (back to the default) once', () => {
    const state = appliedState(null, change({ scoreA: 1 }));
    expect(changedOnly(state, change({ scoreA: 1, home: 'Lions' })).patch).toEqual({ home: 'Lions' });
    const cleared = appliedState(state, change({ scoreA: null }));
    expect(isEmptyChange(changedOnly(cleared, change({ scoreA: null })))).toBe(true);
  });
});
