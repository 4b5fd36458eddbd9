/**
 * Broadcast frame rates as exact fractions, so 29.97 and 59.94 never accumulate rounding error.
 * Frame numbers count frames of a rate since the Unix epoch: they survive restarts and agree across nodes.
 */

export const FRAME_RATES = [25, 29.97, 30, 50, 59.94, 60] as const;
export type FrameRate = (typeof FRAME_RATES)[number];

export interface FrameRateFraction {
  fps: FrameRate;
  /** frames per `den` seconds */
  num: number;
  den: number;
}

const FRACTIONS: Record<FrameRate, FrameRateFraction> = {
  25: { fps: 25, num: 25, den: 1 },
  29.97: { fps: 29.97, num: 30000, den: 1001 },
  30: { fps: 30, num: 30, den: 1 },
  50: { fps: 50, num: 50, den: 1 },
  59.94: { fps: 59.94, num: 60000, den: 1001 },
  60: { fps: 60, num: 60, den: 1 },
};

export function isFrameRate(value: number): value is FrameRate {
  return (FRAME_RATES as readonly number[]).includes(value);
}

export function frameRate(fps: FrameRate): FrameRateFraction {
  return FRACTIONS[fps];
}

/**
 * Frame starts are not exact doubles at today's epoch (at 59.94 fps, `epochMs × 60000` is past 2^53), so
 * the arithmetic is split into whole periods of `den` seconds plus a small remainder, and a time within
 * this fraction of a frame before a boundary counts as the new frame (about 1.7 µs at 60 fps).
 */
const BOUNDARY_TOLERANCE_FRAMES = 1e-4;

/** The frame that is current at `epochMs`. */
export function frameAt(rate: FrameRateFraction, epochMs: number): number {
  const periodMs = rate.den * 1000;
  const whole = Math.floor(epochMs / periodMs);
  const rem = epochMs - whole * periodMs;
  return whole * rate.num + Math.floor((rem * rate.num) / periodMs + BOUNDARY_TOLERANCE_FRAMES);
}

/** The epoch millisecond at which `frame` starts. */
export function frameStart(rate: FrameRateFraction, frame: number): number {
  const periodMs = rate.den * 1000;
  const whole = Math.floor(frame / rate.num);
  const rem = frame - whole * rate.num;
  return whole * periodMs + (rem * periodMs) / rate.num;
}

export function framePeriodMs(rate: FrameRateFraction): number {
  return (rate.den * 1000) / rate.num;
}
