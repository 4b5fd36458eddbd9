import { describe, expect, it } from 'vitest';
import { validationError } from '../validation.js';
import { SceneDefinitionIn } from './definition-schema.js';

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
