import { describe, expect, it } from 'vitest';
import { elapsedInto, resolveKeyframes, transitionMotion, triggerFrames } from './motion.js';

const stage = { width: 1920, height: 1080 };

describe('transitions', () => {
  it('a cut, or no duration, is drawn at once', () => {
    expect(transitionMotion({ type: 'cut', durationMs: 500 }, 'in', stage)).toBeNull();
    expect(transitionMotion({ type: 'fade', durationMs: 0 }, 'out', stage)).toBeNull();
  });

  it('fades in and out on opacity, with the given duration and easing', () => {
    expect(transitionMotion({ type: 'fade', durationMs: 400, easing: 'linear' }, 'in', stage)).toEqual({
      frames: [
        { offset: 0, opacity: 0 },
        { offset: 1, opacity: 1 },
      ],
      durationMs: 400,
      easing: 'linear',
    });
    expect(transitionMotion({ type: 'fade', durationMs: 400 }, 'out', stage)?.frames.map((f) => f.opacity)).toEqual([
      1, 0,
    ]);
  });

  it('slides from the edge it names (in) or to it (out), by the stage size', () => {
    const inLeft = transitionMotion({ type: 'slide', durationMs: 300 }, 'in', stage);
    expect(inLeft?.frames.map((f) => f.transform)).toEqual(['translate(-1920px, 0px)', 'translate(0px, 0px)']);
    const outBottom = transitionMotion({ type: 'slide', from: 'bottom', durationMs: 300 }, 'out', stage);
    expect(outBottom?.frames.map((f) => f.transform)).toEqual(['translate(0px, 0px)', 'translate(0px, 1080px)']);
    expect(outBottom?.easing).toBe('ease-in');
    expect(inLeft?.easing).toBe('ease-out');
  });

  it('wipes with clip-path inset, starting at the named edge', () => {
    const inLeft = transitionMotion({ type: 'wipe', from: 'left', durationMs: 300 }, 'in', stage);
    expect(inLeft?.frames.map((f) => f.clipPath)).toEqual(['inset(0% 100% 0% 0%)', 'inset(0% 0% 0% 0%)']);
    const outTop = transitionMotion({ type: 'wipe', from: 'top', durationMs: 300 }, 'out', stage);
    expect(outTop?.frames.map((f) => f.clipPath)).toEqual(['inset(0% 0% 0% 0%)', 'inset(100% 0% 0% 0%)']);
  });

  it('caps the duration at 10 s', () => {
    expect(transitionMotion({ type: 'fade', durationMs: 60_000 }, 'in', stage)?.durationMs).toBe(10_000);
  });
});

describe('joining an animation late', () => {
  it('starts where the server time says it is, or not at all once over', () => {
    expect(elapsedInto(1_000, 1_000, 500)).toBe(0);
    expect(elapsedInto(1_000, 990, 500)).toBe(0);
    expect(elapsedInto(1_000, 1_120, 500)).toBe(120);
    expect(elapsedInto(1_000, 1_500, 500)).toBeNull();
    expect(elapsedInto(1_000, 60_000, 500)).toBeNull();
  });
});

describe('trigger keyframes', () => {
  it('completes keyframes: identity at both ends, missing channels interpolated', () => {
    const frames = resolveKeyframes({
      keyframes: [
        { at: 0.5, scale: 2 },
        { at: 0.75, opacity: 0.5 },
      ],
    });
    expect(frames.map((f) => f.at)).toEqual([0, 0.5, 0.75, 1]);
    expect(frames.map((f) => f.scale)).toEqual([1, 2, 1.5, 1]);
    expect(frames.map((f) => f.opacity)).toEqual([1, 1 - 0.5 * (0.5 / 0.75), 0.5, 1]);
    expect(frames.every((f) => f.dx === 0 && f.brightness === 1)).toBe(true);
  });

  it('keeps keyframes given at the ends, sorted, clamped to 0–1', () => {
    const frames = resolveKeyframes({
      keyframes: [
        { at: 1.5, dx: 10 },
        { at: -1, dx: -10 },
      ],
    });
    expect(frames.map((f) => [f.at, f.dx])).toEqual([
      [0, -10],
      [1, 10],
    ]);
  });

  it('has the three built-ins: flash blinks twice, pulse grows, highlight brightens', () => {
    const flash = resolveKeyframes('flash').map((f) => f.opacity);
    expect(flash.filter((o) => o === 0)).toHaveLength(2);
    expect(flash[flash.length - 1]).toBe(1);
    expect(Math.max(...resolveKeyframes('pulse').map((f) => f.scale))).toBeGreaterThan(1);
    expect(Math.max(...resolveKeyframes('highlight').map((f) => f.brightness))).toBeGreaterThan(1);
  });

  it('animates only the properties the animation changes, on top of how the element is drawn', () => {
    const base = { transform: 'translate(10px, 20px) rotate(5deg)', opacity: 0.8 };
    const flash = triggerFrames(resolveKeyframes('flash'), base);
    expect(flash[0]).toEqual({ offset: 0, opacity: 0.8 });
    expect(flash.some((f) => f.opacity === 0)).toBe(true);
    const pulse = triggerFrames(resolveKeyframes('pulse'), base);
    expect(pulse[0]).toEqual({
      offset: 0,
      transform: 'translate(0px, 0px) translate(10px, 20px) rotate(5deg) rotate(0deg) scale(1)',
    });
    expect(triggerFrames(resolveKeyframes('highlight'), { transform: '', opacity: 1 })[1]?.filter).toBe(
      'brightness(1.7)',
    );
    const nudge = triggerFrames(resolveKeyframes({ keyframes: [{ at: 0.5, dy: -12 }] }), { transform: '', opacity: 1 });
    expect(nudge[1]?.transform).toBe('translate(0px, -12px) rotate(0deg) scale(1)');
  });
});
