/**
 * Keyframes for transitions (a scene entering or leaving the air) and triggers (a named animation played
 * once), as Web Animations keyframes on transform, opacity, clip-path and filter only: nothing that lays
 * out. Pure; the stage hands the result to Element.animate.
 */
import type { BuiltInAnimation, Easing, Keyframe, Transition } from '@onair/protocol';
import { num } from './element-style.js';

/** One Web Animations keyframe, as Element.animate takes it. */
export interface Frame {
  offset: number;
  opacity?: number;
  transform?: string;
  clipPath?: string;
  filter?: string;
}

export interface Motion {
  frames: Frame[];
  durationMs: number;
  easing: string;
}

export const DEFAULT_TRIGGER_MS = 600;
/** As the API writes out a stored definition (src/scenes/definition-schema.ts): arriving slows, leaving speeds up. */
const DEFAULT_EASING: Record<'in' | 'out', Easing> = { in: 'ease-out', out: 'ease-in' };

/** The keyframes of a scene's `in` or `out`, or null when it is a cut (drawn at once). */
export function transitionMotion(
  t: Transition,
  direction: 'in' | 'out',
  stage: { width: number; height: number },
): Motion | null {
  if (t.type === 'cut' || !(t.durationMs > 0)) return null;
  const shown = shownFrame(t);
  const hidden = hiddenFrame(t, direction, stage);
  const frames = direction === 'in' ? [hidden, shown] : [shown, hidden];
  return {
    frames: frames.map((f, i) => ({ ...f, offset: i })),
    durationMs: Math.min(10_000, t.durationMs),
    easing: t.easing ?? DEFAULT_EASING[direction],
  };
}

function shownFrame(t: Transition): Omit<Frame, 'offset'> {
  if (t.type === 'fade') return { opacity: 1 };
  if (t.type === 'slide') return { transform: 'translate(0px, 0px)' };
  return { clipPath: 'inset(0% 0% 0% 0%)' };
}

/** Where a scene is when off air: transparent, past the edge, or wiped away towards (or from) the edge. */
function hiddenFrame(
  t: Transition,
  direction: 'in' | 'out',
  stage: { width: number; height: number },
): Omit<Frame, 'offset'> {
  const edge = t.from ?? 'left';
  if (t.type === 'fade') return { opacity: 0 };
  if (t.type === 'slide') {
    const dx = edge === 'left' ? -stage.width : edge === 'right' ? stage.width : 0;
    const dy = edge === 'top' ? -stage.height : edge === 'bottom' ? stage.height : 0;
    return { transform: `translate(${num(dx)}px, ${num(dy)}px)` };
  }
  // inset(top right bottom left). A wipe in from the left reveals left to right, so it starts with the
  // whole right side clipped; a wipe out starting at the left hides left to right.
  const side = direction === 'in' ? OPPOSITE[edge] : edge;
  const inset = { top: '0%', right: '0%', bottom: '0%', left: '0%', [side]: '100%' };
  return { clipPath: `inset(${inset.top} ${inset.right} ${inset.bottom} ${inset.left})` };
}

const OPPOSITE = { left: 'right', right: 'left', top: 'bottom', bottom: 'top' } as const;

/**
 * How far into an animation that began at server time `at` the page is at `serverNow`, or null when it
 * is already over: a page that was hidden, or got the message late, joins it where everyone else is.
 */
export function elapsedInto(at: number, serverNow: number, totalMs: number): number | null {
  const elapsed = Math.max(0, serverNow - at);
  return elapsed >= totalMs ? null : elapsed;
}

type Channel = 'opacity' | 'scale' | 'rotation' | 'dx' | 'dy' | 'brightness';
const CHANNELS: readonly Channel[] = ['opacity', 'scale', 'rotation', 'dx', 'dy', 'brightness'];
const IDENTITY: Record<Channel, number> = { opacity: 1, scale: 1, rotation: 0, dx: 0, dy: 0, brightness: 1 };
export type FullKeyframe = { at: number } & Record<Channel, number>;

const BUILT_IN: Record<BuiltInAnimation, Keyframe[]> = {
  // Blinks twice.
  flash: [
    { at: 0.25, opacity: 0 },
    { at: 0.5, opacity: 1 },
    { at: 0.75, opacity: 0 },
  ],
  // Grows, overshoots back, settles.
  pulse: [
    { at: 0.35, scale: 1.15 },
    { at: 0.7, scale: 0.97 },
  ],
  // Glows brighter and fades back.
  highlight: [
    { at: 0.2, brightness: 1.7 },
    { at: 0.6, brightness: 1.35 },
  ],
};

/**
 * Every keyframe with every channel: keyframes at 0 and 1 are added as drawn (identity) unless given, and
 * a channel a keyframe leaves out is interpolated between the keyframes around it that set it.
 */
export function resolveKeyframes(animation: BuiltInAnimation | { keyframes: Keyframe[] }): FullKeyframe[] {
  const given = typeof animation === 'string' ? BUILT_IN[animation] : animation.keyframes;
  const sorted = given.map((k) => ({ ...k, at: Math.min(1, Math.max(0, k.at)) })).sort((a, b) => a.at - b.at);
  if (sorted[0]?.at !== 0) sorted.unshift({ at: 0 });
  if (sorted[sorted.length - 1]?.at !== 1) sorted.push({ at: 1 });
  const first = sorted[0] as Keyframe;
  const last = sorted[sorted.length - 1] as Keyframe;
  for (const channel of CHANNELS) {
    first[channel] ??= IDENTITY[channel];
    last[channel] ??= IDENTITY[channel];
  }
  return sorted.map((k, i) => {
    const full = { at: k.at } as FullKeyframe;
    for (const channel of CHANNELS) full[channel] = k[channel] ?? between(sorted, i, channel);
    return full;
  });
}

function between(frames: Keyframe[], i: number, channel: Channel): number {
  let before = i;
  while ((frames[before] as Keyframe)[channel] === undefined) before -= 1;
  let after = i;
  while ((frames[after] as Keyframe)[channel] === undefined) after += 1;
  const a = frames[before] as Keyframe;
  const b = frames[after] as Keyframe;
  const span = b.at - a.at;
  const t = span > 0 ? ((frames[i] as Keyframe).at - a.at) / span : 0;
  return (a[channel] as number) + ((b[channel] as number) - (a[channel] as number)) * t;
}

/**
 * Trigger keyframes on top of how the element is drawn: `base` is its own transform and opacity, so the
 * animation replaces them for its duration and leaves them exactly as they were. dx/dy move in stage
 * pixels; rotation and scale turn and grow it about its centre.
 */
export function triggerFrames(frames: FullKeyframe[], base: { transform: string; opacity: number }): Frame[] {
  const uses = (channel: Channel) => frames.some((f) => f[channel] !== IDENTITY[channel]);
  const moves = uses('dx') || uses('dy') || uses('rotation') || uses('scale');
  return frames.map((f) => {
    const out: Frame = { offset: f.at };
    if (uses('opacity')) out.opacity = Math.min(1, Math.max(0, f.opacity)) * base.opacity;
    if (moves) {
      const own = base.transform === '' ? '' : ` ${base.transform}`;
      out.transform = `translate(${num(f.dx)}px, ${num(f.dy)}px)${own} rotate(${num(f.rotation)}deg) scale(${num(Math.max(0, f.scale))})`;
    }
    if (uses('brightness')) out.filter = `brightness(${num(Math.max(0, f.brightness))})`;
    return out;
  });
}
