/**
 * Writes to one element only when a value differs from what was last written, so a frame that
 * changes one input touches one text node and the browser has nothing else to restyle.
 */

export interface DomWriter {
  style(property: string, value: string): void;
  text(value: string): void;
}

export function createDomWriter(el: HTMLElement): DomWriter {
  const last = new Map<string, string>();
  const changed = (key: string, value: string): boolean => {
    if (last.get(key) === value) return false;
    last.set(key, value);
    return true;
  };
  return {
    style(property, value) {
      if (changed(property, value)) el.style.setProperty(property, value);
    },
    text(value) {
      // '#text' cannot clash with a CSS property name.
      if (changed('#text', value)) el.textContent = value;
    },
  };
}

/** Styles that never change for the element's life; set once at creation. */
export function setStyles(el: HTMLElement, styles: Record<string, string | undefined>): void {
  for (const [property, value] of Object.entries(styles)) {
    if (value !== undefined) el.style.setProperty(property, value);
  }
}

/** A CSS `url("…")` for any string; quotes, backslashes and line breaks cannot end it early. */
export function cssUrl(src: string): string {
  const escaped = src.replace(/["\\\n\r\f]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `);
  return `url("${escaped}")`;
}
