import { describe, expect, it } from 'vitest';
import { fontSpecs, libraryFonts } from './font-needs.js';
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
    expect(libraryFonts(definition({ elements: [] }))).toEqual([]);
  });

  it('names a font of the library by the family the page registers it under, and lists each file once', () => {
    const sha = 'a5'.repeat(32);
    const def = definition({
      elements: [
        text({ fontFamily: `/assets/${sha}.woff2` }),
        text({ fontFamily: `https://other.example/assets/${sha}.woff2`, fontWeight: 700 }),
      ],
    });
    expect(fontSpecs(def)).toEqual([`400 16px "onair-asset-${sha}"`, `700 16px "onair-asset-${sha}"`]);
    expect(libraryFonts(def)).toEqual([{ sha256: sha, ext: 'woff2', path: `/assets/${sha}.woff2` }]);
  });
});
