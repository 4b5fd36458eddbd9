/**
 * One line of text in its box, shrunk to fit when too long and cut with an ellipsis past its smallest size;
 * a box with `minWidth` takes the text's width. The text sits in a span whose natural width is measured once
 * per text change; the fit is a scale on the span (no font-size change, so nothing else lays out). Measuring is
 * two-phase across the whole stage: every text is written first, then all are measured (one layout), then all
 * scales, cuts and widths are written (and passed to the boxes that follow them).
 */
import type { TextStyle } from '@onair/protocol';
import { createDomWriter, setStyles, type DomWriter } from './dom-writer.js';
import { fontFamilyCss, fontWeight, num } from './element-style.js';
import { alignedOffset, fitOrigin, fitText, measureKey, minScale, type FitBox } from './fit-text.js';

export interface TextBox {
  /** Writes the text and colour; queues a measurement when the text's shape changed. */
  set(text: string, color: string, fits: FitQueue): void;
  /** Calls `listener` with the box's drawn width whenever it changes (a box with `minWidth` only). */
  onWidth(listener: (width: number) => void): void;
}

/** Texts waiting to be measured in this drawing pass. */
export interface FitQueue {
  add(fit: PendingFit): void;
}

export interface PendingFit {
  /** Reads the natural width (forces layout once for the whole queue). */
  read(): number;
  /** Writes the scale for that width. */
  apply(naturalWidth: number): void;
}

export function createFitQueue(): FitQueue & { flush(): void } {
  let queue: PendingFit[] = [];
  return {
    add: (fit) => queue.push(fit),
    flush() {
      if (queue.length === 0) return;
      const fits = queue;
      queue = [];
      const widths = fits.map((f) => f.read());
      fits.forEach((f, i) => f.apply(widths[i] as number));
    },
  };
}

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

export interface TextBoxPlan {
  style: TextStyle;
  /** The definition's width: the most the box takes. */
  width: number;
  /** Set when the box fits its text (a text element's `minWidth`). */
  minWidth?: number;
  /** Clock digits keep their width: measured again only when the shape changes. */
  tabular: boolean;
}

export function createTextBox(el: HTMLElement, plan: TextBoxPlan): TextBox {
  const { style, tabular } = plan;
  const align = style.align ?? 'left';
  setStyles(el, {
    display: 'flex',
    'align-items': 'center',
    'justify-content': JUSTIFY[align],
    'font-family': fontFamilyCss(style.fontFamily),
    'font-weight': String(fontWeight(style)),
    'font-size': `${num(style.fontSize)}px`,
    'line-height': '1.2',
    'letter-spacing': style.letterSpacing ? `${num(style.letterSpacing)}px` : undefined,
    'text-transform': style.uppercase ? 'uppercase' : undefined,
    'font-variant-numeric': tabular ? 'tabular-nums' : undefined,
    'white-space': 'pre',
  });
  const span = el.ownerDocument.createElement('span');
  setStyles(span, {
    flex: 'none',
    'white-space': 'pre',
    'transform-origin': fitOrigin(align),
    'text-overflow': 'ellipsis',
  });
  el.appendChild(span);
  const spanWriter: DomWriter = createDomWriter(span);
  const boxWriter: DomWriter = createDomWriter(el);
  const box: FitBox = {
    width: plan.width,
    minWidth: plan.minWidth,
    minScale: minScale(style),
    cut: style.shrink !== false,
  };
  const measures = box.cut || box.minWidth !== undefined;
  const listeners: ((width: number) => void)[] = [];
  let measured: string | null = null;

  const cut = (at: number | null) => {
    // Clipped only while cut: a whole line keeps the overhang of its last glyph.
    spanWriter.style('max-width', at === null ? 'none' : `${at}px`);
    spanWriter.style('overflow-x', at === null ? 'visible' : 'clip');
  };
  const fit: PendingFit = {
    read: () => span.offsetWidth,
    apply(natural) {
      const { scale, cutAt, width } = fitText(natural, box);
      spanWriter.style('transform', scale === 1 ? 'none' : `scale(${scale})`);
      cut(cutAt);
      if (box.minWidth === undefined) return;
      boxWriter.style('width', `${num(width)}px`);
      boxWriter.style('left', `${num(alignedOffset(align, box.width, width))}px`);
      for (const listener of listeners) listener(width);
    },
  };

  return {
    set(text, color, fits) {
      spanWriter.text(text);
      boxWriter.style('color', color);
      if (!measures) return;
      const key = measureKey(text, tabular);
      if (key === measured) return;
      measured = key;
      cut(null);
      fits.add(fit);
    },
    onWidth: (listener) => void listeners.push(listener),
  };
}
