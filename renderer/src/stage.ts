/**
 * The fixed stage: a div of the channel's size, scaled to the viewport with a transform, drawing the
 * scene on one bus. It is created by the first render of a loaded state, so nothing paints before
 * the first snapshot, and that first render shows the on-air state as it is, with no in-animation.
 */
import type { InputValue, SceneView } from '../../src/protocol/index.js';
import { own, type ChannelState } from './channel-state.js';
import { createClockTicker } from './clock-ticker.js';
import { createDomWriter, setStyles, type DomWriter } from './dom-writer.js';
import { createLayerView, type LayerView } from './layer-view.js';
import type { Bus } from './page-params.js';
import { createSceneValues } from './scene-values.js';
import { fitStage, fitTransform } from './viewport-fit.js';

export interface Stage {
  render(state: ChannelState, overrides: Readonly<Record<string, InputValue>>): void;
  /** Draws the last state again, e.g. to bring clocks up to date after the page was hidden. */
  refresh(): void;
  /** CasparCG play()/stop(): shows or hides the whole stage without forgetting what it draws. */
  setShown(shown: boolean): void;
}

interface Drawn {
  scene: SceneView;
  views: LayerView[];
  attached: boolean;
}

export function createStage(win: Window, bus: Bus): Stage {
  const doc = win.document;
  let root: { el: HTMLElement; write: DomWriter } | null = null;
  let drawn: Drawn | null = null;
  let last: { state: ChannelState; overrides: Readonly<Record<string, InputValue>> } | null = null;
  let shown = true;
  const ticker = createClockTicker(() => stage.refresh());

  function ensureRoot(): { el: HTMLElement; write: DomWriter } {
    if (root) return root;
    const el = doc.createElement('div');
    setStyles(el, {
      position: 'absolute',
      left: '0',
      top: '0',
      overflow: 'hidden',
      'transform-origin': '0 0',
      'pointer-events': 'none',
      contain: 'strict',
    });
    root = { el, write: createDomWriter(el) };
    win.addEventListener('resize', fit);
    doc.body.appendChild(el);
    return root;
  }

  function fit(): void {
    if (!root || !last) return;
    const { width, height } = last.state;
    root.write.style('width', `${width}px`);
    root.write.style('height', `${height}px`);
    root.write.style('transform', fitTransform(fitStage(width, height, win.innerWidth, win.innerHeight)));
    root.write.style('visibility', shown ? 'visible' : 'hidden');
  }

  function draw(state: ChannelState, overrides: Readonly<Record<string, InputValue>>): void {
    const scene = sceneOnBus(state, bus);
    if (scene !== drawn?.scene) drawn = scene ? buildScene(doc, scene) : null;
    if (!drawn) {
      ensureRoot().el.replaceChildren();
      ticker.schedule(null);
      return;
    }
    const serverNow = Date.now() + state.serverOffsetMs;
    const values = createSceneValues(drawn.scene, { ...state, overrides, serverNow });
    for (const view of drawn.views) view.update(values);
    // Filled in while detached, attached in the same task: the first paint of a scene is already complete.
    if (!drawn.attached) {
      ensureRoot().el.replaceChildren(...drawn.views.map((v) => v.el));
      drawn.attached = true;
    }
    ticker.schedule(values.nextTickMs());
  }

  const stage: Stage = {
    render(state, overrides) {
      if (!state.loaded) return;
      last = { state, overrides };
      draw(state, overrides);
      fit();
    },
    refresh() {
      if (last) stage.render(last.state, last.overrides);
    },
    setShown(value) {
      shown = value;
      fit();
    },
  };
  return stage;
}

function sceneOnBus(state: ChannelState, bus: Bus): SceneView | undefined {
  const sceneId = bus === 'preview' ? state.preview?.sceneId : state.program?.sceneId;
  return sceneId === undefined ? undefined : own(state.scenes, sceneId);
}

/** A changed definition arrives as a new SceneView object, so it is rebuilt rather than patched. */
function buildScene(doc: Document, scene: SceneView): Drawn {
  return { scene, views: scene.definition.layers.map((layer) => createLayerView(doc, layer)), attached: false };
}
