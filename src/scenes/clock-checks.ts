/**
 * The checks of a clock input (docs/scenes.md, "Clocks"): its default and stop are clock times, and the stop
 * is one the clock can run towards from its default. A clock counting up towards a stop at or before its start,
 * or counting down towards one after it, would never start: the definition is refused at `stopAt` (or at the
 * period's `stopAt`, for a clock with periods).
 */
import { CLOCK_SET_RULE, MAX_CLOCK_MS, clockStop, type ClockPeriod } from '@onair/protocol';
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
  if (input.periods !== undefined) return checkPeriods(input, path, report);
  const start = typeof input.default === 'number' ? input.default : 0;
  const direction = input.direction ?? 'up';
  const stop = input.stopAt !== undefined ? input.stopAt : clockStop({ direction });
  const problem = unreachableStop(direction, start, stop);
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

/** A period as the API accepts it: its times may be left out. */
export interface ClockPeriodLike {
  name: string;
  startAt?: number | undefined;
  stopAt?: number | null | undefined;
}

/**
 * The periods with both times written out (protocol ClockPeriod): the first starts at the clock's default; a later
 * one, counting up, where the one before stops (or starts, if it never stops); counting down, at the default.
 */
export function resolvePeriods(
  direction: 'up' | 'down',
  start: number,
  periods: readonly ClockPeriodLike[],
): ClockPeriod[] {
  const out: ClockPeriod[] = [];
  for (const p of periods) {
    const prev = out[out.length - 1];
    const from = prev === undefined || direction === 'down' ? start : (prev.stopAt ?? prev.startAt);
    const startAt = prev === undefined ? start : (p.startAt ?? from);
    out.push({ name: p.name, startAt, stopAt: p.stopAt === undefined ? clockStop({ direction }) : p.stopAt });
  }
  return out;
}

/** The checks of a clock's periods: times in range, the first starting at the default, each stop reachable. */
export function checkPeriods(input: InputDefLike, path: Path, report: Report): void {
  const periods = input.periods;
  if (periods === undefined) return;
  if (input.stopAt !== undefined)
    report([...path, 'stopAt'], "a clock with periods stops at each period's stopAt: leave this out");
  let timesOk = true;
  periods.forEach((p, k) => {
    for (const key of ['startAt', 'stopAt'] as const) {
      const v = p[key];
      if (v === undefined || v === null || isClockMs(v)) continue;
      report([...path, 'periods', k, key], `must be a whole number of milliseconds ${CLOCK_SET_RULE}`);
      timesOk = false;
    }
  });
  const first = periods[0]?.startAt;
  const start = typeof input.default === 'number' ? input.default : (first ?? 0);
  if (first !== undefined && first !== start)
    report([...path, 'periods', 0, 'startAt'], `the first period starts at the clock's default (${clockText(start)})`);
  if (!timesOk) return;
  const direction = input.direction ?? 'up';
  resolvePeriods(direction, start, periods).forEach((p, k) => {
    const problem = unreachableStop(direction, p.startAt, p.stopAt);
    if (problem !== undefined) report([...path, 'periods', k, 'stopAt'], `${p.name}: ${problem}`);
  });
}
