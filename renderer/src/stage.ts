/**
 * The fixed stage: a div of the channel's size, scaled to the viewport with a transform, drawing one bus,
 * one element per layer stacked by layer number. It is created by the first drawing of a loaded state,
 * so nothing paints before the first snapshot; a snapshot is drawn settled, with no in-animation.
 */
import type { BusEntry, FiredTrigger, InputValue, PaintedError, PaintedLayer, SceneView } from '@onair/protocol';
import { own, type ChannelState } from './channel-state.js';
import { setStyles } from './dom-writer.js';
import { createDrawnEntries } from './drawn-entries.js';
import type { Effects, LayerChange } from './effects.js';
import type { FontLoader } from './font-loader.js';
import type { GraphicAssets } from './graphic-assets.js';
import { createGraphicDom } from './graphic-dom.js';
import { planLayer } from './layer-plan.js';
import { createLayerSlot, type LayerSlot } from './layer-slot.js';
import { DEFAULT_TRIGGER_MS, elapsedInto } from './motion.js';
import type { PageParams } from './page-params.js';
import { createPreviewBadge } from './preview-badge.js';
import { createSceneDom, type SceneDom } from './scene-dom.js';
import { createSceneValues } from './scene-values.js';
import { createFitQueue } from './text-box.js';
import { fitStage, fitTransform } from './viewport-fit.js';

type Overrides = Readonly<Record<string, InputValue>>;

export interface Stage {
  /**
   * Draws the state and plays the effects gathered since the last drawing; false when nothing could be drawn yet (no
   * snapshot, or the first picture's fonts are still loading).
   */
  render(state: ChannelState, effects: Effects, overrides: Overrides): boolean;
  /** The per-frame work: clocks. True while a drawn clock moves (the caller keeps the frames coming). */
  tick(state: ChannelState, overrides: Overrides): boolean;
  /** CasparCG play()/stop(): shows or hides the whole stage without forgetting what it draws. */
  setShown(shown: boolean): void;
  /** What each layer draws, for the tests. */
  drawn(): { layer: number; sceneId: string | null }[];
  /** What each layer shows of the bus, for the page's report (docs/outputs.md); none while hidden by stop(). */
  painted(state: ChannelState): PaintedLayer[];
}

export interface StageDeps {
  win: Window;
  params: Pick<PageParams, 'bus' | 'clean'>;
  fonts: FontLoader;
  /** Local epoch milliseconds. */
  now: () => number;
  /** A scene's `in` transition has just finished. */
  onEntered?: () => void;
  /** OGraf graphic scenes: the host page their iframes load, and where their failures go (docs/ograf.md). */
  graphics?: { hostUrl: string; assets: GraphicAssets; report(error: PaintedError): void };
}

/**
 * One scene the page cannot draw (a definition it does not understand) must not take the other layers
 * down with it: the error is reported once per distinct message and that layer is skipped.
 */
const reported = new Set<string>();
function guarded(what: string, draw: () => void): void {
  try {
    draw();
  } catch (err) {
    const key = `${what}: ${String(err)}`;
    if (reported.size < 100 && !reported.has(key)) {
      reported.add(key);
      console.warn(`onair: cannot draw ${what}`, err);
    }
  }
}

export function createStage({ win, params, fonts, now, onEntered, graphics }: StageDeps): Stage {
  const doc = win.document;
  const slots = new Map<number, LayerSlot>();
  const waiting = new Map<number, LayerChange>();
  let unplayed: FiredTrigger[] = [];
  let root: HTMLElement | null = null;
  let size = { width: 1920, height: 1080 };
  let fps = 50;
  let shown = true;
  let prefetched: ChannelState['scenes'] | null = null;
  const fits = createFitQueue();
  const entries = createDrawnEntries();

  function ensureRoot(): HTMLElement {
    if (root) return root;
    root = doc.createElement('div');
    setStyles(root, {
      position: 'absolute',
      left: '0',
      top: '0',
      overflow: 'hidden',
      'transform-origin': '0 0',
      'pointer-events': 'none',
      contain: 'strict',
    });
    if (params.bus === 'preview' && !params.clean) root.appendChild(createPreviewBadge(doc));
    win.addEventListener('resize', fit);
    doc.body.appendChild(root);
    return root;
  }

  function fit(): void {
    if (!root) return;
    setStyles(root, {
      width: `${size.width}px`,
      height: `${size.height}px`,
      transform: fitTransform(fitStage(size.width, size.height, win.innerWidth, win.innerHeight)),
      visibility: shown ? 'visible' : 'hidden',
    });
  }

  function slotFor(layer: number): LayerSlot {
    let slot = slots.get(layer);
    if (!slot) {
      const created = createLayerSlot(
        doc,
        layer,
        () => size,
        () => dropSlot(layer, created),
      );
      slot = created;
      slots.set(layer, slot);
      ensureRoot().appendChild(slot.el);
    }
    return slot;
  }

  function dropSlot(layer: number, slot: LayerSlot): void {
    if (slots.get(layer) !== slot || !slot.empty()) return;
    slot.el.remove();
    slots.delete(layer);
  }

  function busOf(state: ChannelState): readonly BusEntry[] {
    return params.bus === 'preview' ? state.preview : state.program;
  }

  function wantedOnBus(state: ChannelState): Map<number, SceneView> {
    const wanted = new Map<number, SceneView>();
    for (const entry of busOf(state)) {
      const scene = own(state.scenes, entry.sceneId);
      if (scene) wanted.set(entry.layer, scene);
    }
    return wanted;
  }

  /** Starts loading every scene's faces as soon as the scene is known, so a take rarely waits. */
  function prefetchFonts(state: ChannelState): void {
    if (prefetched === state.scenes) return;
    prefetched = state.scenes;
    for (const scene of Object.values(state.scenes)) fonts.load(scene);
  }

  function drawLayer(layer: number, wanted: SceneView | null, fontsReady: boolean, serverNow: number): void {
    const drawn = slots.get(layer)?.current() ?? null;
    const action = planLayer({
      drawn: drawn?.scene ?? null,
      wanted,
      change: waiting.get(layer) ?? null,
      fontsReady,
      bus: params.bus,
    });
    if (action.kind === 'wait') {
      if (wanted) fonts.load(wanted);
      return;
    }
    waiting.delete(layer);
    if (action.kind === 'keep') return;
    const next: SceneDom | null = wanted ? sceneDom(wanted) : null;
    const mode = action.kind === 'rebuild' ? 'cut' : action.mode;
    slotFor(layer).show(next, { mode, at: action.kind === 'change' ? action.at : 0, serverNow });
  }

  function sceneDom(scene: SceneView): SceneDom {
    if (!scene.definition.graphic) return createSceneDom(doc, scene, size, onEntered);
    if (!graphics) throw new Error('this page hosts no OGraf graphics');
    return createGraphicDom(doc, scene, size, {
      hostUrl: graphics.hostUrl,
      origin: win.location.origin,
      fps,
      assets: graphics.assets,
      report: (error) => graphics.report(error),
      onEntered: onEntered ?? (() => undefined),
    });
  }

  /**
   * Layers change together: while any scene wanted on the bus waits for its fonts, none of them changes,
   * so a snapshot's first paint is complete and a take of several layers starts as one.
   */
  function drawLayers(wanted: Map<number, SceneView>, serverNow: number): void {
    const fontsReady = [...wanted.values()].every((scene) => fonts.ready(scene));
    const layers = new Set([...wanted.keys(), ...slots.keys()]);
    for (const layer of [...layers].sort((a, b) => a - b)) {
      guarded(`layer ${layer}`, () => drawLayer(layer, wanted.get(layer) ?? null, fontsReady, serverNow));
    }
    for (const [layer, slot] of [...slots]) dropSlot(layer, slot);
    // A change whose layer is drawn as wanted needs no more waiting.
    for (const layer of waiting.keys()) if (!layers.has(layer)) waiting.delete(layer);
  }

  function writeValues(state: ChannelState, overrides: Overrides, serverNow: number, liveOnly: boolean): boolean {
    let moving = false;
    const bus = busOf(state);
    for (const [layer, slot] of slots) {
      const dom = slot.current();
      if (!dom || (liveOnly && !dom.live)) continue;
      guarded(`scene ${dom.scene.id}`, () => {
        const entry = entries.entryFor(dom, layer, bus);
        const values = createSceneValues(dom.scene, { ...state, entry, overrides, serverNow });
        if (liveOnly) dom.tick(values, fits);
        else dom.update(values, fits, entry);
        moving ||= values.moving();
      });
    }
    fits.flush();
    return moving;
  }

  /** Plays fired triggers on the scenes drawing them; one whose scene waits for its fonts waits too. */
  function playTriggers(state: ChannelState, fired: FiredTrigger[], serverNow: number): void {
    const wanted = new Set([...wantedOnBus(state).values()].map((s) => s.id));
    const later: FiredTrigger[] = [];
    for (const trigger of [...unplayed, ...fired]) {
      const dom = [...slots.values()].map((s) => s.current()).find((d) => d?.scene.id === trigger.sceneId);
      if (dom) dom.play(trigger.name, trigger.at, serverNow, trigger.payload);
      else if (wanted.has(trigger.sceneId) && elapsedInto(trigger.at, serverNow, DEFAULT_TRIGGER_MS) !== null) {
        later.push(trigger);
      }
    }
    unplayed = later;
  }

  return {
    render(state, effects, overrides) {
      if (!state.loaded) return false;
      prefetchFonts(state);
      const wanted = wantedOnBus(state);
      // Nothing at all is painted until the first complete picture can be.
      if (!root && ![...wanted.values()].every((scene) => fonts.ready(scene))) {
        for (const scene of wanted.values()) fonts.load(scene);
        for (const change of effects.layers) waiting.set(change.layer, change);
        unplayed = [...unplayed, ...effects.triggers];
        return false;
      }
      ensureRoot();
      size = { width: state.width, height: state.height };
      fps = state.fps;
      fit();
      const serverNow = now() + state.serverOffsetMs;
      if (effects.settle) {
        for (const slot of slots.values()) slot.settle();
        waiting.clear();
      }
      for (const change of effects.layers) waiting.set(change.layer, change);
      drawLayers(wanted, serverNow);
      writeValues(state, overrides, serverNow, false);
      playTriggers(state, effects.triggers, serverNow);
      return true;
    },
    tick(state, overrides) {
      if (!state.loaded) return false;
      return writeValues(state, overrides, now() + state.serverOffsetMs, true);
    },
    setShown(value) {
      shown = value;
      fit();
    },
    drawn: () =>
      [...slots.entries()]
        .sort(([a], [b]) => a - b)
        .map(([layer, slot]) => ({ layer, sceneId: slot.current()?.scene.id ?? null })),
    painted(state) {
      // CasparCG stop(): the stage is there, but nothing of it is seen.
      if (!shown) return [];
      const bus = busOf(state);
      const layers: PaintedLayer[] = [];
      for (const [layer, slot] of [...slots.entries()].sort(([a], [b]) => a - b)) {
        const dom = slot.current();
        if (!dom) continue;
        const entry = entries.entryFor(dom, layer, bus);
        layers.push({ layer, sceneId: dom.scene.id, itemId: entry?.itemId ?? null, inDone: dom.entered() });
      }
      return layers;
    },
  };
}
