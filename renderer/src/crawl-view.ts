/**
 * A crawl element's painter (docs/scenes.md, "crawl"): its items on one line moving right to left, as its
 * CrawlPlan says. The line moves by Web Animations of `transform` alone, on layers of their own, so the compositor
 * moves it on every display frame without script, style or layout: its speed is a matter of time, not of frames.
 * Script runs only when the items change: the new cycle is measured once (with the stage's other texts), the plan
 * is made again, and the line rebuilt in one go, so that nothing on screen moves.
 */
import { CRAWL_SPEED, DEFAULT_CRAWL_SEPARATOR, type CrawlElement } from '@onair/protocol';
import { loopCopies, replan, type CrawlPlan, type Run } from './crawl-plan.js';
import { createDomWriter, setStyles } from './dom-writer.js';
import { DEFAULT_TEXT_COLOR, fontFamilyCss, fontWeight, num } from './element-style.js';
import type { SceneValues } from './scene-values.js';
import type { FitQueue } from './text-box.js';

/** The id of a crawl's animations: they never end, and tests tell them from transitions by it. */
export const CRAWL_ANIMATION_ID = 'crawl';

/** A layer of the line: as tall as the box, moved by its transform only. */
const LAYER = {
  position: 'absolute',
  left: '0',
  top: '0',
  height: '100%',
  'will-change': 'transform',
} as const;

/** The cycle's text: each row's item, blank ones left out, with the separator after each. */
export function cycleText(values: SceneValues, def: Pick<CrawlElement, 'list' | 'text' | 'separator'>): string {
  const separator = def.separator ?? DEFAULT_CRAWL_SEPARATOR;
  let text = '';
  for (let i = 0; i < values.rowCount(def.list); i++) {
    const item = values.row(def.list, i).fill(def.text);
    if (item.trim() !== '') text += item + separator;
  }
  return text;
}

export function crawlPainter(el: HTMLElement, def: CrawlElement): (values: SceneValues, fits: FitQueue) => void {
  const doc = el.ownerDocument;
  setStyles(el, {
    overflow: 'hidden',
    'font-family': fontFamilyCss(def.fontFamily),
    'font-weight': String(fontWeight(def)),
    'font-size': `${num(def.fontSize)}px`,
    'line-height': '1.2',
    'letter-spacing': def.letterSpacing ? `${num(def.letterSpacing)}px` : undefined,
    'text-transform': def.uppercase ? 'uppercase' : undefined,
    'white-space': 'pre',
  });
  const measure = doc.createElement('span');
  setStyles(measure, { position: 'absolute', left: '0', top: '0', visibility: 'hidden', 'white-space': 'pre' });
  el.appendChild(measure);
  const write = createDomWriter(el);
  const speed = def.speed ?? CRAWL_SPEED.default;
  let plan: CrawlPlan | null = null;
  let line: HTMLElement | null = null;
  let wanted: string | null = null;

  const now = (): number => {
    const t = doc.timeline.currentTime;
    return typeof t === 'number' ? t : 0;
  };
  const show = (cycle: Run | null): void => {
    plan = replan(plan, now(), def.width, cycle, speed);
    const next = drawLine(doc, plan, def.width);
    line?.remove();
    line = next;
    el.appendChild(next);
  };

  return (values, fits) => {
    write.style('color', values.color(def.color ?? DEFAULT_TEXT_COLOR));
    const text = cycleText(values, def);
    if (text === wanted) return;
    wanted = text;
    if (text === '') return show(null);
    measure.textContent = text;
    fits.add({
      read: () => measure.offsetWidth,
      apply(width) {
        if (wanted !== text) return;
        // Nothing to see (zero-width characters only) is no item. A pixel more than measured: the width is a
        // whole number, and the text always fits in it.
        show(width > 0 ? { text, width: width + 1 } : null);
      },
    });
  };
}

/** The line as `plan` draws it, its animations started at the plan's start. */
function drawLine(doc: Document, plan: CrawlPlan, boxWidth: number): HTMLElement {
  const line = doc.createElement('div');
  setStyles(line, LAYER);
  for (const piece of plan.pieces) line.appendChild(drawRun(doc, piece, piece.x));
  const ms = (px: number) => (px / plan.speed) * 1000;
  if (plan.cycle !== null) {
    const cycle = plan.cycle;
    const loop = doc.createElement('div');
    setStyles(loop, LAYER);
    for (let i = 0; i < loopCopies(cycle, boxWidth); i++) loop.appendChild(drawRun(doc, cycle, i * cycle.width));
    line.appendChild(loop);
    const frames = [{ transform: 'translateX(0px)' }, { transform: `translateX(${num(-cycle.width)}px)` }];
    start(loop, frames, { duration: ms(cycle.width), delay: ms(plan.lead), iterations: Infinity }, plan.start);
  }
  if (plan.lead > 0 && (plan.cycle !== null || plan.pieces.length > 0)) {
    const frames = [{ transform: `translateX(${num(plan.lead)}px)` }, { transform: 'translateX(0px)' }];
    start(line, frames, { duration: ms(plan.lead), fill: 'both' }, plan.start);
  }
  return line;
}

function drawRun(doc: Document, run: Run, x: number): HTMLElement {
  const el = doc.createElement('div');
  setStyles(el, {
    position: 'absolute',
    left: `${num(x)}px`,
    top: '0',
    width: `${num(run.width)}px`,
    height: '100%',
    display: 'flex',
    'align-items': 'center',
    'white-space': 'pre',
  });
  el.textContent = run.text;
  return el;
}

function start(el: HTMLElement, frames: Keyframe[], timing: KeyframeAnimationOptions, at: number): void {
  const animation = el.animate(frames, { ...timing, id: CRAWL_ANIMATION_ID, easing: 'linear' });
  animation.startTime = at;
}
