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
  ms: number | undefined,
  now: number,
): ClockState {
  switch (action) {
    case 'start': {
      if (before.running) return before;
      const started = { running: true, ms: before.ms, at: now };
      // A clock already at its stop would stop again at once: starting it changes nothing.
      return settledClock(started, def, now).running ? started : before;
    }
    case 'stop':
      return before.running ? { running: false, ms: clockTime(before, def, now), at: now } : before;
    case 'set': {
      const to = checkedMs(ms, 0, MAX_CLOCK_MS, CLOCK_SET_RULE);
      if (!before.running && before.ms === to) return before;
      return settledClock({ running: before.running, ms: to, at: now }, def, now);
    }
    case 'reset': {
      const to = clockDefault(def);
      return !before.running && before.ms === to ? before : { running: false, ms: to, at: now };
    }
    case 'adjust': {
      const by = checkedMs(ms, -MAX_CLOCK_ADJUST_MS, MAX_CLOCK_ADJUST_MS, CLOCK_ADJUST_RULE);
      if (by === 0) return before;
      const to = Math.max(0, clockTime(before, def, now) + by);
      return settledClock({ running: before.running, ms: to, at: now }, def, now);
    }
  }
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
