/**
 * Instruments the output page before its own script runs, for the renderer's browser tests:
 * - every display frame's view of the page (text shown, animations running, fonts loaded), from the
 *   first frame on, so a test can see what the first painted frame held;
 * - each Element.animate call, by the animated element's data-name (or `scene` / `unit`);
 * - Content-Security-Policy violations;
 * - a gate on requestAnimationFrame, to play a host that hides the page (no frames) and shows it again.
 * And a reading of an element's style at a set time into a transition (styleDuringTransition).
 */
import type { Page } from 'playwright-core';

export interface ProbeFrame {
  t: number;
  text: string;
  running: number;
  fonts: boolean;
}

interface Probe {
  frames: ProbeFrame[];
  animations: Record<string, number>;
  violations: string[];
  paused: boolean;
  resume(): void;
}

declare global {
  interface Window {
    __probe?: Probe;
  }
}

function install(): void {
  const nativeRaf = window.requestAnimationFrame.bind(window);
  const queued: FrameRequestCallback[] = [];
  const probe: Probe = {
    frames: [],
    animations: {},
    violations: [],
    paused: false,
    resume() {
      probe.paused = false;
      for (const cb of queued.splice(0)) nativeRaf(cb);
    },
  };
  window.__probe = probe;
  window.requestAnimationFrame = (cb) =>
    nativeRaf((t) => {
      if (probe.paused) queued.push(cb);
      else cb(t);
    });
  const proto = Element.prototype as { animate: (this: Element, ...args: Parameters<Element['animate']>) => Animation };
  const nativeAnimate = proto.animate;
  proto.animate = function (this: Element, ...args) {
    const data = (this as HTMLElement).dataset;
    const key = data.name ?? (data.scene ? 'scene' : 'unit');
    probe.animations[key] = (probe.animations[key] ?? 0) + 1;
    return nativeAnimate.apply(this, args);
  };
  document.addEventListener('securitypolicyviolation', (e) =>
    probe.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
  );
  const record = (t: number) => {
    if (probe.frames.length < 600) {
      probe.frames.push({
        t,
        text: document.body?.innerText.trim() ?? '',
        running: document.getAnimations().filter((a) => a.playState === 'running').length,
        fonts: document.fonts.check('700 40px "Oswald"'),
      });
    }
    nativeRaf(record);
  };
  nativeRaf(record);
}

export async function installProbe(page: Page): Promise<void> {
  await page.addInitScript(install);
}

/** The first recorded frame that showed any text: what the page first painted. */
export async function firstDrawnFrame(page: Page): Promise<ProbeFrame | undefined> {
  return page.evaluate(() => window.__probe?.frames.find((f) => f.text !== ''));
}

export async function animationCount(page: Page, key: string): Promise<number> {
  return page.evaluate((k) => window.__probe?.animations[k] ?? 0, key);
}

export type AnimatedProperty = 'opacity' | 'transform' | 'clipPath';

/**
 * Computed style of the element `selector` names `ms` into the transition it starts: waits on the page for the element
 * and its animation, then holds every animation at `ms` while it reads (and lets them play on). How late this test
 * gets to look, on a busy machine, does not move the moment read.
 */
export function styleDuringTransition(
  page: Page,
  selector: string,
  property: AnimatedProperty,
  ms: number,
): Promise<string> {
  return page.evaluate(
    async ([sel, p, at]) => {
      const deadline = performance.now() + 10_000;
      let el = document.querySelector(sel);
      while (!el || el.getAnimations().length === 0) {
        if (performance.now() > deadline) return el ? 'not animated' : 'absent';
        await new Promise((resolve) => setTimeout(resolve, 5));
        el = document.querySelector(sel);
      }
      const held = document.getAnimations();
      for (const a of held) {
        a.pause();
        a.currentTime = at;
      }
      const value = getComputedStyle(el)[p];
      for (const a of held) a.play();
      return value;
    },
    [selector, property, ms] as const,
  );
}
