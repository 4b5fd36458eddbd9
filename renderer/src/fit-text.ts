/**
 * Text that fits its box: a line too wide is drawn smaller (a scale on the text, so the box and everything
 * around it keep their layout) down to its smallest size, then cut with an ellipsis; a box sized to its text
 * takes the text's width between its minimum and its width. The natural width is measured once per text
 * change, never per frame. Pure.
 */
import type { TextStyle } from '@onair/protocol';

/** Room left so a width rounded to whole pixels by the browser can never poke out of the box. */
const SAFETY_PX = 1;

/** The smallest size `shrink` goes to when the definition gives none: 75 % of the design size. */
export const DEFAULT_MIN_SCALE = 0.75;

/** The scale (0–1] at which text `naturalWidth` wide fits `boxWidth`. */
export function fitScale(naturalWidth: number, boxWidth: number): number {
  if (!(naturalWidth > 0) || !(boxWidth > 0)) return 1;
  const room = Math.max(1, boxWidth - SAFETY_PX);
  if (naturalWidth <= room) return 1;
  return Math.floor((room / naturalWidth) * 10_000) / 10_000;
}

/** How far a text may shrink: 1 without `shrink`, else `minFontSize` over `fontSize` (75 % by default). */
export function minScale(style: Pick<TextStyle, 'shrink' | 'fontSize' | 'minFontSize'>): number {
  if (style.shrink === false) return 1;
  if (style.minFontSize === undefined || !(style.fontSize > 0)) return DEFAULT_MIN_SCALE;
  return Math.min(1, Math.max(0, style.minFontSize / style.fontSize));
}

export interface FitBox {
  /** The most the box takes (the definition's `width`). */
  width: number;
  /** Set when the box fits its text: the least it takes. */
  minWidth?: number;
  /** The smallest scale (see minScale). */
  minScale: number;
  /** True when text still too wide at `minScale` is cut with an ellipsis (`shrink` on). */
  cut: boolean;
}

export interface TextFit {
  /** The scale the text is drawn at. */
  scale: number;
  /** Unscaled width past which the text is cut with an ellipsis; null when it is whole. */
  cutAt: number | null;
  /** The box's drawn width. */
  width: number;
}

/** How a line `naturalWidth` wide (at its design size) is drawn in `box`. */
export function fitText(naturalWidth: number, box: FitBox): TextFit {
  const fitted = box.cut ? fitScale(naturalWidth, box.width) : 1;
  const scale = Math.max(fitted, Math.min(1, box.minScale));
  const cutAt = box.cut && scale > fitted ? Math.floor(Math.max(1, box.width - SAFETY_PX) / scale) : null;
  if (box.minWidth === undefined) return { scale, cutAt, width: box.width };
  const drawn = Math.ceil((cutAt ?? Math.max(0, naturalWidth)) * scale) + SAFETY_PX;
  return { scale, cutAt, width: Math.min(box.width, Math.max(box.minWidth, drawn)) };
}

/** Where a box `width` wide sits in a box `full` wide, keeping the side its text is aligned to. */
export function alignedOffset(align: TextStyle['align'], full: number, width: number): number {
  if (align === 'right') return full - width;
  if (align === 'center') return (full - width) / 2;
  return 0;
}

/** Scales towards the side the text is aligned to, so it stays where the designer put it. */
export function fitOrigin(align: 'left' | 'center' | 'right' | undefined): string {
  if (align === 'right') return '100% 50%';
  if (align === 'center') return '50% 50%';
  return '0% 50%';
}

/**
 * The key under which a text's width is remembered: a clock drawn with tabular figures keeps its width
 * while its digits change, so it is measured again only when its shape (length, separators) changes.
 */
export function measureKey(text: string, tabular: boolean): string {
  return tabular ? text.replace(/[0-9]/g, '0') : text;
}
