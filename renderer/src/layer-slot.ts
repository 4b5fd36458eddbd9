/**
 * One layer of the bus on the stage: a stage-sized element stacked by its layer number, holding the
 * scene drawn there and, during a transition, the scenes still playing their `out` beneath the new one.
 */
import type { SceneDefinition } from '@onair/protocol';
import { setStyles } from './dom-writer.js';
import { transitionMotion } from './motion.js';
import type { SceneDom } from './scene-dom.js';

export interface LayerSlot {
  readonly el: HTMLElement;
  current(): SceneDom | null;
  /** Replaces the drawn scene: at once (`cut`), or the old one's `out` with the new one's `in`. */
  show(next: SceneDom | null, how: { mode: 'cut' | 'animate'; at: number; serverNow: number }): void;
  /** Ends every transition at once: the leaving scenes go, the drawn one stands still. */
  settle(): void;
  /** True when nothing is drawn and nothing is leaving: the slot can go. */
  empty(): boolean;
}

/** Scenes allowed to play their `out` at once on one layer; a faster operator than that cuts the oldest. */
const MAX_LEAVING = 2;

/** `onEmpty` runs when the last leaving scene has gone and nothing is drawn: the slot may be removed. */
export function createLayerSlot(
  doc: Document,
  layer: number,
  stage: () => { width: number; height: number },
  onEmpty: () => void,
): LayerSlot {
  const el = doc.createElement('div');
  setStyles(el, {
    position: 'absolute',
    left: '0',
    top: '0',
    width: '100%',
    height: '100%',
    'z-index': String(layer),
  });
  el.dataset.layer = String(layer);
  let current: SceneDom | null = null;
  const leaving: SceneDom[] = [];

  const transitions = (dom: SceneDom): SceneDefinition['transitions'] => dom.scene.definition.transitions;

  function retire(old: SceneDom, how: { mode: 'cut' | 'animate'; at: number; serverNow: number }): void {
    if (how.mode === 'cut') {
      old.remove();
      return;
    }
    leaving.push(old);
    while (leaving.length > MAX_LEAVING) leaving.shift()?.remove();
    const motion = transitionMotion(transitions(old).out, 'out', stage());
    old.leave(motion, how.at, how.serverNow, () => {
      const i = leaving.indexOf(old);
      if (i >= 0) leaving.splice(i, 1);
      if (current === null && leaving.length === 0) onEmpty();
    });
  }

  return {
    el,
    current: () => current,
    show(next, how) {
      const old = current;
      current = next;
      if (old) retire(old, how);
      if (!next) return;
      // Appended last, so an entering scene is drawn over the one leaving.
      el.appendChild(next.root);
      if (how.mode === 'animate')
        next.enter(transitionMotion(transitions(next).in, 'in', stage()), how.at, how.serverNow);
    },
    settle() {
      for (const old of leaving.splice(0)) old.remove();
      current?.settle();
    },
    empty: () => current === null && leaving.length === 0,
  };
}
