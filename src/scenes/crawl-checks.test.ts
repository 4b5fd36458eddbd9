/**
 * A crawl element (docs/scenes.md, "crawl"): it draws a list input, its text's `{column}` placeholders name the
 * list's columns or the scene's inputs, its speed is bounded, and every refusal names its field.
 */
import { describe, expect, it } from 'vitest';
import { problems } from './definition-schema.fixtures.js';

const headlines = {
  name: 'headlines',
  type: 'list',
  columns: [
    { name: 'text', type: 'text' },
    { name: 'time', type: 'text' },
  ],
};
const inputs = [
  headlines,
  { name: 'desk', type: 'text' },
  { name: 'accent', type: 'color' },
  { name: 'show', type: 'boolean' },
  { name: 'game', type: 'clock', default: 0 },
];
const crawl = (more: object = {}) => ({
  type: 'crawl',
  x: 96,
  y: 960,
  width: 1728,
  height: 60,
  list: 'headlines',
  text: '{time} {text}',
  fontSize: 36,
  ...more,
});
const scene = (...elements: object[]) => ({ inputs, elements });

describe('crawl elements', () => {
  it('take a list, a text with its columns and the inputs, a separator, a speed and the text styling', () => {
    const full = crawl({
      text: '{time} {text} ({desk})',
      separator: '  |  ',
      speed: 200,
      fontFamily: 'Barlow Condensed',
      fontWeight: 600,
      color: '{accent}',
      letterSpacing: 1,
      uppercase: true,
      visibleIf: 'show',
    });
    expect(problems(scene(full))).toEqual([]);
    expect(problems(scene(crawl({ separator: '' })))).toEqual([]);
  });

  it.each([
    ['a list that is not declared', { list: 'headline' }, 'elements.0.list', 'is not an input of this scene'],
    ['a list that is a text input', { list: 'desk' }, 'elements.0.list', 'a crawl element draws a list input'],
    ['a placeholder naming no column or input', { text: '{txt}' }, 'elements.0.text', '(did you mean "text"?)'],
    ['the list itself in its text', { text: '{headlines}' }, 'elements.0.text', 'a list is drawn by a rows or crawl'],
    ['a clock in its text', { text: '{game}' }, 'elements.0.text', 'a clock is drawn by a clock element'],
    ['a colour that is not a color input', { color: '{desk}' }, 'elements.0.color', 'a colour takes a color input'],
    ['a speed under 10', { speed: 5 }, 'elements.0.speed', '>=10'],
    ['a speed over 1000', { speed: 1001 }, 'elements.0.speed', '<=1000'],
    ['a separator over 200 characters', { separator: '-'.repeat(201) }, 'elements.0.separator', '<=200'],
    ['shrink, which a crawl does not do', { shrink: false }, 'elements.0.shrink', 'unknown field'],
    ['no text', { text: undefined }, 'elements.0.text', ''],
  ])('refuses %s, naming the field', (_what, more, path, message) => {
    const found = problems(scene(crawl(more)));
    // A list that is not one also leaves the text's columns undeclared: the list comes first.
    expect(found[0]?.path).toBe(path);
    if (!path.endsWith('.list')) expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain(message);
  });

  it('gives the columns to its own text only: its visibleWhen sees the inputs', () => {
    const when = { input: 'time', equals: 'x' };
    expect(problems(scene(crawl({ visibleWhen: when }))).map((p) => p.path)).toEqual(['elements.0.visibleWhen.input']);
    expect(problems(scene({ type: 'text', x: 0, y: 0, width: 9, height: 9, fontSize: 9, text: '{time}' }))).toEqual([
      expect.objectContaining({ path: 'elements.0.text' }),
    ]);
  });
});
