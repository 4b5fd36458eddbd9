/**
 * When an output is healthy (docs/outputs.md, "Health"): `error` while it reported a load failure in the last minute,
 * else `lagging` while it is behind or silent, else `ok`. Lagging is debounced both ways, so an output on the
 * threshold does not flap; an error shows at once.
 */
import type { OutputHealth } from '@onair/protocol';

/** Frames behind (docs/outputs.md) past which an output is lagging... */
export const LAG_FRAMES = 30;
/**
 * ...or milliseconds without a report while connected: a page reports at least every REPORT_ALIVE_MS (5 s) while it
 * can paint, so two missed reports and a margin for a slow line.
 */
export const SILENT_MS = 12_000;
/** A connection gets this long to load its fonts and paint before its first report is due. */
export const FIRST_REPORT_MS = 5_000;
/** A load failure counts for this long. */
export const ERROR_WINDOW_MS = 60_000;
/** Lagging, or back to normal, once the condition has held this long. */
export const HEALTH_HOLD_MS = 1_000;

/** Whether an output is behind or silent at `now`, before debouncing. */
export function behind(lagFrames: number, reportedAt: number, now: number): boolean {
  return lagFrames > LAG_FRAMES || now - reportedAt > SILENT_MS;
}

export function healthOf(recentErrors: boolean, lagging: boolean): OutputHealth {
  if (recentErrors) return 'error';
  return lagging ? 'lagging' : 'ok';
}

/** A flag that takes a new value only once the new value has held for `holdMs`. */
export class Debounced {
  private pending: boolean | null = null;
  private since = 0;

  constructor(
    public value: boolean,
    private readonly holdMs: number,
  ) {}

  /** True when the value changed. */
  update(raw: boolean, now: number): boolean {
    if (raw === this.value) {
      this.pending = null;
      return false;
    }
    if (this.pending !== raw) {
      this.pending = raw;
      this.since = now;
    }
    if (now - this.since < this.holdMs) return false;
    this.value = raw;
    this.pending = null;
    return true;
  }
}
