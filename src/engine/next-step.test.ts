/** A graphic's step on `continue` (docs/ograf.md, "On air"): one more up to the last, open-ended or none. */
import { describe, expect, it } from 'vitest';
import { nextStep, stepAt } from './bus-ops.js';

describe('nextStep', () => {
  it('walks a graphic of n steps from 0 to n - 1 and stays there', () => {
    expect([0, 1, 2, 3].map((s) => nextStep(s, 3))).toEqual([1, 2, 2, 2]);
    expect(nextStep(0, 1)).toBe(0);
  });

  it('counts on for a graphic whose steps are not known (-1), and stays at 0 for one with none', () => {
    expect(nextStep(41, -1)).toBe(42);
    expect(nextStep(0, 0)).toBe(0);
  });
});

describe('stepAt (continue to a given step)', () => {
  it('holds the step to the graphic: 0 to n - 1, any step from 0 when not known, 0 for one with none', () => {
    expect([0, 2, 7].map((s) => stepAt(s, 3))).toEqual([0, 2, 2]);
    expect(stepAt(41, -1)).toBe(41);
    expect(stepAt(-3, -1)).toBe(0);
    expect(stepAt(5, 0)).toBe(0);
  });
});
