import { describe, expect, it } from 'vitest';
import { isEmpty, MAX_PENDING_TRIGGERS, mergeEffects, noEffects, type Effects } from './effects.js';

const trigger = (name: string) => ({ name, sceneId: 's', at: 1 });

describe('pending effects', () => {
  it('folds frames arriving within one display frame: the later change of a layer decides', () => {
    const a: Effects = { settle: false, layers: [{ layer: 1, mode: 'animate', at: 10 }], triggers: [trigger('a')] };
    const b: Effects = {
      settle: false,
      layers: [
        { layer: 1, mode: 'cut', at: 20 },
        { layer: 0, mode: 'animate', at: 20 },
      ],
      triggers: [trigger('b')],
    };
    expect(mergeEffects(a, b)).toEqual({
      settle: false,
      layers: [
        { layer: 0, mode: 'animate', at: 20 },
        { layer: 1, mode: 'cut', at: 20 },
      ],
      triggers: [trigger('a'), trigger('b')],
    });
  });

  it('a snapshot drops the layer changes before it, keeps later ones and every unplayed trigger', () => {
    const before: Effects = { settle: false, layers: [{ layer: 1, mode: 'animate', at: 1 }], triggers: [trigger('a')] };
    const snap: Effects = { settle: true, layers: [], triggers: [] };
    const after: Effects = { settle: false, layers: [{ layer: 2, mode: 'animate', at: 3 }], triggers: [] };
    const merged = mergeEffects(mergeEffects(before, snap), after);
    expect(merged).toEqual({ settle: true, layers: [{ layer: 2, mode: 'animate', at: 3 }], triggers: [trigger('a')] });
  });

  it('keeps only the latest triggers while the page cannot draw', () => {
    let pending = noEffects();
    for (let i = 0; i < 100; i++) pending = mergeEffects(pending, { ...noEffects(), triggers: [trigger(`t${i}`)] });
    expect(pending.triggers).toHaveLength(MAX_PENDING_TRIGGERS);
    expect(pending.triggers[pending.triggers.length - 1]?.name).toBe('t99');
  });

  it('knows when there is nothing to play', () => {
    expect(isEmpty(noEffects())).toBe(true);
    expect(isEmpty({ ...noEffects(), settle: true })).toBe(false);
    expect(mergeEffects(noEffects(), noEffects())).toEqual(noEffects());
  });
});
