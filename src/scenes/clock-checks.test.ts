import { describe, expect, it } from 'vitest';
import { validationError } from '../validation.js';
import { normaliseDefinition, SceneDefinitionIn } from './definition-schema.js';

function problems(...inputs: object[]): { path: string; message: string }[] {
  const result = SceneDefinitionIn.safeParse({ inputs });
  return result.success ? [] : (validationError(result.error).errors ?? []);
}

const clock = (more: object) => ({ name: 'game', type: 'clock', ...more });

describe('a clock stop the clock can run to', () => {
  it.each([
    ['counting up from 0 to a stop at 0', { direction: 'up', default: 0, stopAt: 0 }, 'counting up from 0:00'],
    ['counting up from 12:00 to 0', { direction: 'up', default: 720_000, stopAt: 0 }, 'never runs to a stop at 0:00'],
    ['counting up to a stop before its start', { default: 60_000, stopAt: 30_000 }, 'from 1:00'],
    ['counting down to a stop after its start', { direction: 'down', default: 60_000, stopAt: 90_000 }, 'at 1:30'],
    ['counting down from 0 (default) to 45:00', { direction: 'down', stopAt: 2_700_000 }, 'at 45:00'],
  ])('refuses %s, at stopAt', (_what, fields, says) => {
    const errors = problems({ name: 'other', type: 'text' }, clock(fields));
    expect(errors.map((e) => e.path)).toEqual(['inputs.1.stopAt']);
    expect(errors[0]?.message).toContain(says);
  });

  it.each([
    ['counting up to a stop after its start', { default: 0, stopAt: 2_700_000 }],
    ['counting up, never stopping', { direction: 'up', default: 720_000, stopAt: null }],
    ['counting up with no stop given', { direction: 'up', default: 720_000 }],
    ['counting down to 0 (stop left out)', { direction: 'down', default: 720_000 }],
    ['counting down from 0 to 0: set before it starts', { direction: 'down', default: 0, stopAt: 0 }],
    ['counting down to a stop before its start', { direction: 'down', default: 720_000, stopAt: 60_000 }],
    ['counting down, never stopping', { direction: 'down', default: 0, stopAt: null }],
  ])('accepts %s', (_what, fields) => {
    expect(problems(clock(fields))).toEqual([]);
  });
});

describe('clock periods', () => {
  const halves = [
    { name: '1st half', stopAt: 2_700_000 },
    { name: '2nd half', stopAt: 5_400_000 },
  ];

  it('are stored with both times written out: counting up from the last stop, counting down from the default', () => {
    const def = normaliseDefinition(
      SceneDefinitionIn.parse({
        inputs: [
          clock({ periods: halves }),
          { name: 'q', type: 'clock', direction: 'down', default: 720_000, periods: [{ name: 'Q1' }, { name: 'Q2' }] },
        ],
        elements: [{ type: 'clock', clock: 'game', format: 'period', x: 0, y: 0, width: 10, height: 10, fontSize: 9 }],
      }),
    );
    expect(def.inputs).toEqual([
      {
        name: 'game',
        type: 'clock',
        label: 'game',
        default: 0,
        direction: 'up',
        periods: [
          { name: '1st half', startAt: 0, stopAt: 2_700_000 },
          { name: '2nd half', startAt: 2_700_000, stopAt: 5_400_000 },
        ],
      },
      {
        name: 'q',
        type: 'clock',
        label: 'q',
        default: 720_000,
        direction: 'down',
        periods: [
          { name: 'Q1', startAt: 720_000, stopAt: 0 },
          { name: 'Q2', startAt: 720_000, stopAt: 0 },
        ],
      },
    ]);
  });

  it.each([
    [
      'a period stop it cannot run to',
      clock({ periods: [halves[0], { name: 'ET', stopAt: 60_000 }] }),
      'inputs.0.periods.1.stopAt',
    ],
    ['stopAt beside periods', clock({ stopAt: 5_400_000, periods: halves }), 'inputs.0.stopAt'],
    [
      'a first period not at the default',
      clock({ default: 5, periods: [{ name: 'a', startAt: 0, stopAt: 9 }] }),
      'inputs.0.periods.0.startAt',
    ],
    ['a negative start', clock({ periods: [halves[0], { name: 'b', startAt: -1 }] }), 'inputs.0.periods.1.startAt'],
    ['periods on a number', { name: 'game', type: 'number', periods: halves }, 'inputs.0.periods'],
    ['no periods at all', clock({ periods: [] }), 'inputs.0.periods'],
  ])('refuses %s', (_what, input, path) => {
    expect(problems(input).map((e) => e.path)).toEqual([path]);
  });

  it('refuses a clock element showing the period of a clock without periods', () => {
    const el = { type: 'clock', clock: 'game', format: 'period', x: 0, y: 0, width: 10, height: 10, fontSize: 9 };
    const result = SceneDefinitionIn.safeParse({ inputs: [clock({})], elements: [el] });
    expect(result.success ? [] : validationError(result.error).errors?.map((e) => e.path)).toEqual([
      'elements.0.format',
    ]);
  });
});
