/**
 * What a poll sends: only the values that differ from those the source last applied. An operator who overrides
 * a score by hand is not overruled every second by a feed that has not changed; the feed wins again as soon as
 * it says something new. A clock's time and its running state are remembered apart (a feed that sets 12:00 and
 * starts the clock must not set 12:00 again on every poll while the clock runs).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ClockChange, MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { InputValue } from '@onair/protocol';

/**
 * What a source has applied, by key: an input's name for a value, `<clock>#ms` and `<clock>#running` for a
 * clock (`#` is never in an input's name). Plain JSON: it may be stored and read back.
 */
export type AppliedState = Record<string, unknown>;

export function changedOnly(previous: AppliedState | null, change: MappedChange): MappedChange {
  if (previous === null) return change;
  const differs = (key: string, value: unknown) =>
    !Object.prototype.hasOwnProperty.call(previous, key) || !isDeepStrictEqual(previous[key], value);
  const patch = Object.create(null) as Record<string, InputValue>;
  for (const [name, value] of Object.entries(change.patch)) if (differs(name, value)) patch[name] = value;
  const clocks = change.clocks.filter((c) => differs(clockKey(c), clockValue(c)));
  const kept = new Set([...Object.keys(patch), ...clocks.map((c) => c.name)]);
  const applied = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(change.applied)) if (kept.has(name)) applied[name] = value;
  return { patch, clocks, applied, ignored: change.ignored };
}

/** `previous` with what `change` applied; keep it for the next changedOnly. */
export function appliedState(previous: AppliedState | null, change: MappedChange): AppliedState {
  const next: AppliedState = { ...previous };
  for (const [name, value] of Object.entries(change.patch)) next[name] = value;
  for (const c of change.clocks) next[clockKey(c)] = clockValue(c);
  return next;
}

export function isEmptyChange(change: MappedChange): boolean {
  return Object.keys(change.patch).length === 0 && change.clocks.length === 0;
}

const clockKey = (c: ClockChange) => `${c.name}#${c.action === 'set' ? 'ms' : 'running'}`;
const clockValue = (c: ClockChange) => (c.action === 'set' ? c.ms : c.action === 'start');
