/**
 * Clock inputs: what each clock action does to a clock's state (docs/api.md, "Triggers and clocks"). A clock
 * is stored as its state at the moment it last changed; everyone who reads it (state, snapshots, renderers)
 * moves it on with clockTime and settles it with settledClock, so a running clock costs no traffic and a
 * countdown stops at zero without a message.
 */
import { AppError } from '../errors.js';
import {
  CLOCK_ADJUST_RULE,
  CLOCK_SET_RULE,
  clockTime,
  MAX_CLOCK_ADJUST_MS,
  MAX_CLOCK_MS,
  settledClock,
  type ClockAction,
  type ClockState,
  type InputDef,
} from '@onair/protocol';
import { closestName } from './closest-name.js';
import type { InputRegistry } from './input-registry.js';

/** The time a clock starts from and returns to on `reset`. */
export function clockDefault(def: InputDef): number {
  return typeof def.default === 'number' && Number.isFinite(def.default) ? Math.max(0, def.default) : 0;
}

/** What a clock action takes besides its name: `ms` for set and adjust, `period` (optional) for period. */
export interface ClockArgs {
  ms?: number | undefined;
  period?: number | undefined;
}

/** A clock that was never driven: stopped at its default, true since the epoch. */
export function idleClock(def: InputDef): ClockState {
  return { running: false, ms: clockDefault(def), at: 0 };
}

/** The clock's state as it stands at `now`: stored (or idle), then settled. */
export function currentClock(def: InputDef, stored: ClockState | undefined, now: number): ClockState {
  return settledClock(stored ?? idleClock(def), def, now);
}

/** The clock input named `name`, or the error a clock op on it answers. */
export function clockDef(registry: InputRegistry, name: string): InputDef {
  const def = registry.get(name);
  if (def?.type === 'clock') return def;
  if (def) {
    throw new AppError('invalid_request', `Input "${name}" is a ${def.type} input, not a clock.`, {
      errors: [{ path: 'name', message: 'not a clock input' }],
    });
  }
  const clocks = [...registry.values()].filter((d) => d.type === 'clock').map((d) => d.name);
  const closest = closestName(name, clocks);
  const hint = closest ? ` Did you mean "${closest}"?` : clocks.length === 0 ? ' This channel has no clock.' : '';
  return notFound(name, closest, hint);
}

function notFound(name: string, closest: string | undefined, hint: string): never {
  throw new AppError('not_found', `No scene of this channel declares a clock named "${name}".${hint}`, {
    extra: { clock: name, closest: closest ?? null },
  });
}

/**
 * The state after `action`, from the settled state `before` at `now`; `before` itself (the same object) when
 * the action changes nothing: start on a running clock or one at its stop, stop on a stopped one, set to the
 * time a stopped clock already shows, reset of a clock already reset, adjust by 0.
 */
export function applyClockAction(
  def: InputDef,
  before: ClockState,
  action: ClockAction,
  { ms, period }: ClockArgs,
  now: number,
): ClockState {
  switch (action) {
    case 'start': {
      if (before.running) return before;
      const started = { ...before, running: true, at: now };
      // A clock already at its stop would stop again at once: starting it changes nothing.
      return settledClock(started, def, now).running ? started : before;
    }
    case 'stop':
      return before.running ? { ...before, running: false, ms: clockTime(before, def, now), at: now } : before;
    case 'set': {
      const to = checkedMs(ms, 0, MAX_CLOCK_MS, CLOCK_SET_RULE);
      if (!before.running && before.ms === to) return before;
      return settledClock({ ...before, ms: to, at: now }, def, now);
    }
    case 'reset': {
      const to = clockDefault(def);
      const reset = !before.running && before.ms === to && (before.period ?? 0) === 0;
      return reset ? before : { running: false, ms: to, at: now };
    }
    case 'adjust': {
      const by = checkedMs(ms, -MAX_CLOCK_ADJUST_MS, MAX_CLOCK_ADJUST_MS, CLOCK_ADJUST_RULE);
      if (by === 0) return before;
      const to = Math.max(0, clockTime(before, def, now) + by);
      return settledClock({ ...before, ms: to, at: now }, def, now);
    }
    case 'period':
      return enterPeriod(def, before, period, now);
  }
}

/**
 * The clock stopped at the start of period `to` (default: the next one). Entering the period it is already in,
 * stopped at its start, changes nothing; a clock without periods, or a period past the last, is refused.
 */
function enterPeriod(def: InputDef, before: ClockState, to: number | undefined, now: number): ClockState {
  const periods = def.periods ?? [];
  if (periods.length === 0)
    throw new AppError('invalid_request', `Clock "${def.name}" has no periods: declare them in its scene.`, {
      errors: [{ path: 'action', message: 'this clock has no periods' }],
    });
  const index = to ?? (before.period ?? 0) + 1;
  const period = periods[index];
  if (!Number.isInteger(index) || period === undefined) {
    const last = periods[periods.length - 1]!.name;
    const detail =
      to === undefined
        ? `Clock "${def.name}" is in its last period ("${last}"); reset it to start again from the first.`
        : `Clock "${def.name}" has periods 0 to ${periods.length - 1}.`;
    throw new AppError('invalid_request', detail, {
      errors: [{ path: 'period', message: `must be 0 to ${periods.length - 1}` }],
    });
  }
  const same = !before.running && before.ms === period.startAt && (before.period ?? 0) === index;
  if (same) return before;
  const entered = { running: false, ms: period.startAt, at: now };
  // The first period is stored as no period at all, as a clock that never left it.
  return index === 0 ? entered : { ...entered, period: index };
}

function checkedMs(ms: number | undefined, min: number, max: number, range: string): number {
  if (ms === undefined) {
    throw new AppError('invalid_request', 'This clock action needs "ms".', {
      errors: [{ path: 'ms', message: 'required for set and adjust' }],
    });
  }
  if (!Number.isInteger(ms) || ms < min || ms > max) {
    throw new AppError('invalid_request', `"ms" must be a whole number ${range}.`, {
      errors: [{ path: 'ms', message: `must be ${range}` }],
    });
  }
  return ms;
}
