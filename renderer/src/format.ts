/** How input values and clocks turn into text on the stage. Pure, so the tests run in Node. */
import type { ClockState, InputValue } from '../../src/protocol/index.js';

export function formatValue(value: InputValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/** `m:ss` under an hour, `h:mm:ss` from then on; whole seconds elapsed, never negative. */
export function formatClock(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const seconds = total % 60;
  const minutes = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  if (hours > 0) return `${hours}:${pad2(minutes)}:${pad2(seconds)}`;
  return `${minutes}:${pad2(seconds)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Elapsed time from the clock's server-time anchor, so it survives hidden tabs and stalled timers. */
export function clockElapsed(clock: ClockState, serverNow: number): number {
  return clock.ms + (clock.running ? serverNow - clock.at : 0);
}

/**
 * Delay until a running clock's display next changes. A little slack lands the timer just after the
 * boundary rather than just before it, which would draw the same second twice.
 */
export function msUntilNextSecond(elapsedMs: number, slackMs = 15): number {
  const intoSecond = ((elapsedMs % 1000) + 1000) % 1000;
  return 1000 - intoSecond + slackMs;
}
