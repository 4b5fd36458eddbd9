import { describe, expect, it } from 'vitest';
import { leadOffset, loopCopies, loopOffset, onScreen, replan, type CrawlPlan, type Run } from './crawl-plan.js';

const BOX = 1000;
const SPEED = 100;
const A: Run = { text: 'Alpha • Beta • ', width: 600 };
const B: Run = { text: 'Gamma • ', width: 250 };

/** Numbers rounded to a millionth of a pixel: equal positions compare equal. */
const round = (xs: number[]) => xs.map((x) => Math.round(x * 1e6) / 1e6);

/** Where the text `text` starts on screen at `now`, for each run of it that reaches into the box. */
const starts = (plan: CrawlPlan, now: number, text: string) =>
  onScreen(plan, now, BOX)
    .filter((r) => r.text === text)
    .map((r) => r.x);

describe('a crawl', () => {
  it('enters from the right edge of its box and moves left at its speed, whatever the frames', () => {
    const plan = replan(null, 5_000, BOX, A, SPEED);
    expect(plan).toMatchObject({ start: 5_000, lead: BOX, pieces: [] });
    expect(leadOffset(plan, 5_000)).toBe(1000);
    expect(leadOffset(plan, 6_000)).toBe(900);
    expect(leadOffset(plan, 6_016.7)).toBeCloseTo(898.33);
    expect(starts(plan, 14_000, A.text)).toEqual([100, 700]);
  });

  it('loops without a jump: one cycle on, the line looks exactly as it did', () => {
    const plan = replan(null, 0, BOX, A, SPEED);
    // The lead-in is over at 10 s; the loop then runs a cycle of 600 px every 6 s.
    for (const t of [10_000, 12_345, 15_999]) {
      expect(round(starts(plan, t + 6_000, A.text))).toEqual(round(starts(plan, t, A.text)));
    }
    expect(loopOffset(plan, 10_000)).toBe(0);
    expect(loopOffset(plan, 13_000)).toBe(-300);
    // Just before and just after a cycle comes round, the text has moved by the same tiny step.
    const before = starts(plan, 15_990, A.text)[0]!;
    const after = starts(plan, 16_010, A.text)[0]!;
    expect(before - 1).toBeCloseTo(after - 600 + 1);
  });

  it('draws enough cycles to cover its box wherever the loop is', () => {
    expect(loopCopies(A, BOX)).toBe(3);
    expect(loopCopies(B, BOX)).toBe(5);
    expect(loopCopies({ text: '', width: 0 }, BOX)).toBe(0);
    const plan = replan(null, 0, BOX, B, SPEED);
    for (const t of [10_000, 11_000, 12_499]) {
      const runs = onScreen(plan, t, BOX);
      expect(runs[0]!.x).toBeLessThanOrEqual(0);
      const last = runs[runs.length - 1]!;
      expect(last.x + last.width).toBeGreaterThanOrEqual(BOX);
      expect(runs.length).toBeLessThanOrEqual(loopCopies(B, BOX));
    }
  });

  it('keeps what is on screen where it is when the items change, and runs the new ones in after it', () => {
    const first = replan(null, 0, BOX, A, SPEED);
    const at = 13_000;
    const shown = onScreen(first, at, BOX);
    const next = replan(first, at, BOX, B, SPEED);
    // Nothing on screen moved at the change, and it moves on at the same speed.
    const texts = (runs: { text: string }[]) => runs.map((r) => r.text);
    expect(texts(onScreen(next, at, BOX))).toEqual(texts(shown));
    expect(round(onScreen(next, at, BOX).map((r) => r.x))).toEqual(round(shown.map((r) => r.x)));
    expect(round(starts(next, at + 1_000, A.text))).toEqual(round(shown.map((r) => r.x - 100)));
    // The new items start where the last run on screen ends, past the right edge.
    const last = shown[shown.length - 1]!;
    const end = last.x + last.width;
    expect(end).toBeGreaterThanOrEqual(BOX);
    expect(next.lead).toBeCloseTo(end);
    expect(starts(next, at + 6_000, B.text)[0]).toBeCloseTo(end - 600);
    // Once the old runs have gone by, only the new cycle crawls.
    const later = at + ((end + 1_000) / SPEED) * 1_000;
    expect(onScreen(next, later, BOX).every((r) => r.text === B.text)).toBe(true);
  });

  it('lets an emptied list crawl out, and new items after it enter from the right edge', () => {
    const first = replan(null, 0, BOX, A, SPEED);
    const emptied = replan(first, 13_000, BOX, null, SPEED);
    expect(emptied.cycle).toBeNull();
    expect(onScreen(emptied, 13_000, BOX).length).toBeGreaterThan(0);
    expect(onScreen(emptied, 40_000, BOX)).toEqual([]);
    const refilled = replan(emptied, 40_000, BOX, B, SPEED);
    expect(refilled.lead).toBe(BOX);
    expect(refilled.pieces).toEqual([]);
  });

  it('skips a cycle that was replaced before it reached the box', () => {
    const first = replan(null, 0, BOX, A, SPEED);
    const second = replan(first, 13_000, BOX, B, SPEED);
    const third = replan(second, 13_500, BOX, { text: 'Delta • ', width: 300 }, SPEED);
    expect(onScreen(third, 13_500, BOX).map((r) => r.text)).toEqual(onScreen(second, 13_500, BOX).map((r) => r.text));
    expect(third.pieces.every((p) => p.text === A.text)).toBe(true);
  });

  it('draws nothing for no items', () => {
    const plan = replan(null, 0, BOX, null, SPEED);
    expect(onScreen(plan, 0, BOX)).toEqual([]);
    expect(replan(null, 0, BOX, { text: '', width: 0 }, SPEED).cycle).toBeNull();
  });
});
