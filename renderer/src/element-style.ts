/**
 * CSS values for scene elements, from the definition and the current values. Pure: every string the
 * stage writes is decided here and tested in Node.
 */
import {
  assetFontFamily,
  fontAssetRef,
  type ElementBase,
  type Fill,
  type FontFamily,
  type TextStyle,
} from '@onair/protocol';
import type { SceneValues } from './scene-values.js';

/** Place, rotation and scale in one transform; the origin is the element's centre (CSS's default). */
export function baseTransform(el: Pick<ElementBase, 'x' | 'y' | 'rotation' | 'scale'>): string {
  let t = `translate(${num(el.x)}px, ${num(el.y)}px)`;
  if (el.rotation) t += ` rotate(${num(el.rotation)}deg)`;
  if (el.scale !== undefined && el.scale !== 1) t += ` scale(${num(Math.max(0, el.scale))})`;
  return t;
}

export function baseOpacity(el: Pick<ElementBase, 'opacity'>): number {
  return el.opacity === undefined ? 1 : clamp01(el.opacity);
}

/** A box fill as a `background` value: a colour, or a linear gradient with stops at fractions 0–1. */
export function fillCss(fill: Fill | undefined, values: SceneValues): string {
  if (fill === undefined) return 'transparent';
  if (typeof fill === 'string') return values.color(fill);
  const { angle, stops } = fill.gradient;
  if (stops.length === 0) return 'transparent';
  const sorted = [...stops].sort((a, b) => a.at - b.at);
  const parts = sorted.map((s) => `${values.color(s.color)} ${num(clamp01(s.at) * 100)}%`);
  // A single stop is not a gradient to CSS; repeating it paints the one colour.
  if (parts.length === 1) parts.push(parts[0] as string);
  return `linear-gradient(${num(angle)}deg, ${parts.join(', ')})`;
}

export function borderCss(border: { width: number; color: string } | undefined, values: SceneValues): string {
  if (!border || border.width <= 0) return 'none';
  return `${num(border.width)}px solid ${values.color(border.color)}`;
}

export function shadowCss(
  shadow: { x: number; y: number; blur: number; color: string } | undefined,
  values: SceneValues,
): string {
  if (!shadow) return 'none';
  return `${num(shadow.x)}px ${num(shadow.y)}px ${num(Math.max(0, shadow.blur))}px ${values.color(shadow.color)}`;
}

/** Text, clocks and crawls are white unless the definition says otherwise. */
export const DEFAULT_TEXT_COLOR = '#ffffff';

/** The typeface a text element uses when its definition names none. */
export const DEFAULT_FONT: FontFamily = 'Inter';

/**
 * The family name the page knows a text style's font by: a bundled family's own name, or for a font of the asset
 * library the name font-loader.ts registers it under.
 */
export function fontFamilyName(family: string | undefined): string {
  const ref = family === undefined ? null : fontAssetRef(family);
  return ref ? assetFontFamily(ref) : (family ?? DEFAULT_FONT);
}

/** A font-family list: the face, then a generic family of the same kind if it ever failed. */
export function fontFamilyCss(family: string | undefined): string {
  const name = fontFamilyName(family);
  return `"${name}", ${name === 'Roboto Mono' ? 'monospace' : 'sans-serif'}`;
}

export function fontWeight(style: Pick<TextStyle, 'fontWeight'>): number {
  const w = style.fontWeight ?? 400;
  return Math.min(900, Math.max(100, Math.round(w / 100) * 100));
}

/** Numbers as CSS wants them: finite, no exponent, at most 4 decimals. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  return String(Math.round(n * 10_000) / 10_000);
}

function clamp01(n: number): number {
  return Math.min(1, Math.max(0, n));
}
