import { describe, expect, it } from 'vitest';
import { FrameClock } from './frame-clock.js';
import {
  FRAME_RATES,
  frameAt,
  framePeriodMs,
  frameRate,
  frameStart,
  type FrameRate,
  type FrameRateFraction,
} from './frame-rate.js';
import { ManualTime } from './time-source.js';

const T0 = 1_700_000_000_000;
const DRIFT_RATES: FrameRate[] = [60, 59.94, 29.97];

/**
 * A ManualTime that fails the test instead of spinning forever when a clock keeps re-arming a timer
 * that is already due (ManualTime fires such a timer again inside the same advance()).
 */
class GuardedTime extends ManualTime {
  private armed = 0;

  override setTimer(fn: () => void, ms: number): () => void {
    if (++this.armed > 1000) throw new Error(`timer re-armed 1000 times in one advance at ${this.now()} (ms=${ms})`);
    return super.setTimer(fn, ms);
  }

  override advance(ms: number): void {
    this.armed = 0;
    super.advance(ms);
  }

  /** Jumps to `ms` past the start of `frame` and runs the timers due then. */
  jumpInto(rate: FrameRateFraction, frame: number, ms: number): void {
    this.jump(frameStart(rate, frame) + ms - this.now());
    this.advance(0);
  }
}

/** Deterministic jitter, so a failure reproduces. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function recordingClock(fps: FrameRate, time: ManualTime) {
  const rate = frameRate(fps);
  const ticks: { frame: number; at: number }[] = [];
  const clock = new FrameClock(rate, time, (frame) => ticks.push({ frame, at: time.now() }));
  return { rate, ticks, clock, first: frameAt(rate, time.now()) };
}

function expectConsecutive(frames: number[], first: number): void {
  const expected = Array.from({ length: frames.length }, (_, i) => first + i);
  expect(frames).toEqual(expected);
}

describe('frame-rate', () => {
  it.each(FRAME_RATES)('%s fps: frameAt(frameStart(f)) is f for 200,000 frames from 2023 on', (fps) => {
    const rate = frameRate(fps);
    const bad: number[] = [];
    for (const start of [T0, 1_750_000_000_000]) {
      const first = frameAt(rate, start);
      for (let f = first; f < first + 100_000; f++) if (frameAt(rate, frameStart(rate, f)) !== f) bad.push(f);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('the period is an exact fraction: 60,000 frames of 59.94 last 1001 s', () => {
    const rate = frameRate(59.94);
    expect(frameStart(rate, 60_000) - frameStart(rate, 0)).toBe(1_001_000);
    expect(frameAt(rate, 1_001_000)).toBe(60_000);
    expect(framePeriodMs(frameRate(25))).toBe(40);
  });
});

describe('FrameClock with ManualTime', () => {
  it.each(DRIFT_RATES)('%s fps: 10,000 ticks, one per frame start, never repeat, skip or drift', (fps) => {
    const time = new GuardedTime(T0);
    const { rate, ticks, clock, first } = recordingClock(fps, time);
    clock.start();
    for (let i = 1; i <= 10_000; i++) {
      // Exactly one period on, measured from the absolute frame start (no accumulated float error).
      time.advance(frameStart(rate, first + i) - time.now());
      if (ticks.length !== i) throw new Error(`after ${i} periods the clock ticked ${ticks.length} times`);
    }
    expectConsecutive(
      ticks.map((t) => t.frame),
      first + 1,
    );
    expect(ticks.every((t) => t.frame === frameAt(rate, t.at))).toBe(true);
    expect(clock.getStats()).toEqual({ ticks: 10_000, lateTicks: 0, skippedFrames: 0 });
  });

  it.each(DRIFT_RATES)('%s fps: timers late by 0–2 ms jitter never accumulate into drift', (fps) => {
    const time = new GuardedTime(T0);
    const { rate, ticks, clock, first } = recordingClock(fps, time);
    const jitter = mulberry32(fps * 100);
    clock.start();
    for (let i = 1; i <= 10_000; i++) {
      // The event loop stalls past the frame start by the jitter, then the due timer fires.
      time.jumpInto(rate, first + i, jitter() * 2);
      if (ticks.length !== i) throw new Error(`tick ${i}: the timer was not due ${time.now()}`);
    }
    expectConsecutive(
      ticks.map((t) => t.frame),
      first + 1,
    );
    expect(ticks.every((t) => t.frame === frameAt(rate, t.at))).toBe(true);
    expect(clock.getStats()).toEqual({ ticks: 10_000, lateTicks: 0, skippedFrames: 0 });

    // Still aligned: the next tick fires at the next frame's absolute start, not a jittered period later.
    const next = frameStart(rate, first + 10_001);
    time.advance(next - 0.01 - time.now());
    expect(ticks).toHaveLength(10_000);
    time.advance(0.02);
    expect(ticks).toHaveLength(10_001);
    expect(ticks[10_000]!.frame).toBe(first + 10_001);
    expect(Math.abs(ticks[10_000]!.at - next)).toBeLessThan(0.001);
  });

  it('a late timer runs one tick for the current frame and counts the frames it skipped', () => {
    const time = new GuardedTime(T0);
    const { rate, ticks, clock, first } = recordingClock(60, time);
    const period = framePeriodMs(rate);
    clock.start();
    time.advance(period);
    time.jump(period * 3.5); // a stalled event loop: frames first+2 and first+3 pass with no timer
    time.advance(0);
    time.advance(frameStart(rate, first + 5) - time.now());
    expect(ticks.map((t) => t.frame)).toEqual([first + 1, first + 4, first + 5]);
    expect(clock.getStats()).toEqual({ ticks: 3, lateTicks: 1, skippedFrames: 2 });
  });

  it('counts a tick as late only past the threshold', () => {
    const time = new GuardedTime(T0);
    const { rate, clock, first } = recordingClock(50, time);
    clock.start();
    time.jumpInto(rate, first + 1, 1.9);
    time.jumpInto(rate, first + 2, 2.5);
    expect(clock.getStats()).toEqual({ ticks: 2, lateTicks: 1, skippedFrames: 0 });
  });

  it('stop() from inside onTick schedules nothing more', () => {
    const time = new GuardedTime(T0);
    const frames: number[] = [];
    const clock: FrameClock = new FrameClock(frameRate(60), time, (frame) => {
      frames.push(frame);
      if (frames.length === 3) clock.stop();
    });
    clock.start();
    time.advance(1000);
    expect(frames).toHaveLength(3);
    expect(clock.running()).toBe(false);
    expect(time.pendingTimers()).toBe(0);
  });

  it('stop() then start() inside onTick keeps exactly one timer', () => {
    const time = new GuardedTime(T0);
    const frames: number[] = [];
    const clock: FrameClock = new FrameClock(frameRate(25), time, (frame) => {
      frames.push(frame);
      clock.stop();
      clock.start();
    });
    const first = clock.currentFrame();
    clock.start();
    time.advance(400);
    expect(time.pendingTimers()).toBe(1);
    expectConsecutive(frames, first + 1);
    expect(frames).toHaveLength(10);
  });

  it('tick() outside the timer runs only when a new frame has begun', () => {
    const time = new GuardedTime(T0);
    const { ticks, clock, first } = recordingClock(25, time);
    expect(clock.tick()).toBeNull();
    time.jump(40);
    expect(clock.nextFrame()).toBe(first + 1);
    expect(clock.tick()).toBe(first + 1);
    expect(clock.tick()).toBeNull();
    expect(ticks).toHaveLength(1);
  });

  it('frames passed while stopped are not counted as skipped when the clock starts again', () => {
    // The engine stops a group's clock whenever it goes idle; skippedFrames must keep meaning "overload".
    const time = new GuardedTime(T0);
    const { rate, clock } = recordingClock(25, time);
    clock.start();
    time.advance(40);
    clock.stop();
    time.advance(10_000);
    clock.start();
    time.advance(frameStart(rate, clock.currentFrame() + 1) - time.now());
    expect(clock.getStats().skippedFrames).toBe(0);
  });
});

describe('FrameClock with a phase', () => {
  it.each(DRIFT_RATES)(
    '%s fps: ticks a set fraction into each frame, carrying the frame numbers a clock without phase carries',
    (fps) => {
      const time = new GuardedTime(T0);
      const rate = frameRate(fps);
      const period = framePeriodMs(rate);
      const plain = recordingClock(fps, time);
      const phased: { frame: number; at: number }[] = [];
      const clock = new FrameClock(rate, time, (frame) => phased.push({ frame, at: time.now() }), { phase: 0.3 });
      plain.clock.start();
      clock.start();
      // In steps: GuardedTime allows 1,000 timers per advance, and two clocks run here.
      for (let k = 100; k <= 1_000; k += 100) time.advance(frameStart(rate, plain.first + k) + period / 2 - time.now());

      expect(plain.ticks).toHaveLength(1_000);
      const at = new Map(phased.map((t) => [t.frame, t.at]));
      // Each frame the plain clock ticked at its start, the phased clock ticked 0.3 of a frame later: same number.
      const offsets = plain.ticks.map((t) => Math.round(((at.get(t.frame) ?? NaN) - t.at) * 1000) / 1000);
      expect(new Set(offsets)).toEqual(new Set([Math.round(period * 0.3 * 1000) / 1000]));
      expect(phased.every((t) => t.frame === frameAt(rate, t.at))).toBe(true);
      expectConsecutive(
        phased.map((t) => t.frame),
        phased[0]!.frame,
      );
      expect(clock.getStats()).toMatchObject({ lateTicks: 0, skippedFrames: 0 });
    },
  );

  it('started before its point in the current frame, ticks that frame at that point', () => {
    const time = new GuardedTime(T0);
    const rate = frameRate(25);
    const frame = frameAt(rate, time.now()) + 1;
    time.advance(frameStart(rate, frame) + 5 - time.now()); // 5 ms into a 40 ms frame; the phase is at 20 ms
    const ticks: number[] = [];
    const clock = new FrameClock(rate, time, (f) => ticks.push(f), { phase: 0.5 });
    clock.start();
    time.advance(14.9);
    expect(ticks).toEqual([]);
    time.advance(0.2);
    expect(ticks).toEqual([frame]);
  });

  it('counts a tick late from its point in the frame, not from the frame start', () => {
    const time = new GuardedTime(T0);
    const rate = frameRate(50); // 20 ms frames; a phase of 0.5 is 10 ms in
    const first = frameAt(rate, time.now()) + 1;
    time.advance(frameStart(rate, first) + 15 - time.now()); // past this frame's point: the next tick is first + 1
    const clock = new FrameClock(rate, time, () => {}, { phase: 0.5 });
    clock.start();
    time.jumpInto(rate, first + 1, 11.9);
    time.jumpInto(rate, first + 2, 12.5);
    expect(clock.getStats()).toEqual({ ticks: 2, lateTicks: 1, skippedFrames: 0 });
  });

  it('refuses a phase outside [0, 1)', () => {
    for (const phase of [-0.1, 1, Number.NaN])
      expect(() => new FrameClock(frameRate(60), new ManualTime(T0), () => {}, { phase })).toThrow(RangeError);
  });
});
