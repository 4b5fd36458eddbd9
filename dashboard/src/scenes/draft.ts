/**
 * The scene editor's working copy of a definition: plain JSON, exactly what the JSON view shows and what the dry
 * run and Save send (docs/scenes.md). The form edits it through these pure helpers, each returning a new object
 * and keeping every field it does not know, so nothing typed in the JSON view is lost by using the form.
 */
import { type ElementType } from '@onair/protocol';

export type Obj = Record<string, unknown>;

export const ELEMENT_TYPES: readonly ElementType[] = ['text', 'box', 'image', 'clock', 'group', 'rows', 'crawl'];

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A definition with nothing in it: format 1, layer 0, cut in and out. */
export function blankDefinition(): Obj {
  return {
    version: 1,
    layer: 0,
    inputs: [],
    elements: [],
    transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
    triggers: [],
  };
}

/** `obj` with `key` set, or removed when `value` is undefined (the format's default applies). */
export function withKey(obj: Obj, key: string, value: unknown): Obj {
  const next = { ...obj };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** The array under `key`, or [] when there is none (or something else is there). */
export function listOf(obj: Obj, key: string): unknown[] {
  const value = obj[key];
  return Array.isArray(value) ? value : [];
}

export function replaced<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((old, i) => (i === index ? item : old));
}

export function removed<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

/** The list with item `index` moved by `delta` places (−1 up, +1 down); unchanged at either end. */
export function moved<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1) as [T];
  next.splice(to, 0, item);
  return next;
}

/** `base` followed by the first free number: `input1`, `input2`… */
export function freeName(base: string, taken: readonly unknown[]): string {
  const names = new Set(taken.map((item) => (isObj(item) ? item.name : undefined)));
  let n = 1;
  while (names.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

const BASE_KEYS = [
  'name',
  'x',
  'y',
  'width',
  'height',
  'opacity',
  'rotation',
  'scale',
  'visibleIf',
  'visibleWhen',
  'delayMs',
];
const TEXT_STYLE_KEYS = [
  'fontFamily',
  'fontWeight',
  'fontSize',
  'color',
  'align',
  'letterSpacing',
  'uppercase',
  'shrink',
  'minFontSize',
];

/** The text styling a crawl has no use for: it never shrinks or aligns its line, it moves it. */
const CRAWL_DROPS = new Set(['align', 'shrink', 'minFontSize']);

/** A new element of the type, with the fields the format requires, somewhere visible on a 1920×1080 stage. */
export function newElement(type: ElementType, definition: Obj): Obj {
  const at = { x: 160, y: 160 };
  switch (type) {
    case 'text':
      return { type, ...at, width: 640, height: 80, text: 'Text', fontFamily: 'Inter', fontSize: 48, color: '#ffffff' };
    case 'box':
      return { type, ...at, width: 640, height: 80, fill: '#101820' };
    case 'image':
      return { type, ...at, width: 200, height: 200, src: 'https://example.com/logo.png' };
    case 'clock': {
      const clock = listOf(definition, 'inputs').find((i) => isObj(i) && i.type === 'clock');
      const name = isObj(clock) && typeof clock.name === 'string' ? clock.name : 'clock';
      return { type, ...at, width: 200, height: 80, clock: name, fontSize: 48, color: '#ffffff' };
    }
    case 'group':
      return { type, ...at, width: 640, height: 160, children: [] };
    case 'rows':
      return { type, ...at, width: 640, height: 60, list: firstList(definition), rowHeight: 64, children: [] };
    case 'crawl':
      return { type, ...at, width: 1600, height: 60, list: firstList(definition), text: '{text}', fontSize: 36 };
  }
}

/** The name of the definition's first list input (a new rows or crawl element draws it), else `rows`. */
function firstList(definition: Obj): string {
  const list = listOf(definition, 'inputs').find((i) => isObj(i) && i.type === 'list');
  return isObj(list) && typeof list.name === 'string' ? list.name : 'rows';
}

/** The element as another type: its place and common fields kept, text styling kept between text, clock and crawl. */
export function convertElement(element: Obj, type: ElementType, definition: Obj): Obj {
  const next = newElement(type, definition);
  const keep =
    type === 'text' || type === 'clock'
      ? [...BASE_KEYS, ...TEXT_STYLE_KEYS]
      : type === 'crawl'
        ? [...BASE_KEYS, ...TEXT_STYLE_KEYS.filter((key) => !CRAWL_DROPS.has(key))]
        : BASE_KEYS;
  for (const key of keep) if (element[key] !== undefined) next[key] = element[key];
  return next;
}

/** A transition as another type: a cut has no duration, easing or edge; only slide and wipe have an edge. */
export function convertTransition(t: Obj, type: string): Obj {
  if (type === 'cut') return { type, durationMs: 0 };
  const next: Obj = { ...t, type };
  if (t.type === 'cut' || typeof t.durationMs !== 'number') next.durationMs = 500;
  if (type === 'fade') delete next.from;
  else if (next.from === undefined) next.from = 'left';
  return next;
}

/**
 * An input as another type: its default, a clock's direction, stop and periods, a select's options and a list's
 * columns and most rows no longer apply. A new select starts with two options, a new list with one text column.
 */
export function convertInput(input: Obj, type: string): Obj {
  const next: Obj = { ...input, type };
  delete next.default;
  if (type !== 'clock') {
    delete next.direction;
    delete next.stopAt;
    delete next.periods;
  }
  if (type !== 'select') delete next.options;
  else if (!Array.isArray(next.options)) next.options = ['Option 1', 'Option 2'];
  if (type !== 'list') {
    delete next.columns;
    delete next.maxRows;
  } else if (!Array.isArray(next.columns)) next.columns = [{ name: 'column1', type: 'text' }];
  return next;
}

/** The JSON view's text for a draft. */
export function draftText(draft: Obj): string {
  return JSON.stringify(draft, null, 2);
}

/** Parses the JSON view: the draft, or a message saying plainly what is wrong. */
export function parseDraft(text: string): { draft: Obj } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `This is not valid JSON: ${err instanceof Error ? err.message : String(err)}.` };
  }
  if (!isObj(value)) return { error: 'The definition must be a JSON object: { "elements": [ … ], … }.' };
  return { draft: value };
}
