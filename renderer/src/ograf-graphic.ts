/**
 * An onair scene as an OGraf graphic (docs/ograf.md, "Export"): the module of every exported package, whose default
 * export is the web component a stock OGraf renderer hosts. It draws the scene packed beside it (scene.json) with the
 * output page's own scene code, its fonts and asset files from the package's folders, and needs no onair server.
 * playAction plays the scene's `in`, stopAction its `out`, updateAction writes new values (and plays the triggers
 * that follow a changed input), customAction plays the trigger of that name.
 */
import { OGRAF_SCENE_FILE, type OgrafScenePackage } from '@onair/protocol';
import type { GraphicsAPI, PlayActionReturnPayload, ReturnPayload } from 'ograf';
import { configureAssetAccess } from './asset-urls.js';
import { setStyles } from './dom-writer.js';
import { FONT_FILES } from './font-files.js';
import { createFontLoader, type FontLoader } from './font-loader.js';
import { DEFAULT_TRIGGER_MS, transitionMotion } from './motion.js';
import { changedInputs, defaultValues, standingClocks, withData } from './ograf-values.js';
import { createSceneDom, type SceneDom } from './scene-dom.js';
import { createSceneValues } from './scene-values.js';
import { createFitQueue } from './text-box.js';
import { fitStage, fitTransform } from './viewport-fit.js';

type Graphic = GraphicsAPI.Graphic;
type Values = ReturnType<typeof defaultValues>;

/** The package's folder: scene.json, fonts/ and assets/ are read from beside this module. */
const BASE = new URL('.', import.meta.url).href;
// A library path (/assets/…) resolves into the package's own assets/ folder.
configureAssetAccess(BASE.replace(/\/$/, ''), '', null);

/** The scene has one step: played in, it stays until stopAction (or a playAction past it). */
const STEP_COUNT = 1;
/** The spec's `currentStep` after a transition to the end is undefined; the typings say number. */
const AT_END = undefined as unknown as number;
/** How often a wait for an animation checks it is over: timers, not frames, run in a hidden host too. */
const POLL_MS = 20;

let fonts: { loader: FontLoader; waiting: Set<() => void> } | null = null;

/** Resolves once every face the scene draws with has loaded (or given up: font-loader.ts). */
function fontsReady(scene: OgrafScenePackage['scene']): Promise<void> {
  if (!fonts) {
    const waiting = new Set<() => void>();
    const files = FONT_FILES.map((f) => ({ ...f, url: new URL(f.url, import.meta.url).href }));
    fonts = { loader: createFontLoader(document, files, () => [...waiting].forEach((fn) => fn())), waiting };
  }
  const { loader, waiting } = fonts;
  return new Promise((resolve) => {
    const check = () => {
      if (!loader.ready(scene)) return;
      waiting.delete(check);
      resolve();
    };
    waiting.add(check);
    loader.load(scene);
    check();
  });
}

function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => (done() ? resolve() : setTimeout(poll, POLL_MS));
    poll();
  });
}

const fail = (statusCode: number, statusMessage: string) => ({ statusCode, statusMessage });

export default class OnairGraphic extends HTMLElement implements Graphic {
  #pkg: OgrafScenePackage | null = null;
  #values: Values = {};
  #dom: SceneDom | null = null;
  #leaving = new Map<SceneDom, () => void>();
  #step: number | undefined;
  #fits = createFitQueue();
  #stage: HTMLElement;
  #resize = new ResizeObserver(() => this.#fit());

  constructor() {
    super();
    this.#stage = document.createElement('div');
    setStyles(this.#stage, { position: 'absolute', left: '0', top: '0', 'transform-origin': '0 0' });
    this.attachShadow({ mode: 'open' }).appendChild(this.#stage);
  }

  connectedCallback(): void {
    // Full-frame unless the renderer placed it: the scene is drawn on its stage scaled to this element.
    if (!this.style.position)
      setStyles(this, { position: 'absolute', left: '0', top: '0', width: '100%', height: '100%' });
    setStyles(this, { display: 'block', overflow: 'hidden', 'pointer-events': 'none' });
    this.#resize.observe(this);
    this.#fit();
  }

  disconnectedCallback(): void {
    this.#resize.disconnect();
  }

  async load(params: Parameters<Graphic['load']>[0]): Promise<ReturnPayload> {
    const res = await fetch(new URL(OGRAF_SCENE_FILE, import.meta.url).href);
    if (!res.ok) return fail(500, `${OGRAF_SCENE_FILE}: HTTP ${res.status}`);
    const pkg = (await res.json()) as OgrafScenePackage;
    this.#pkg = pkg;
    this.#values = withData(pkg.scene, defaultValues(pkg.scene), params.data, BASE);
    this.#fit();
    await fontsReady(pkg.scene);
    return { statusCode: 200 };
  }

  async dispose(): Promise<ReturnPayload> {
    this.#dom?.remove();
    this.#dom = null;
    this.#step = undefined;
    for (const [dom, gone] of this.#leaving) {
      dom.remove();
      gone();
    }
    return { statusCode: 200 };
  }

  async playAction(params: Parameters<Graphic['playAction']>[0]): Promise<PlayActionReturnPayload> {
    if (!this.#pkg) return { ...fail(409, 'load() first'), currentStep: AT_END };
    const target = params.goto ?? (this.#step ?? -1) + (params.delta ?? 1);
    if (target < 0 || target >= STEP_COUNT) {
      await this.#leave(params.skipAnimation === true);
      return { statusCode: 200, currentStep: AT_END };
    }
    if (this.#step === undefined) {
      this.#step = target;
      await this.#enter(this.#pkg, params.skipAnimation === true);
    }
    return { statusCode: 200, currentStep: target };
  }

  async stopAction(params: Parameters<Graphic['stopAction']>[0]): Promise<ReturnPayload> {
    await this.#leave(params.skipAnimation === true);
    return { statusCode: 200 };
  }

  async updateAction(params: Parameters<Graphic['updateAction']>[0]): Promise<ReturnPayload> {
    const pkg = this.#pkg;
    if (!pkg) return fail(409, 'load() first');
    const before = this.#values;
    this.#values = withData(pkg.scene, before, params.data, BASE);
    this.#draw();
    const changed = changedInputs(before, this.#values);
    const follow = pkg.scene.definition.triggers.filter((t) => t.on !== undefined && changed.has(t.on));
    if (params.skipAnimation !== true) await Promise.all(follow.map((t) => this.#play(t.name)));
    return { statusCode: 200 };
  }

  async customAction(params: Parameters<Graphic['customAction']>[0]): Promise<ReturnPayload> {
    const trigger = this.#pkg?.scene.definition.triggers.find((t) => t.name === params.id);
    if (!trigger) return fail(404, `No custom action ${params.id}`);
    if (!this.#dom) return fail(409, 'The graphic is not playing: playAction() first');
    if (params.skipAnimation !== true) await this.#play(trigger.name);
    return { statusCode: 200 };
  }

  async goToTime(): Promise<ReturnPayload> {
    return fail(501, 'Non-real-time rendering is not supported');
  }

  async setActionsSchedule(): Promise<ReturnPayload> {
    return fail(501, 'Non-real-time rendering is not supported');
  }

  #size(): { width: number; height: number } {
    return { width: this.#pkg?.width ?? 1920, height: this.#pkg?.height ?? 1080 };
  }

  #fit(): void {
    const { width, height } = this.#size();
    const fit = fitStage(width, height, this.clientWidth, this.clientHeight);
    setStyles(this.#stage, { width: `${width}px`, height: `${height}px`, transform: fitTransform(fit) });
  }

  #draw(): void {
    const dom = this.#dom;
    if (!dom || !this.#pkg) return;
    const now = Date.now();
    const clocks = standingClocks(dom.scene, this.#values, now);
    dom.update(
      createSceneValues(dom.scene, { inputs: this.#values, overrides: {}, clocks, serverNow: now }),
      this.#fits,
    );
    this.#fits.flush();
  }

  async #enter(pkg: OgrafScenePackage, skipAnimation: boolean): Promise<void> {
    const dom = createSceneDom(document, pkg.scene, this.#size());
    this.#dom = dom;
    this.#stage.appendChild(dom.root);
    this.#draw();
    const now = Date.now();
    const motion = skipAnimation ? null : transitionMotion(pkg.scene.definition.transitions.in, 'in', this.#size());
    dom.enter(motion, now, now);
    await until(() => dom.entered() || this.#dom !== dom);
  }

  async #leave(skipAnimation: boolean): Promise<void> {
    const dom = this.#dom;
    this.#dom = null;
    this.#step = undefined;
    if (!dom || !this.#pkg) return;
    const motion = skipAnimation
      ? null
      : transitionMotion(this.#pkg.scene.definition.transitions.out, 'out', this.#size());
    await new Promise<void>((resolve) => {
      const gone = () => {
        this.#leaving.delete(dom);
        resolve();
      };
      this.#leaving.set(dom, gone);
      const now = Date.now();
      dom.leave(motion, now, now, gone);
    });
  }

  async #play(name: string): Promise<void> {
    const dom = this.#dom;
    const trigger = dom?.scene.definition.triggers.find((t) => t.name === name);
    if (!dom || !trigger) return;
    const now = Date.now();
    if (!dom.play(name, now, now)) return;
    const ends = now + (trigger.durationMs ?? DEFAULT_TRIGGER_MS);
    await until(() => Date.now() >= ends || this.#dom !== dom);
  }
}
