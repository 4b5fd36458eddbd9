/** How input values and clocks turn into text on the stage. Pure, so the tests run in Node. */
import type { ClockDirection, ClockFormat, InputValue } from '@onair/protocol';

export function formatValue(value: InputValue | undefined): string {
  // A list's rows are drawn by a rows element, never as text.
  if (value === null || value === undefined || Array.isArray(value)) return '';
  return String(value);
}

/**
 * A clock's time as text (protocol/src/scene.ts, ClockFormat). Counting down it shows the unit it is in
 * rounded up, so a countdown reads 0:00 only at zero and the first second lasts a whole second; counting
 * up, rounded down. Never negative.
 */
export function formatClock(ms: number, format: ClockFormat = 'm:ss', direction: ClockDirection = 'up'): string {
  const t = Math.max(0, ms);
  if (format === 's' || format === 's.t') return secondsText(t, format, direction);
  if (format === 'm:ss.t') {
    const tenths = whole(t / 100, direction);
    if (tenths < 600) return `0:${pad2(Math.floor(tenths / 10))}.${tenths % 10}`;
  }
  const total = whole(t / 1000, direction);
  const seconds = total % 60;
  if (format === 'h:mm:ss') {
    return `${Math.floor(total / 3600)}:${pad2(Math.floor(total / 60) % 60)}:${pad2(seconds)}`;
  }
  const minutes = Math.floor(total / 60);
  return `${format === 'mm:ss' ? pad2(minutes) : minutes}:${pad2(seconds)}`;
}

/** A shot clock's reading: whole seconds, with `s.t` tenths under 5 seconds (the rule of basketball's shot clock). */
function secondsText(t: number, format: 's' | 's.t', direction: ClockDirection): string {
  if (format === 's.t') {
    const tenths = whole(t / 100, direction);
    if (tenths < 50) return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  return String(whole(t / 1000, direction));
}

/** The whole units shown; the epsilon keeps float noise (4.0000000001 s) from rounding a unit too far. */
function whole(units: number, direction: ClockDirection): number {
  return direction === 'down' ? Math.ceil(units - 1e-9) : Math.floor(units + 1e-9);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
