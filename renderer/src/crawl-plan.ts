/**
 * Where a crawl's line is at any moment, and what a change of its items keeps (docs/scenes.md, "crawl"). Pure, so
 * the tests run in Node.
 *
 * The line is a lead-in followed by a loop, moving right to left at one speed on one timeline from `start`. The loop
 * is one cycle (every item with its separator after it) repeated end to end; its start is `lead` pixels from the
 * box's left edge at `start` and comes in to 0, then the loop runs on by itself, one cycle width at a time (the
 * cycles are identical, so going back one cycle shows the same picture: no jump at the loop point). The lead-in
 * holds the runs of text that were on screen when the items last changed, placed before the loop's start, so what
 * is on screen keeps moving as it was while the new cycle follows it in.
 */

/** A run of text on the line, `width` pixels wide. */
export interface Run {
  text: string;
  width: number;
}

/** A run of the lead-in, `x` pixels from the loop's start (negative: before it). */
export interface Piece extends Run {
  x: number;
}

export interface CrawlPlan {
  /** Timeline milliseconds at which the line is where `lead` says. */
  start: number;
  /** Pixels a second. */
  speed: number;
  /** Pixels from the box's left edge to the loop's start at `start`; it comes in to 0, then the loop runs. */
  lead: number;
  pieces: readonly Piece[];
  /** The loop's cycle; null draws no loop (an empty list). */
  cycle: Run | null;
}

/** A run as it stands on screen: `x` pixels from the box's left edge. */
export interface Placed extends Run {
  x: number;
}

function travelled(plan: CrawlPlan, now: number): number {
  return (Math.max(0, now - plan.start) * plan.speed) / 1000;
}

/** Where the loop's start (and the lead-in with it) is at `now`, from the box's left edge: `lead` down to 0. */
export function leadOffset(plan: CrawlPlan, now: number): number {
  return Math.max(0, plan.lead - travelled(plan, now));
}

/** How far the loop has run into its current cycle at `now`: 0 until the lead-in is over, then 0 to −width. */
export function loopOffset(plan: CrawlPlan, now: number): number {
  const beyond = travelled(plan, now) - plan.lead;
  if (plan.cycle === null || plan.cycle.width <= 0 || beyond <= 0) return 0;
  return -(beyond % plan.cycle.width);
}

/** How many cycles the loop draws so that, wherever it is in a cycle, they cover a box `boxWidth` wide. */
export function loopCopies(cycle: Run, boxWidth: number): number {
  return cycle.width > 0 ? Math.ceil(Math.max(0, boxWidth) / cycle.width) + 1 : 0;
}

/** The runs on the line at `now` that reach into the box (0 to `boxWidth`), left to right. */
export function onScreen(plan: CrawlPlan, now: number, boxWidth: number): Placed[] {
  const lead = leadOffset(plan, now);
  const placed = plan.pieces.map((p) => ({ text: p.text, width: p.width, x: lead + p.x }));
  const cycle = plan.cycle;
  if (cycle !== null && cycle.width > 0) {
    for (let x = lead + loopOffset(plan, now); x < boxWidth; x += cycle.width) placed.push({ ...cycle, x });
  }
  return placed.filter((r) => r.x < boxWidth && r.x + r.width > 0);
}

/**
 * The plan once the items become `cycle` at `now`: every run on screen stays where it is and moves on; the new
 * cycle starts where the last of them ends, at the box's right edge at the earliest (first items, and the first
 * after an empty list, enter from the right).
 */
export function replan(
  plan: CrawlPlan | null,
  now: number,
  boxWidth: number,
  cycle: Run | null,
  speed: number,
): CrawlPlan {
  const kept = plan === null ? [] : onScreen(plan, now, boxWidth);
  const lead = Math.max(boxWidth, ...kept.map((r) => r.x + r.width));
  const pieces = kept.map((r) => ({ text: r.text, width: r.width, x: r.x - lead }));
  return { start: now, speed, lead, pieces, cycle: cycle !== null && cycle.width > 0 ? cycle : null };
}
