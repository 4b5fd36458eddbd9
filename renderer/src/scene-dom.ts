/**
 * One scene drawn on one layer: a stage-sized root (its `out` plays here), a wrapper for whole-scene
 * triggers, entrance units (its `in` plays here, see scene-units.ts) and the elements. Animations are
 * Web Animations on transform, opacity, clip-path and filter: none of them lays anything out.
 */
import type { SceneView, TriggerDef } from '@onair/protocol';
import { setStyles } from './dom-writer.js';
import { createElementView, linkFollowers, type ElementView } from './element-view.js';
import { DEFAULT_TRIGGER_MS, elapsedInto, resolveKeyframes, triggerFrames, type Frame, type Motion } from './motion.js';
import { entranceUnits, sceneCentre } from './scene-units.js';
import { inputDefs, type SceneValues } from './scene-values.js';
import type { FitQueue } from './text-box.js';

export interface SceneDom {
  readonly scene: SceneView;
  readonly root: HTMLElement;
  /** True when some element follows a clock and must be redrawn each display frame while it runs. */
  readonly live: boolean;
  /** Writes every element's values. */
  update(values: SceneValues, fits: FitQueue): void;
  /** Writes the elements that follow clocks only: the per-frame work. */
  tick(values: SceneValues, fits: FitQueue): void;
  /** Plays the `in` transition from server time `at`, each unit after its delay. */
  enter(motion: Motion | null, at: number, serverNow: number): void;
  /** True when no `in` transition plays (it finished, was settled, or there was none). */
  entered(): boolean;
  /** Plays the `out` transition, then takes the scene off the page and calls `gone`. */
  leave(motion: Motion | null, at: number, serverNow: number, gone: () => void): void;
  /** Plays a trigger once, joined `serverNow - at` ms in; false when it is unknown or already over. */
  play(name: string, at: number, serverNow: number): boolean;
  /** Finishes everything in motion at once: the scene as it stands, no animation. */
  settle(): void;
  /** Takes the scene off the page now. */
  remove(): void;
}

const FULL = { position: 'absolute', left: '0', top: '0', width: '100%', height: '100%' } as const;

/** `onEntered` runs when the `in` transition has played to its end. */
export function createSceneDom(
  doc: Document,
  scene: SceneView,
  stage: { width: number; height: number },
  onEntered: () => void = () => undefined,
): SceneDom {
  const defs = inputDefs(scene);
  const views: ElementView[] = [];
  const root = doc.createElement('div');
  setStyles(root, FULL);
  root.dataset.scene = scene.id;
  const fx = doc.createElement('div');
  setStyles(fx, { ...FULL, 'transform-origin': sceneCentre(scene.definition.elements, stage) });
  root.appendChild(fx);
  const units = entranceUnits(scene.definition.elements).map((unit) => {
    const el = doc.createElement('div');
    setStyles(el, FULL);
    for (const def of unit.elements) el.appendChild(createElementView(doc, def, defs, views).el);
    fx.appendChild(el);
    return { el, delayMs: unit.delayMs };
  });
  linkFollowers(views);
  const live = views.filter((v) => v.live);
  const named = new Map(views.filter((v) => v.def.name !== undefined).map((v) => [v.def.name as string, v]));
  const running = new Set<Animation>();
  const entering = new Set<Animation>();
  let leaving = false;

  function animate(el: HTMLElement, frames: Frame[], timing: KeyframeAnimationOptions, elapsed: number): Animation {
    const animation = el.animate(frames as Keyframe[], timing);
    if (elapsed > 0) animation.currentTime = elapsed;
    running.add(animation);
    const done = () => running.delete(animation);
    animation.addEventListener('finish', done);
    animation.addEventListener('cancel', done);
    return animation;
  }

  function triggerDef(name: string): TriggerDef | undefined {
    return scene.definition.triggers.find((t) => t.name === name);
  }

  const dom: SceneDom = {
    scene,
    root,
    live: live.length > 0,
    update(values, fits) {
      for (const view of views) view.update(values, fits);
    },
    tick(values, fits) {
      for (const view of live) view.update(values, fits);
    },
    enter(motion, at, serverNow) {
      if (!motion) return;
      for (const unit of units) {
        const elapsed = elapsedInto(at, serverNow, unit.delayMs + motion.durationMs);
        if (elapsed === null) continue;
        const timing = { duration: motion.durationMs, easing: motion.easing, delay: unit.delayMs, fill: 'backwards' };
        const animation = animate(unit.el, motion.frames, timing as KeyframeAnimationOptions, elapsed);
        entering.add(animation);
        animation.addEventListener('finish', () => {
          entering.delete(animation);
          if (entering.size === 0) onEntered();
        });
        animation.addEventListener('cancel', () => entering.delete(animation));
      }
    },
    entered: () => entering.size === 0,
    leave(motion, at, serverNow, gone) {
      if (leaving) return;
      leaving = true;
      const elapsed = motion ? elapsedInto(at, serverNow, motion.durationMs) : null;
      if (!motion || elapsed === null) {
        dom.remove();
        gone();
        return;
      }
      const timing = { duration: motion.durationMs, easing: motion.easing, fill: 'forwards' } as const;
      animate(root, motion.frames, timing, elapsed).addEventListener('finish', () => {
        dom.remove();
        gone();
      });
    },
    play(name, at, serverNow) {
      const def = triggerDef(name);
      // A graphic's custom action has no animation of ours: the graphic plays it.
      if (!def || def.animation === undefined) return false;
      const duration = def.durationMs ?? DEFAULT_TRIGGER_MS;
      const elapsed = elapsedInto(at, serverNow, duration);
      if (elapsed === null) return false;
      const frames = resolveKeyframes(def.animation);
      const targets = def.targets?.length
        ? def.targets.flatMap((t) => named.get(t) ?? [])
        : [{ el: fx, base: { transform: '', opacity: 1 } }];
      for (const target of targets) {
        animate(target.el, triggerFrames(frames, target.base), { duration, easing: 'linear' }, elapsed);
      }
      return targets.length > 0;
    },
    settle() {
      for (const animation of [...running]) animation.cancel();
    },
    remove() {
      dom.settle();
      root.remove();
    },
  };
  return dom;
}
