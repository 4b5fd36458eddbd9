/**
 * One scene element as a DOM element. What the definition fixes (place, size, font, rotation) is set once,
 * when the element is built; only what comes from inputs is written again, through a DomWriter that skips
 * unchanged values, so a patch touches only what it changes.
 */
import { placeholders, type SceneElement, type InputDef } from '@onair/protocol';
import { imageUrl } from './asset-urls.js';
import { watchImage } from './load-errors.js';
import { createDomWriter, cssUrl, setStyles } from './dom-writer.js';
import { crawlPainter } from './crawl-view.js';
import { baseOpacity, baseTransform, borderCss, DEFAULT_TEXT_COLOR, fillCss, num, shadowCss } from './element-style.js';
import type { SceneValues } from './scene-values.js';
import { alignedOffset } from './fit-text.js';
import { createTextBox, type FitQueue, type TextBox } from './text-box.js';
import { rowsPainter } from './rows-view.js';

export interface ElementView {
  readonly el: HTMLElement;
  readonly def: SceneElement;
  /** How it is drawn without animation: triggers animate on top of this. */
  readonly base: { transform: string; opacity: number };
  /** True when its text follows a clock, so it is redrawn every display frame while the clock runs. */
  readonly live: boolean;
  /** A text or clock's box, which boxes with `followWidth` follow. */
  readonly text?: TextBox;
  update(values: SceneValues, fits: FitQueue): void;
}

type Paint = ((values: SceneValues, fits: FitQueue) => void) & { text?: TextBox };

/** Builds the element (and, for a group, its children, appended to `all` after it). */
export function createElementView(
  doc: Document,
  def: SceneElement,
  inputs: Readonly<Record<string, InputDef>>,
  all: ElementView[],
): ElementView {
  const el = doc.createElement('div');
  const base = { transform: baseTransform(def), opacity: baseOpacity(def) };
  setStyles(el, {
    position: 'absolute',
    left: '0',
    top: '0',
    width: `${num(def.width)}px`,
    height: `${num(def.height)}px`,
    'box-sizing': 'border-box',
    transform: base.transform,
    opacity: base.opacity === 1 ? undefined : String(base.opacity),
  });
  if (def.name !== undefined) el.dataset.name = def.name;
  el.dataset.type = def.type;
  const write = createDomWriter(el);
  const paint: Paint =
    def.type === 'rows' ? rowsPainter(el, def, inputs, buildChild(doc), linkFollowers) : painterFor(el, def);
  const view: ElementView = {
    el,
    def,
    base,
    live: isLive(def, inputs),
    text: paint.text,
    update(values, fits) {
      // `inherit`, not `visible`: an element shown by its own flag stays hidden inside a hidden group.
      if (def.visibleIf !== undefined || def.visibleWhen !== undefined) {
        const shown =
          (def.visibleIf === undefined || values.isTrue(def.visibleIf)) &&
          (def.visibleWhen === undefined || values.meets(def.visibleWhen));
        write.style('visibility', shown ? 'inherit' : 'hidden');
      }
      paint(values, fits);
    },
  };
  all.push(view);
  if (def.type === 'group') {
    for (const child of def.children) el.appendChild(createElementView(doc, child, inputs, all).el);
  }
  return view;
}

/**
 * Boxes with `followWidth` follow their text (a sibling, so both share coordinates): they keep the difference
 * in width the definition gives them and move on the side the text is aligned to. Written only when the text's
 * width changes, in the measuring pass.
 */
export function linkFollowers(views: readonly ElementView[]): void {
  const texts = new Map(views.filter((v) => v.def.type === 'text' && v.def.name).map((v) => [v.def.name, v]));
  for (const view of views) {
    const def = view.def;
    if (def.type !== 'box' || def.followWidth === undefined) continue;
    const target = texts.get(def.followWidth);
    if (target?.def.type !== 'text' || !target.text) continue;
    const { width: full, align } = target.def;
    const write = createDomWriter(view.el);
    target.text.onWidth((width) => {
      write.style('width', `${num(Math.max(0, def.width - (full - width)))}px`);
      write.style('left', `${num(alignedOffset(align, full, width))}px`);
    });
  }
}

const buildChild =
  (doc: Document) =>
  (child: SceneElement, inputs: Readonly<Record<string, InputDef>>, views: ElementView[]): ElementView =>
    createElementView(doc, child, inputs, views);

/** A text following a clock, a clock, or a group or rows holding one. */
function isLive(def: SceneElement, inputs: Readonly<Record<string, InputDef>>): boolean {
  if (def.type === 'rows') return def.children.some((child) => isLive(child, inputs));
  return def.type === 'clock' || (def.type === 'text' && followsClock(def.text, inputs));
}

function followsClock(template: string, inputs: Readonly<Record<string, InputDef>>): boolean {
  return placeholders(template).some((name) => inputs[name]?.type === 'clock');
}

function painterFor(el: HTMLElement, def: SceneElement): Paint {
  const write = createDomWriter(el);
  switch (def.type) {
    case 'text': {
      const box = createTextBox(el, { style: def, width: def.width, minWidth: def.minWidth, tabular: false });
      const paint: Paint = (values, fits) =>
        box.set(values.fill(def.text), values.color(def.color ?? DEFAULT_TEXT_COLOR), fits);
      return Object.assign(paint, { text: box });
    }
    case 'clock': {
      const box = createTextBox(el, { style: def, width: def.width, tabular: true });
      return (values, fits) =>
        box.set(values.clock(def.clock, def.format), values.color(def.color ?? DEFAULT_TEXT_COLOR), fits);
    }
    case 'box':
      setStyles(el, { 'border-radius': def.radius ? `${num(def.radius)}px` : undefined });
      return (values) => {
        write.style('background', fillCss(def.fill, values));
        write.style('border', borderCss(def.border, values));
        write.style('box-shadow', shadowCss(def.shadow, values));
      };
    case 'image':
      // A background image rather than <img>: a missing or broken source paints nothing, never an icon.
      setStyles(el, {
        'background-size': def.fit === 'fill' ? '100% 100%' : (def.fit ?? 'contain'),
        'background-position': 'center',
        'background-repeat': 'no-repeat',
      });
      return (values) => {
        const url = imageUrl(values.fill(def.src).trim());
        if (url !== null) watchImage(url);
        write.style('background-image', url === null ? 'none' : cssUrl(url));
      };
    case 'crawl':
      return crawlPainter(el, def);
    case 'group':
    case 'rows':
      return () => undefined;
  }
}
