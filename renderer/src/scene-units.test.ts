import { describe, expect, it } from 'vitest';
import { entranceUnits, sceneCentre } from './scene-units.js';
import { text } from './test-scenes.js';

describe('entrance units', () => {
  it('keeps undelayed runs together and gives each delayed element its own unit, in order', () => {
    const a = text({ name: 'a' });
    const b = text({ name: 'b' });
    const c = text({ name: 'c', delayMs: 200 });
    const d = text({ name: 'd' });
    const e = text({ name: 'e', delayMs: -5 });
    const units = entranceUnits([a, b, c, d, e]);
    expect(units.map((u) => [u.delayMs, u.elements.map((el) => el.name)])).toEqual([
      [0, ['a', 'b']],
      [200, ['c']],
      [0, ['d', 'e']],
    ]);
  });

  it('is empty for an empty scene', () => {
    expect(entranceUnits([])).toEqual([]);
  });
});

describe('scene centre', () => {
  it('is the middle of the box around the elements, or of the stage when there are none', () => {
    const els = [text({ x: 100, y: 900, width: 200, height: 50 }), text({ x: 150, y: 950, width: 600, height: 100 })];
    expect(sceneCentre(els, { width: 1920, height: 1080 })).toBe('425px 975px');
    expect(sceneCentre([], { width: 1920, height: 1080 })).toBe('960px 540px');
  });
});
