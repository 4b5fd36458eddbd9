/**
 * A scene drawn by an imported OGraf graphic (docs/ograf.md, "Playing graphics"): the graphic runs in a sandboxed
 * iframe of its own (graphic-host.ts), full-frame on its layer, and is driven with the OGraf actions as the bus
 * changes: its first values → `load`, then a take → `playAction({})` (a cut, a preview, a page that arrives late or
 * reloads → `playAction({ goto: step, skipAnimation: true })`), new values → `updateAction`, `continue` (the bus
 * entry's step) → `playAction({ delta: 1 })`, a custom-action trigger → `customAction`, leaving → `stopAction`, then
 * `dispose`. A call that fails, answers an error status or times out is reported as an output error; a graphic whose
 * `load` failed gets no more calls. It implements SceneDom, so the layer slot treats it like any scene.
 */
import type { BusEntry, GraphicRef, PaintedError, SceneView } from '@onair/protocol';
import { setStyles } from './dom-writer.js';
import type { GraphicAssets } from './graphic-assets.js';
import { createGraphicCalls, type CallOutcome, type CallPort } from './graphic-calls.js';
import { graphicData, type GraphicData } from './graphic-data.js';
import { clip, HOST_HELLO, type GraphicMethod } from './graphic-wire.js';
import type { SceneDom } from './scene-dom.js';

/** `load` includes fetching the host page and the graphic's module, its fonts and pictures. */
export const GRAPHIC_LOAD_TIMEOUT_MS = 15_000;
/** An action resolves when its animation ends: this is far longer than any in or out. */
export const GRAPHIC_ACTION_TIMEOUT_MS = 10_000;
/** After this, the instance's iframe is removed whether its `dispose` answered or not. */
export const GRAPHIC_DISPOSE_TIMEOUT_MS = 2_000;
/** A take seen this late (a page that was busy or hidden) is drawn settled, not animated. */
const LATE_TAKE_MS = 2_000;
/** A custom action that fired this long ago is not run any more. */
const STALE_TRIGGER_MS = 10_000;

export interface GraphicDomDeps {
  /** The host page (dist/graphic-host-<hash>.html, served under /render/assets/). */
  hostUrl: string;
  /** The server the graphic's `base` path is on: this page's. */
  origin: string;
  /** The channel's frame rate, told to the graphic in `renderCharacteristics`. */
  fps: number;
  /** The page's library pictures, given to graphics as `data:` URLs. */
  assets: GraphicAssets;
  report(error: PaintedError): void;
  /** The graphic's first `playAction` has settled. */
  onEntered(): void;
}

const FULL = { position: 'absolute', left: '0', top: '0', width: '100%', height: '100%' } as const;

function moduleUrl(graphic: GraphicRef, origin: string): string | null {
  if (graphic.base === undefined) return null;
  try {
    return new URL(graphic.main, new URL(graphic.base, origin)).href;
  } catch {
    return null;
  }
}

function createFrame(doc: Document, hostUrl: string): { frame: HTMLIFrameElement; port: Promise<CallPort> } {
  const frame = doc.createElement('iframe');
  // Scripts only: no same-origin (no token, storage or other layers), no navigation of the page, no pop-ups.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  setStyles(frame, { ...FULL, border: '0', background: 'transparent' });
  const port = new Promise<CallPort>((resolve) => {
    frame.addEventListener(
      'load',
      () => {
        const channel = new MessageChannel();
        // The host's origin is opaque: '*' is the only target that reaches it. The port is all it is given.
        frame.contentWindow?.postMessage(HOST_HELLO, '*', [channel.port2]);
        resolve(channel.port1 as unknown as CallPort);
      },
      { once: true },
    );
  });
  frame.src = hostUrl;
  return { frame, port };
}

export function createGraphicDom(
  doc: Document,
  scene: SceneView,
  stage: { width: number; height: number },
  deps: GraphicDomDeps,
): SceneDom {
  const graphic = scene.definition.graphic as GraphicRef;
  const label = `graphic ${graphic.graphicId}@${graphic.version}`;
  const url = moduleUrl(graphic, deps.origin);
  const root = doc.createElement('div');
  setStyles(root, FULL);
  root.dataset.scene = scene.id;
  root.dataset.graphic = graphic.id;
  const { frame, port } = createFrame(doc, deps.hostUrl);
  root.appendChild(frame);
  const calls = createGraphicCalls({
    port,
    onUncaught: (message) => report('error', message),
    later: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
  });
  let loaded: Promise<boolean> | null = null;
  let takeAnimated = false;
  let entered = false;
  let lastJson = '';
  let lastStep = 0;
  let leaving = false;
  let removed = false;
  let latest: { raw: GraphicData; step: number } | null = null;

  function report(what: string, message: string): void {
    deps.report({ message: clip(`${label}: ${what}: ${message}`), url });
  }

  function judge(method: GraphicMethod, outcome: CallOutcome): boolean {
    if (outcome.ok && outcome.result.statusCode >= 200 && outcome.result.statusCode < 300) return true;
    if (!outcome.ok && outcome.reason === 'closed') return false;
    const text = outcome.ok
      ? `answered ${outcome.result.statusCode} ${outcome.result.statusMessage ?? ''}`.trim()
      : outcome.message;
    report(method, text);
    return false;
  }

  /** Queued behind `load` and every call before it; a graphic that did not load gets none. */
  function act(method: GraphicMethod, params: Record<string, unknown>, timeoutMs = GRAPHIC_ACTION_TIMEOUT_MS) {
    return (loaded ?? Promise.resolve(false)).then((ok) =>
      ok && !removed ? calls.call(method, params, timeoutMs).then((outcome) => judge(method, outcome)) : false,
    );
  }

  function start(data: GraphicData, step: number): void {
    if (url === null) {
      report('load', 'the scene gives no location for its files');
      loaded = Promise.resolve(false);
    } else {
      const renderCharacteristics = { resolution: { ...stage }, frameRate: deps.fps };
      const params = { url, data, renderType: 'realtime', renderCharacteristics };
      loaded = calls.call('load', params, GRAPHIC_LOAD_TIMEOUT_MS).then((outcome) => judge('load', outcome));
    }
    const first = takeAnimated ? act('playAction', {}) : act('playAction', { goto: step, skipAnimation: true });
    lastStep = takeAnimated ? 0 : step;
    void first.then(() => {
      entered = true;
      deps.onEntered();
    });
  }

  /** Brings the graphic to the latest values and step; runs again when a picture it waited for has loaded. */
  function follow(): void {
    if (!latest || leaving || removed) return;
    const { raw, step } = latest;
    const json = JSON.stringify(raw);
    if (loaded === null || json !== lastJson) {
      const data = deps.assets.inline(raw, follow);
      if (data === null) return;
      if (loaded === null) start(data, step);
      // The whole data, not just what changed: many graphics take `updateAction`'s data as their new state.
      else void act('updateAction', { data });
      lastJson = json;
    }
    if (step !== lastStep) {
      void act('playAction', step === lastStep + 1 ? { delta: 1 } : { goto: step });
      lastStep = step;
    }
  }

  function dispose(): Promise<void> {
    return calls
      .call('dispose', {}, GRAPHIC_DISPOSE_TIMEOUT_MS)
      .then((outcome) => void (outcome.ok || outcome.reason === 'closed' || judge('dispose', outcome)));
  }

  const dom: SceneDom = {
    scene,
    root,
    live: false,
    update(values, _fits, entry?: BusEntry) {
      latest = { raw: graphicData(graphic.data, (name) => values.raw(name)), step: entry?.step ?? 0 };
      follow();
    },
    tick: () => undefined,
    enter(_motion, at, serverNow) {
      // The graphic animates itself: the scene's own `in` does not apply.
      takeAnimated = loaded === null && serverNow - at < LATE_TAKE_MS;
    },
    entered: () => entered,
    leave(_motion, _at, _serverNow, gone) {
      if (leaving || removed) return;
      leaving = true;
      void act('stopAction', {})
        .then(() => (removed ? undefined : dispose()))
        .then(() => {
          dom.remove();
          gone();
        });
    },
    play(name, at, serverNow, payload) {
      const id = scene.definition.triggers.find((t) => t.name === name)?.customAction;
      if (id === undefined || leaving || serverNow - at > STALE_TRIGGER_MS) return false;
      void act('customAction', { id, payload: payload ?? {} });
      return true;
    },
    settle: () => undefined,
    remove() {
      if (removed) return;
      removed = true;
      // Gone from the picture at once; `dispose` gets a moment before the iframe goes, but no more.
      root.style.visibility = 'hidden';
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        calls.close();
        root.remove();
      };
      const timer = setTimeout(finish, GRAPHIC_DISPOSE_TIMEOUT_MS);
      // Leaving has had its `stopAction` and `dispose` (or is cut short now).
      if (leaving) return finish();
      void (loaded ?? Promise.resolve(false)).then((ok) => (ok ? dispose() : undefined)).then(finish);
    },
  };
  return dom;
}
