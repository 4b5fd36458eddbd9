import { describe, expect, it } from 'vitest';
import { fontSpecs } from './font-needs.js';
import { definition, text } from './test-scenes.js';

describe('font needs', () => {
  it('lists each face once, nested elements and clocks included, Inter 400 by default', () => {
    const def = definition({
      elements: [
        text({ fontFamily: 'Oswald', fontWeight: 700 }),
        text({ fontFamily: 'Oswald', fontWeight: 700 }),
        { type: 'box', x: 0, y: 0, width: 1, height: 1 },
        {
          type: 'group',
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          children: [
            text(),
            { type: 'clock', clock: 'c', x: 0, y: 0, width: 1, height: 1, fontSize: 9, fontFamily: 'Roboto Mono' },
          ],
        },
      ],
    });
    expect(fontSpecs(def)).toEqual(['700 16px "Oswald"', '400 16px "Inter"', '400 16px "Roboto Mono"']);
    expect(fontSpecs(def)).toBe(fontSpecs(def));
  });

  it('needs nothing for a scene without text', () => {
    expect(fontSpecs(definition({ elements: [] }))).toEqual([]);
  });
});
