import { describe, expect, it } from 'vitest';
import { ERROR_BUDGET, ErrorBudget } from './error-budget.js';

describe('ErrorBudget', () => {
  it('admits the limit in a window, refuses the next, and admits again as the oldest leaves the window', () => {
    let now = 1_000;
    const budget = new ErrorBudget({ limit: 3, windowMs: 100 }, () => now);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, true]);
    expect(budget.take()).toBe(false);
    now += 99;
    expect(budget.take()).toBe(false);
    now += 1; // all three leave the window together
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });

  it('never admits more than the limit in any window, whatever the spacing', () => {
    let now = 0;
    const budget = new ErrorBudget(ERROR_BUDGET, () => now);
    const admitted: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      now += (i * 7919) % 13; // irregular gaps of 0–12 ms
      if (budget.take()) admitted.push(now);
    }
    for (let i = ERROR_BUDGET.limit; i < admitted.length; i++) {
      expect(admitted[i]! - admitted[i - ERROR_BUDGET.limit]!).toBeGreaterThanOrEqual(ERROR_BUDGET.windowMs);
    }
    expect(admitted.length).toBeGreaterThan(ERROR_BUDGET.limit);
  });
});
