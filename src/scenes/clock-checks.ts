/**
 * The checks of a clock input (docs/scenes.md, "Clocks"): its default and stop are clock times, and the stop
 * is one the clock can run towards from its default. A clock counting up towards a stop at or before its start,
 * or counting down towards one after it, would never start: the definition is refused at `stopAt`.
 */
import { CLOCK_SET_RULE, MAX_CLOCK_MS, clockStop } from '@onair/protocol';
import type { InputDefLike, Path, Report } from './definition-checks.js';

export function checkClockInput(input: InputDefLike, path: Path, report: Report): void {
  // A clock runs on the server for the whole channel; no instance could carry a time of its own.
  if (input.scope === 'item')
    report(
      [...path, 'scope'],
      `clock input "${input.name}" is always a channel input: leave out scope or give "channel"`,
    );
  const defaultOk = input.default === undefined || input.default === null || isClockMs(input.default);
  if (!defaultOk) report([...path, 'default'], `a clock starts from a whole number of milliseconds ${CLOCK_SET_RULE}`);
  if (input.stopAt !== undefined && input.stopAt !== null && !isClockMs(input.stopAt)) {
    report([...path, 'stopAt'], `must be null or a whole number of milliseconds ${CLOCK_SET_RULE}`);
    return;
  }
  if (!defaultOk) return;
  const start = typeof input.default === 'number' ? input.default : 0;
  const problem = unreachableStop(input.direction ?? 'up', start, clockStop(input));
  if (problem !== undefined) report([...path, 'stopAt'], problem);
}

/**
 * Why a clock starting at `start` can never run towards `stop`, or undefined. A countdown whose stop equals its
 * start is allowed: a countdown from 0 to 0 is one that is set (to 5:00, say) before it is started.
 */
export function unreachableStop(direction: 'up' | 'down', start: number, stop: number | null): string | undefined {
  if (stop === null) return undefined;
  if (direction === 'up' && stop <= start)
    return `a clock counting up from ${clockText(start)} never runs to a stop at ${clockText(stop)}: give a stop after its start, or null for a clock that never stops`;
  if (direction === 'down' && stop > start)
    return `a clock counting down from ${clockText(start)} never runs to a stop at ${clockText(stop)}: give a stop at or before its start, or null for a clock that never stops`;
  return undefined;
}

export function isClockMs(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_CLOCK_MS;
}

/** Milliseconds as the clock would show them (45:00, 1:30:00, 0:09.5), for messages. */
export function clockText(ms: number): string {
  const total = Math.floor(ms / 1000);
  const rest = ms % 1000;
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60);
  const time = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${s}` : `${m}:${s}`;
  return rest === 0 ? time : `${time}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}
