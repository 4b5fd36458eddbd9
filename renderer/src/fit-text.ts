/**
 * Shrink-to-fit: a line of text too wide for its box is drawn smaller (a scale on the text, so the box
 * and everything around it keep their layout), never cut. The natural width is measured once per text
 * change, never per frame. Pure.
 */

/** Room left so a width rounded to whole pixels by the browser can never poke out of the box. */
const SAFETY_PX = 1;

/** The scale (0–1] at which text `naturalWidth` wide fits `boxWidth`. */
export function fitScale(naturalWidth: number, boxWidth: number): number {
  if (!(naturalWidth > 0) || !(boxWidth > 0)) return 1;
  const room = Math.max(1, boxWidth - SAFETY_PX);
  if (naturalWidth <= room) return 1;
  return Math.floor((room / naturalWidth) * 10_000) / 10_000;
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
