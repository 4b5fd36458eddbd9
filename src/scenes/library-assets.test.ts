/**
 * What a definition may say about files of the asset library (docs/scenes.md, "Inputs", "Fonts of the library"),
 * before the store is asked whether the workspace holds them: an `asset` input's default is an image of the library,
 * an image element draws an asset input, and a text's fontFamily is a bundled family or a WOFF2 font's path or URL.
 */
import { describe, expect, it } from 'vitest';
import { box, paths, problems, text } from './definition-schema.fixtures.js';

const SHA = 'c0'.repeat(32);

describe('assets of the library in a definition', () => {
  it('takes an asset input drawn by an image element, with an image of the library as its default', () => {
    for (const value of [`/assets/${SHA}.png`, `https://cdn.example.com/assets/${SHA}.svg`, null]) {
      const definition = {
        inputs: [{ name: 'crest', type: 'asset', default: value }],
        elements: [{ type: 'image', ...box, src: '{crest}' }],
      };
      expect(paths(definition)).toEqual([]);
    }
  });

  it.each([
    ['an http URL elsewhere', 'https://example.com/crest.png', 'must be an image of the asset library'],
    ['a font of the library', `/assets/${SHA}.woff2`, 'this names a .woff2 file'],
    ['a data: URL', 'data:image/png;base64,iVBORw0KGgo=', 'must be an image of the asset library'],
    ['a path outside /assets/', `/render/${SHA}.png`, 'must be an image of the asset library'],
    ['a short hash', '/assets/abc.png', 'must be an image of the asset library'],
  ])("refuses %s as an asset input's default", (_what, value, message) => {
    const found = problems({ inputs: [{ name: 'crest', type: 'asset', default: value }] });
    expect(found.map((e) => e.path)).toEqual(['inputs.0.default']);
    expect(found[0]?.message).toContain(message);
  });

  it("takes a font of the library's path or URL as a text's or clock's fontFamily", () => {
    const definition = {
      inputs: [{ name: 'game', type: 'clock' }],
      elements: [
        text({ fontFamily: `/assets/${SHA}.woff2` }),
        { type: 'clock', ...box, clock: 'game', fontSize: 40, fontFamily: `https://h.example/assets/${SHA}.woff2` },
      ],
    };
    expect(paths(definition)).toEqual([]);
  });

  it.each([
    ['an image of the library', `/assets/${SHA}.png`],
    ['a WOFF2 file elsewhere', 'https://fonts.example.com/house.woff2'],
    ['a family the page does not bundle', 'Helvetica'],
    ['a font path with a query', `/assets/${SHA}.woff2?v=2`],
  ])('refuses %s as a fontFamily, naming the bundled families', (_what, fontFamily) => {
    const found = problems({ elements: [text({ fontFamily })] });
    expect(found.map((e) => e.path)).toEqual(['elements.0.fontFamily']);
    expect(found[0]?.message).toContain('Barlow Condensed');
    expect(found[0]?.message).toContain('/assets/{sha256}.woff2');
  });
});
