/**
 * One line of text in a fixed box, shrunk to fit when too long. The text sits in a span whose natural
 * width is measured once per text change; the fit is a scale on the span (no font-size change, so
 * nothing else lays out). Measuring is two-phase across the whole stage: every text is written first,
 * then all are measured (one layout), then all scales are written.
 */
import type { TextStyle } from '@onair/protocol';
import { createDomWriter, setStyles, type DomWriter } from './dom-writer.js';
import { fontFamilyCss, fontWeight, num } from './element-style.js';
import { fitOrigin, fitScale, measureKey } from './fit-text.js';

export interface TextBox {
  /** Writes the text and colour; queues a measurement when the text's shape changed. */
  set(text: string, color: string, fits: FitQueue): void;
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

export function createTextBox(el: HTMLElement, style: TextStyle, boxWidth: number, tabular: boolean): TextBox {
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
  setStyles(span, { flex: 'none', 'white-space': 'pre', 'transform-origin': fitOrigin(align) });
  el.appendChild(span);
  const spanWriter: DomWriter = createDomWriter(span);
  const boxWriter: DomWriter = createDomWriter(el);
  const shrink = style.shrink !== false;
  let measured: string | null = null;

  const fit: PendingFit = {
    read: () => span.offsetWidth,
    apply(width) {
      const scale = fitScale(width, boxWidth);
      spanWriter.style('transform', scale === 1 ? 'none' : `scale(${scale})`);
    },
  };

  return {
    set(text, color, fits) {
      spanWriter.text(text);
      boxWriter.style('color', color);
      if (!shrink) return;
      const key = measureKey(text, tabular);
      if (key === measured) return;
      measured = key;
      fits.add(fit);
    },
  };
}
