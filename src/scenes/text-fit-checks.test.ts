import { describe, expect, it } from 'vitest';
import { validationError } from '../validation.js';
import { SceneDefinitionIn } from './definition-schema.js';

/** The `errors` a 400 would carry for these elements (none when they are valid). */
function problems(elements: object[]): { path: string; message: string }[] {
  const result = SceneDefinitionIn.safeParse({ inputs: [{ name: 'name', type: 'text' }], elements });
  return result.success ? [] : (validationError(result.error).errors ?? []);
}

const name = (more: object = {}) => ({
  type: 'text',
  name: 'nameText',
  x: 130,
  y: 0,
  width: 700,
  height: 80,
  text: '{name}',
  fontSize: 54,
  minWidth: 200,
  ...more,
});
const panel = (more: object = {}) => ({
  type: 'box',
  name: 'panel',
  x: 100,
  y: 0,
  width: 760,
  height: 80,
  followWidth: 'nameText',
  ...more,
});

describe('text that fits: what the API accepts', () => {
  it('accepts a text sized to its content with a box following it, at the top or inside a group', () => {
    expect(problems([panel(), name({ minFontSize: 40 })])).toEqual([]);
    const group = { type: 'group', x: 0, y: 800, width: 1000, height: 100, children: [panel(), name()] };
    expect(problems([group])).toEqual([]);
    expect(problems([name({ minWidth: 700, minFontSize: 54 })])).toEqual([]);
    expect(
      problems([{ type: 'clock', x: 0, y: 0, width: 9, height: 9, clock: 'c', fontSize: 40, minFontSize: 30 }]),
    ).toHaveLength(1); // only the undeclared clock input
  });

  it.each([
    ['a minimum font size above the size', [name({ minFontSize: 60 })], 'elements.0.minFontSize', 'fontSize (54)'],
    ['a minimum width above the width', [name({ minWidth: 701 })], 'elements.0.minWidth', 'width (700)'],
    [
      'a box following no element',
      [panel({ followWidth: 'nameTxt' }), name()],
      'elements.0.followWidth',
      'did you mean "nameText"',
    ],
    [
      'a box following a text in another group',
      [panel(), { type: 'group', x: 0, y: 0, width: 900, height: 90, children: [name()] }],
      'elements.0.followWidth',
      'same group',
    ],
    [
      'a box following a text of fixed width',
      [panel(), name({ minWidth: undefined })],
      'elements.0.followWidth',
      'not a text element with minWidth',
    ],
    ['a box following a box', [panel({ followWidth: 'panel' })], 'elements.0.followWidth', 'not a text element'],
  ])('refuses %s, at its path', (_what, elements, path, message) => {
    const found = problems(elements);
    expect(found.map((e) => e.path)).toEqual([path]);
    expect(found[0]?.message).toContain(message);
  });

  it('refuses the new fields where they do not belong, and out of range', () => {
    const paths = (elements: object[]) => problems(elements).map((e) => e.path);
    expect(
      paths([{ type: 'image', x: 0, y: 0, width: 9, height: 9, src: 'https://a.b/c.png', followWidth: 'x' }]),
    ).toEqual(['elements.0.followWidth']);
    expect(paths([name({ minWidth: -1 })])).toEqual(['elements.0.minWidth']);
    expect(paths([name({ minFontSize: 0 })])).toEqual(['elements.0.minFontSize']);
  });
});
