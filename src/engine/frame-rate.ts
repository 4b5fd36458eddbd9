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

/** The frame that is current at `epochMs`. */
export function frameAt(rate: FrameRateFraction, epochMs: number): number {
  return Math.floor((epochMs * rate.num) / (rate.den * 1000));
}

/** The epoch millisecond at which `frame` starts. */
export function frameStart(rate: FrameRateFraction, frame: number): number {
  return (frame * rate.den * 1000) / rate.num;
}

export function framePeriodMs(rate: FrameRateFraction): number {
  return (rate.den * 1000) / rate.num;
}
