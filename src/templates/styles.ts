/** What the built-in templates' looks share: fills, shadows and transitions, written once. */
import type { BoxElement, Fill, Transition } from '@onair/protocol';

type Shadow = NonNullable<BoxElement['shadow']>;

/** A top-to-bottom gradient from `top` to `bottom`. */
export function verticalGradient(top: string, bottom: string): Fill {
  return {
    gradient: {
      angle: 180,
      stops: [
        { at: 0, color: top },
        { at: 1, color: bottom },
      ],
    },
  };
}

/** The soft shadow of a panel floating over the picture. */
export const PANEL_SHADOW: Shadow = { x: 0, y: 16, blur: 40, color: '#00000080' };

/** How a full-frame graphic comes and goes: a fade in of `inMs`, out in 400 ms. */
export function fadeInOut(inMs: number): { in: Transition; out: Transition } {
  return {
    in: { type: 'fade', durationMs: inMs, easing: 'ease-out' },
    out: { type: 'fade', durationMs: 400, easing: 'ease-in' },
  };
}
