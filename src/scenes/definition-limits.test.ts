/** Scene definitions: the format's limits, and the scene bodies around a definition. */
import { describe, expect, it } from 'vitest';
import { validationError } from '../validation.js';
import { SceneDefinitionIn, SceneIn, SceneUpdate } from './definition-schema.js';
import { box, paths, problems, text } from './definition-schema.fixtures.js';

describe('SceneDefinitionIn: limits', () => {
  const many = (n: number, make: (i: number) => object) => Array.from({ length: n }, (_, i) => make(i));

  it('refuses more than 500 elements in all, counting children', () => {
    const group = { type: 'group', ...box, children: many(300, () => text()) };
    expect(paths({ elements: [group, ...many(200, () => text())] })).toEqual(['elements']);
    expect(paths({ elements: [group, ...many(199, () => text())] })).toEqual([]);
    expect(paths({ elements: many(501, () => text()) })).toEqual(['elements']);
  });

  it('refuses groups nested 9 deep at the ninth group', () => {
    let el: object = text();
    for (let i = 0; i < 9; i++) el = { type: 'group', ...box, children: [el] };
    const found = problems({ elements: [el] });
    expect(found).toEqual([{ path: `elements${'.0.children'.repeat(8)}.0`, message: 'groups nest at most 8 deep' }]);
  });

  it('answers groups nested thousands deep with a 400, not a stack overflow', () => {
    let el: object = text();
    for (let i = 0; i < 5000; i++) el = { type: 'group', children: [el] };
    expect(() => SceneDefinitionIn.safeParse({ elements: [el] })).not.toThrow();
    expect(problems({ elements: [el] })[0]?.message).toBe('groups nest at most 8 deep');
  });

  it.each([
    ['inputs', { inputs: many(201, (i) => ({ name: `i${i}`, type: 'number' })) }, 'inputs'],
    ['triggers', { triggers: many(101, (i) => ({ name: `t${i}`, animation: 'flash' })) }, 'triggers'],
    [
      'gradient stops',
      {
        elements: [
          { type: 'box', ...box, fill: { gradient: { angle: 0, stops: many(21, () => ({ at: 0, color: '#fff' })) } } },
        ],
      },
      'elements.0.fill.gradient.stops',
    ],
    [
      'keyframes',
      { triggers: [{ name: 't', animation: { keyframes: many(51, () => ({ at: 0 })) } }] },
      'triggers.0.animation.keyframes',
    ],
  ])('refuses too many %s', (_what, definition, path) => {
    expect(paths(definition)).toEqual([path]);
  });
});

describe('SceneIn and SceneUpdate', () => {
  it('takes exactly one of template and definition', () => {
    expect(SceneIn.safeParse({ name: 'S', template: 'scoreboard' }).success).toBe(true);
    expect(SceneIn.safeParse({ name: 'S', definition: {} }).success).toBe(true);
    expect(SceneIn.safeParse({ name: 'S' }).success).toBe(false);
    expect(SceneIn.safeParse({ name: 'S', template: 'scoreboard', definition: {} }).success).toBe(false);
  });

  it('reports a definition problem under definition.', () => {
    const result = SceneUpdate.safeParse({ definition: { elements: [text({ fontSize: 0 })] } });
    expect(result.success || validationError(result.error).errors?.map((e) => e.path)).toEqual([
      'definition.elements.0.fontSize',
    ]);
  });
});
