/**
 * One scene element as a DOM element. What the definition fixes (place, size, font, rotation) is set once,
 * when the element is built; only what comes from inputs is written again, through a DomWriter that skips
 * unchanged values, so a patch touches only what it changes.
 */
import { placeholders, type SceneElement, type InputDef } from '@onair/protocol';
import { createDomWriter, cssUrl, setStyles } from './dom-writer.js';
import { baseOpacity, baseTransform, borderCss, fillCss, num, shadowCss } from './element-style.js';
import type { SceneValues } from './scene-values.js';
import { createTextBox, type FitQueue } from './text-box.js';

export interface ElementView {
  readonly el: HTMLElement;
  readonly def: SceneElement;
  /** How it is drawn without animation: triggers animate on top of this. */
  readonly base: { transform: string; opacity: number };
  /** True when its text follows a clock, so it is redrawn every display frame while the clock runs. */
  readonly live: boolean;
  update(values: SceneValues, fits: FitQueue): void;
}

type Paint = (values: SceneValues, fits: FitQueue) => void;

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
  const paint = painterFor(el, def);
  const view: ElementView = {
    el,
    def,
    base,
    live: def.type === 'clock' || (def.type === 'text' && followsClock(def.text, inputs)),
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

function followsClock(template: string, inputs: Readonly<Record<string, InputDef>>): boolean {
  return placeholders(template).some((name) => inputs[name]?.type === 'clock');
}

/** Text and clocks are white unless the definition says otherwise. */
const DEFAULT_TEXT_COLOR = '#ffffff';

function painterFor(el: HTMLElement, def: SceneElement): Paint {
  const write = createDomWriter(el);
  switch (def.type) {
    case 'text': {
      const box = createTextBox(el, def, def.width, false);
      return (values, fits) => box.set(values.fill(def.text), values.color(def.color ?? DEFAULT_TEXT_COLOR), fits);
    }
    case 'clock': {
      const box = createTextBox(el, def, def.width, true);
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
        const src = values.fill(def.src).trim();
        write.style('background-image', /^https?:\/\//i.test(src) ? cssUrl(src) : 'none');
      };
    case 'group':
      return () => undefined;
  }
}
