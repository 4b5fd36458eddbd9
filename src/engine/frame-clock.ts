/**
 * One frame clock per frame rate. Each tick is scheduled for the absolute start time of the next frame,
 * computed from the rate's exact fraction, so timer lateness never accumulates into drift. A late timer
 * runs one tick for the current frame (skipped frames are counted, never replayed).
 */
import { frameAt, frameStart, type FrameRateFraction } from './frame-rate.js';
import type { TimeSource } from './time-source.js';

export interface FrameClockStats {
  ticks: number;
  /** Ticks that started more than `lateThresholdMs` after their frame began. */
  lateTicks: number;
  skippedFrames: number;
}

export class FrameClock {
  readonly rate: FrameRateFraction;
  private lastFrame: number;
  private cancel: (() => void) | null = null;
  private active = false;
  private readonly stats: FrameClockStats = { ticks: 0, lateTicks: 0, skippedFrames: 0 };

  constructor(
    rate: FrameRateFraction,
    private readonly time: TimeSource,
    private readonly onTick: (frame: number) => void,
    private readonly lateThresholdMs = 2,
  ) {
    this.rate = rate;
    this.lastFrame = frameAt(rate, time.now());
  }

  /** The frame current right now (the one the next tick will render if it ran now). */
  currentFrame(): number {
    return frameAt(this.rate, this.time.now());
  }

  /** The frame the next tick will carry. */
  nextFrame(): number {
    return Math.max(this.lastFrame + 1, this.currentFrame());
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    // Frames that passed while the clock was idle were not missed: there was nothing to render.
    this.lastFrame = Math.max(this.lastFrame, this.currentFrame());
    this.schedule();
  }

  /** Safe to call from inside onTick: the clock then schedules nothing more. */
  stop(): void {
    this.active = false;
    this.cancel?.();
    this.cancel = null;
  }

  running(): boolean {
    return this.active;
  }

  /** Runs one tick if a new frame has begun; returns the frame ticked, or null. */
  tick(): number | null {
    const now = this.time.now();
    const frame = frameAt(this.rate, now);
    if (frame <= this.lastFrame) return null;
    this.stats.skippedFrames += frame - this.lastFrame - 1;
    if (now - frameStart(this.rate, frame) > this.lateThresholdMs) this.stats.lateTicks++;
    this.lastFrame = frame;
    this.stats.ticks++;
    this.onTick(frame);
    return frame;
  }

  getStats(): Readonly<FrameClockStats> {
    return this.stats;
  }

  private schedule(): void {
    const due = frameStart(this.rate, this.lastFrame + 1);
    this.cancel = this.time.setTimer(() => {
      this.cancel = null;
      this.tick();
      if (this.active && !this.cancel) this.schedule();
    }, due - this.time.now());
  }
}
