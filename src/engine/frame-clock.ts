/**
 * One frame clock per frame rate. Each tick is scheduled for the absolute start time of the next frame,
 * computed from the rate's exact fraction, so timer lateness never accumulates into drift. A late timer
 * runs one tick for the current frame (skipped frames are counted, never replayed).
 *
 * A phase moves the moment of each tick to a fixed point inside its frame (a quarter of the way in, say), without
 * changing which frame a tick carries: frame numbers still count from the wall clock, the same on every node. Nodes
 * sharing a machine get different phases, so their clocks do not all wake at one instant.
 */
import { frameAt, framePeriodMs, frameStart, type FrameRateFraction } from './frame-rate.js';
import type { TimeSource } from './time-source.js';

export interface FrameClockStats {
  ticks: number;
  /** Ticks that started more than `lateThresholdMs` after their frame began. */
  lateTicks: number;
  skippedFrames: number;
}

export interface FrameClockOptions {
  /** Ticks starting more than this late count as late. Default 2 ms. */
  lateThresholdMs?: number;
  /** Where in its frame each tick runs, as a fraction of the frame in [0, 1). Default 0: at the frame's start. */
  phase?: number | undefined;
}

export class FrameClock {
  readonly rate: FrameRateFraction;
  /** The phase in milliseconds: each tick is due this long after its frame starts. */
  private readonly offsetMs: number;
  private readonly lateThresholdMs: number;
  private lastFrame: number;
  private cancel: (() => void) | null = null;
  private active = false;
  private readonly stats: FrameClockStats = { ticks: 0, lateTicks: 0, skippedFrames: 0 };

  constructor(
    rate: FrameRateFraction,
    private readonly time: TimeSource,
    private readonly onTick: (frame: number) => void,
    options: FrameClockOptions = {},
  ) {
    this.rate = rate;
    const phase = options.phase ?? 0;
    if (!(phase >= 0 && phase < 1)) throw new RangeError(`phase must be in [0, 1), not ${phase}`);
    this.offsetMs = phase * framePeriodMs(rate);
    this.lateThresholdMs = options.lateThresholdMs ?? 2;
    this.lastFrame = this.dueFrame();
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
    // Frames whose tick time passed while the clock was idle were not missed: there was nothing to render.
    this.lastFrame = Math.max(this.lastFrame, this.dueFrame());
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
    if (now - (frameStart(this.rate, frame) + this.offsetMs) > this.lateThresholdMs) this.stats.lateTicks++;
    this.lastFrame = frame;
    this.stats.ticks++;
    this.onTick(frame);
    return frame;
  }

  getStats(): Readonly<FrameClockStats> {
    return this.stats;
  }

  /** The last frame whose tick time has come: the current frame once the phase into it has passed. */
  private dueFrame(): number {
    return frameAt(this.rate, this.time.now() - this.offsetMs);
  }

  private schedule(): void {
    const due = frameStart(this.rate, this.lastFrame + 1) + this.offsetMs;
    this.cancel = this.time.setTimer(() => {
      this.cancel = null;
      this.tick();
      if (this.active && !this.cancel) this.schedule();
    }, due - this.time.now());
  }
}
