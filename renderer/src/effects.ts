/**
 * What the stage must play once, as opposed to draw: a layer's scene changed by a frame (animated or
 * cut), a trigger fired, or a snapshot that asks for everything settled at once. Effects pile up between
 * two display frames (several frames can arrive in one) and while the page is hidden; `mergeEffects`
 * folds them so the next drawn frame plays what still matters. Pure.
 */
import type { FiredTrigger } from '@onair/protocol';

export interface LayerChange {
  layer: number;
  /** `animate`: the old scene plays its `out` while the new one plays its `in`; `cut`: at once. */
  mode: 'animate' | 'cut';
  /** Server time of the frame that made the change: where its transition starts. */
  at: number;
}

export interface Effects {
  /** A snapshot was applied: draw every layer as it now stands, finishing what was in motion. */
  settle: boolean;
  /** Program layers changed by frames since `settle` (or since the last drawn frame). */
  layers: LayerChange[];
  triggers: FiredTrigger[];
}

/** Triggers kept while the page cannot draw; older ones have finished playing anyway. */
export const MAX_PENDING_TRIGGERS = 32;

export function noEffects(): Effects {
  return { settle: false, layers: [], triggers: [] };
}

export function isEmpty(effects: Effects): boolean {
  return !effects.settle && effects.layers.length === 0 && effects.triggers.length === 0;
}

/**
 * `later` on top of `earlier`. A snapshot drops the layer changes before it (it shows where they led) but
 * not the triggers: they fired on this connection and have not been played. For a layer changed twice,
 * the later change decides how the drawn scene gives way to the final one.
 */
export function mergeEffects(earlier: Effects, later: Effects): Effects {
  if (isEmpty(later)) return earlier;
  const layers = new Map<number, LayerChange>();
  if (!later.settle) for (const change of earlier.layers) layers.set(change.layer, change);
  for (const change of later.layers) layers.set(change.layer, change);
  return {
    settle: earlier.settle || later.settle,
    layers: [...layers.values()].sort((a, b) => a.layer - b.layer),
    triggers: [...earlier.triggers, ...later.triggers].slice(-MAX_PENDING_TRIGGERS),
  };
}
