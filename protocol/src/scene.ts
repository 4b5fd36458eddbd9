/**
 * Scene definitions, format version 1, as the server stores them and the renderer draws them (docs/scenes.md).
 *
 * A scene declares the inputs it displays, the elements it draws on the channel's stage (in stage pixels,
 * painted in document order: later elements over earlier ones), how it enters and leaves the air, and the
 * named animations (triggers) it can play. Its `layer` (0–99) says where it sits among the scenes on air at
 * once: each bus holds one scene per layer, and higher layers draw above lower ones.
 */

import { fontAssetRef } from './asset-refs.js';
import type { BusEntry } from './messages.js';

export const SCENE_FORMAT_VERSION = 1;

/**
 * What an input holds. `image`: an http(s) URL of a picture anywhere. `asset`: an image of the workspace's asset
 * library, by its path or URL (asset-refs.ts), refused unless the workspace holds it.
 */
export const INPUT_TYPES = ['number', 'text', 'boolean', 'color', 'image', 'asset', 'clock', 'select', 'list'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/**
 * A value an input can hold. `null` on the wire means "back to the scene default". A list input holds rows: one
 * object per row, with a text or number per column it declares.
 */
export type InputValue = number | string | boolean | null | ListRow[];

/** One row of a list input's value: a column's name to its text or number (a column left out shows empty). */
export type ListRow = Record<string, string | number>;

export const LIST_COLUMN_TYPES = ['text', 'number'] as const;
export type ListColumnType = (typeof LIST_COLUMN_TYPES)[number];

/** A column of a list input: the name its `{column}` placeholders use, and what its cells hold. */
export interface ListColumn {
  name: string;
  type: ListColumnType;
}

/**
 * Whose value an input holds: the channel's (scores, clocks: one value shared by every scene, set by PATCH, hooks
 * and data sources) or the item's (names, titles: each instance on a bus carries its own, from its rundown item).
 */
export const INPUT_SCOPES = ['channel', 'item'] as const;
export type InputScope = (typeof INPUT_SCOPES)[number];

export interface InputDef {
  name: string;
  type: InputType;
  label: string;
  /** Absent: `channel`. Clocks are always channel inputs. */
  scope?: InputScope;
  /** For a clock: the time it starts from and returns to on `reset`, in milliseconds. */
  default: InputValue;
  /** Clocks only: counting `up` or `down` (default `up`). */
  direction?: ClockDirection;
  /**
   * Clocks only: the time, in milliseconds, at which a running clock stops by itself; null never stops.
   * A `down` clock defaults to 0, an `up` clock to null.
   */
  stopAt?: number | null;
  /**
   * Clocks only: the parts of a game (halves, quarters), in order. The clock stops at the current period's stop
   * instead of `stopAt` (which a clock with periods does not have), and the `period` action moves it to the next.
   */
  periods?: ClockPeriod[];
  /** Selects only: the values it may take (1–100 distinct strings), in the order a control panel lists them. */
  options?: string[];
  /** Lists only: the columns of each row (1–10, distinct names). */
  columns?: ListColumn[];
  /** Lists only: the most rows the value may hold (1–100, default 20). */
  maxRows?: number;
}

/** A part of a game a clock runs through (docs/scenes.md, "Periods"). Stored with both times written out. */
export interface ClockPeriod {
  /** What a clock element with format `period` shows: `1st half`, `Q4`. */
  name: string;
  /**
   * The time the clock shows when the period begins. Default: counting up, the previous period's stop (the
   * clock's default for the first); counting down, the clock's default. The first period starts at the default.
   */
  startAt: number;
  /** Where the clock stops in this period; null never. Default as a clock's `stopAt`: 0 down, null up. */
  stopAt: number | null;
}

export const CLOCK_DIRECTIONS = ['up', 'down'] as const;
export type ClockDirection = (typeof CLOCK_DIRECTIONS)[number];

/** A clock's state: its time is `ms` at server time `at`, moving with time while `running` (see clockTime). */
export interface ClockState {
  running: boolean;
  /** Milliseconds shown at `at`. */
  ms: number;
  /** Server epoch milliseconds at which `ms` was true. */
  at: number;
  /** For a clock with periods: the index of the current one. Absent: 0. */
  period?: number;
}

export const CLOCK_ACTIONS = ['start', 'stop', 'set', 'reset', 'adjust', 'period'] as const;
export type ClockAction = (typeof CLOCK_ACTIONS)[number];

export const CLOCK_FORMATS = ['m:ss', 'mm:ss', 'm:ss.t', 'h:mm:ss', 's', 's.t', 'period'] as const;
/**
 * `m:ss` 12:00 · `mm:ss` 02:05 · `m:ss.t` as m:ss, with tenths under a minute (0:09.4) · `h:mm:ss` 1:02:05 ·
 * `s` whole seconds (24, 90) · `s.t` as s, with tenths under 5 seconds (a shot clock: 5, 4.9, 0.0) ·
 * `period` the name of the clock's current period (1st half), for a clock with periods.
 * Counting down, a clock shows the second it is in rounded up (0:00 only at zero); counting up, rounded down.
 */
export type ClockFormat = (typeof CLOCK_FORMATS)[number];

/** The bundled typefaces (served by onair, no CDN), by the name a scene uses. */
export const FONT_FAMILIES = ['Inter', 'Oswald', 'Barlow Condensed', 'Roboto Mono'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];
export const FONT_FAMILY_RULE = `must be one of ${FONT_FAMILIES.join(', ')}, or a WOFF2 font of the asset library: its path (/assets/{sha256}.woff2) or its URL`;

/** Whether a text style may name `family`: a bundled one, or a font of the library (held or not). */
export function isFontFamily(family: string): boolean {
  return (FONT_FAMILIES as readonly string[]).includes(family) || fontAssetRef(family) !== null;
}

export const EASINGS = ['linear', 'ease-in', 'ease-out', 'ease-in-out'] as const;
export type Easing = (typeof EASINGS)[number];
export const EDGES = ['left', 'right', 'top', 'bottom'] as const;
export type Edge = (typeof EDGES)[number];

/** How a scene enters (`in`) or leaves (`out`) the air. `cut` is instant. */
export interface Transition {
  type: 'cut' | 'fade' | 'slide' | 'wipe';
  /** slide: the edge it comes from (in) or goes to (out); wipe: the edge the wipe starts at. Default `left`. */
  from?: Edge;
  /** 0–10,000 ms. */
  durationMs: number;
  easing?: Easing;
}

export interface SceneTransitions {
  in: Transition;
  out: Transition;
}

/**
 * A colour: `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, or `{name}` of a colour input. Anywhere a colour goes.
 */
export type ColorRef = string;

/** A box fill: one colour, or a linear gradient (`angle` in degrees, 0 = bottom to top, as CSS). */
export type Fill = ColorRef | { gradient: { angle: number; stops: { at: number; color: ColorRef }[] } };

/** What every element has: a box on the stage (or in its group), and how it is shown. */
export interface ElementBase {
  /** Names the element for triggers (`targets`); unique within the scene. */
  name?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–1, default 1. */
  opacity?: number;
  /** Degrees, clockwise, about the element's centre. */
  rotation?: number;
  /** Default 1. */
  scale?: number;
  /** Name of a boolean input: the element is drawn only while it is true. */
  visibleIf?: string;
  /** Drawn only while an input's value meets a condition (with `visibleIf` as well, both must hold). */
  visibleWhen?: VisibleWhen;
  /** Staggered entrance: the element's part of the scene's `in` transition starts this many ms later. */
  delayMs?: number;
}

/**
 * A condition on one input: its value `equals` the one given (a text `possession` of `home`), does not equal it
 * (`notEquals: ''`: a title panel drawn only while there is a title), or is a number `atLeast` the one given (a
 * timeout pip lit while `homeTimeouts` is 3 or more). An unset input meets neither `equals` nor `atLeast`, and
 * meets every `notEquals`.
 */
export interface VisibleWhen {
  /** Name of an input (not a clock). */
  input: string;
  /** Exactly one of `equals`, `notEquals` and `atLeast`. */
  equals?: string | number | boolean;
  notEquals?: string | number | boolean;
  /** A number input only. */
  atLeast?: number;
}

/** Text styling shared by text and clock elements. */
export interface TextStyle {
  /**
   * A bundled family (FontFamily; default `Inter`), or a WOFF2 font of the workspace's asset library by its path
   * (`/assets/{sha256}.woff2`) or URL (asset-refs.ts, fontAssetRef), which the workspace must hold when the scene is
   * saved. A name that starts with `/` or a scheme is a file, never a family of the machine: the two cannot be mixed up.
   */
  fontFamily?: string;
  /** 100–900, default 400. */
  fontWeight?: number;
  /** Pixels: the largest size; with `shrink` the text gets smaller to fit its box. */
  fontSize: number;
  color?: ColorRef;
  align?: 'left' | 'center' | 'right';
  /** Pixels, default 0. */
  letterSpacing?: number;
  uppercase?: boolean;
  /**
   * Default true: text too long for its box is drawn smaller so it fits, down to `minFontSize`; what still does
   * not fit is cut with an ellipsis, so it never leaves its box. `false`: drawn at `fontSize`, overflowing.
   */
  shrink?: boolean;
  /** Pixels: the smallest size `shrink` goes down to; default 75 % of `fontSize`. At most `fontSize`. */
  minFontSize?: number;
}

/** Text with `{inputName}` placeholders, replaced by the inputs' current values. One line. */
export interface TextElement extends ElementBase, TextStyle {
  type: 'text';
  text: string;
  /**
   * Pixels: the box fits its text, between this width and `width` (the most it takes). It keeps its aligned
   * side (the left edge for `left`, the centre for `center`), and boxes with `followWidth` follow it.
   * Without it the box is always `width` wide.
   */
  minWidth?: number;
}

export interface BoxElement extends ElementBase {
  type: 'box';
  fill?: Fill;
  border?: { width: number; color: ColorRef };
  /** Corner radius in pixels. */
  radius?: number;
  shadow?: { x: number; y: number; blur: number; color: ColorRef };
  /**
   * Name of a text element with `minWidth` at the same level (same group, or both at the top): the box grows and
   * shrinks with that text's box, keeping the difference in width the definition gives them and moving on the
   * same side (a panel behind a name follows the name).
   */
  followWidth?: string;
}

/** An image; `src` is an http(s) URL or `{name}` of an image or asset input. A broken source draws nothing. */
export interface ImageElement extends ElementBase {
  type: 'image';
  src: string;
  /** Default `contain`. */
  fit?: 'contain' | 'cover' | 'fill';
}

/** A clock input's time, drawn by the renderer from its state: no traffic per second. */
export interface ClockElement extends ElementBase, TextStyle {
  type: 'clock';
  /** Name of a clock input. */
  clock: string;
  /** Default `m:ss`. */
  format?: ClockFormat;
}

/** Elements that move together: children are placed in the group's box and share its transform. */
export interface GroupElement extends ElementBase {
  type: 'group';
  children: SceneElement[];
}

/**
 * A table's rows: its children are drawn once per row of a list input, the row `i` (from 0) `i * rowHeight` pixels
 * below the first, at most the list's `maxRows`. In the children, `{column}` shows that row's cell (a column's
 * name hides an input of the same name); the box is the first row's, and children are placed in it as in a group.
 */
export interface RowsElement extends ElementBase {
  type: 'rows';
  /** Name of a list input. */
  list: string;
  /** Pixels from one row's top to the next's. */
  rowHeight: number;
  children: SceneElement[];
}

/** A crawl's speed in stage pixels a second: its default and bounds. */
export const CRAWL_SPEED = { default: 120, min: 10, max: 1000 } as const;
/** What a crawl draws between two items (and after the last, before the first comes round again). */
export const DEFAULT_CRAWL_SEPARATOR = ' \u2022 ';

/**
 * A news crawl (docs/scenes.md, "crawl"): the rows of a list input, each drawn by `text`, in one line that moves
 * from right to left at `speed` and loops without a gap, `separator` between items. It enters from the box's right
 * edge; a change of the list never moves what is on screen: the items already crawling finish their run, and the
 * new ones follow the last of them. Drawn in its box, clipped to it. An empty list draws nothing.
 */
export interface CrawlElement
  extends
    ElementBase,
    Pick<TextStyle, 'fontFamily' | 'fontWeight' | 'fontSize' | 'color' | 'letterSpacing' | 'uppercase'> {
  type: 'crawl';
  /** Name of a list input. */
  list: string;
  /** One item: `{column}` shows the row's cell (a column's name hides an input of the same name). */
  text: string;
  /** Default DEFAULT_CRAWL_SEPARATOR; drawn as written. */
  separator?: string;
  /** Stage pixels a second (CRAWL_SPEED). */
  speed?: number;
}

export type SceneElement =
  TextElement | BoxElement | ImageElement | ClockElement | GroupElement | RowsElement | CrawlElement;
export type ElementType = SceneElement['type'];

/** One step of a custom trigger animation, at a fraction (0–1) of its duration. */
export interface Keyframe {
  at: number;
  opacity?: number;
  scale?: number;
  rotation?: number;
  /** Offset in pixels from the element's place. */
  dx?: number;
  dy?: number;
  /** Multiplies brightness (1 = as drawn). */
  brightness?: number;
}

export const BUILT_IN_ANIMATIONS = ['flash', 'pulse', 'highlight'] as const;
/** `flash`: blinks twice; `pulse`: grows and settles; `highlight`: glows brighter and fades back. */
export type BuiltInAnimation = (typeof BUILT_IN_ANIMATIONS)[number];

/**
 * A named animation the scene can play while on air: fired by the API, or by a change of the input named in
 * `on` (a score box that flashes when the score changes). It plays once on the renderers connected when it
 * fires, and never again on a reconnect.
 */
export interface TriggerDef {
  name: string;
  /** Absent only on a graphic scene's custom-action trigger (the graphic animates itself). */
  animation?: BuiltInAnimation | { keyframes: Keyframe[] };
  /** Names of the elements it animates; default: the whole scene. */
  targets?: string[];
  /** Default 600 ms. */
  durationMs?: number;
  /** Name of an input: the trigger fires whenever that input's value changes. */
  on?: string;
  /** Graphic scenes: the id of the graphic's custom action it runs (the trigger's payload is its argument). */
  customAction?: string;
}

/**
 * A scene drawn by an imported OGraf graphic instead of elements (its `elements` are empty). The renderer hosts the
 * graphic's web component on the scene's layer and drives it with the OGraf actions.
 */
export interface GraphicRef {
  /** The imported graphic's onair id (`gr_…`). */
  id: string;
  /** The manifest's `id` and `version`. */
  graphicId: string;
  version: string;
  /** The module file (the manifest's `main`), relative to the graphic's files. */
  main: string;
  /** The manifest's `stepCount`: steps `continue` walks through (1: none; -1: as many as the graphic has). */
  stepCount: number;
  /** Where each input goes in the graphic's data: the input's name and the path of keys in the data object. */
  data: { input: string; path: string[] }[];
  /**
   * Set by the server only in the scene views it sends (never stored): the absolute path of the graphic's files for
   * this connection, ending in `/`. The renderer imports `base + main`.
   */
  base?: string;
}

export interface SceneDefinition {
  version: typeof SCENE_FORMAT_VERSION;
  /** Present on a scene made from an OGraf graphic. */
  graphic?: GraphicRef;
  /** 0–99: each bus holds one scene per layer; higher layers draw above lower ones. */
  layer: number;
  inputs: InputDef[];
  elements: SceneElement[];
  transitions: SceneTransitions;
  triggers: TriggerDef[];
}

/** What a renderer needs of a scene. */
export interface SceneView {
  id: string;
  name: string;
  definition: SceneDefinition;
}

/**
 * `{name}` in a text template. The length is left open so that a name too long to be declared is still read as
 * a placeholder (and reported as an unknown input) rather than drawn as text.
 */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * What an instance on a bus draws for an input: its own value (an item-scoped input it carries), else the
 * channel's, else the scene's default. `channel` holds the channel's effective values (defaults filled in).
 */
export function instanceValue(
  entry: Pick<BusEntry, 'values'> | undefined,
  name: string,
  channel: Readonly<Record<string, InputValue>>,
): InputValue | undefined {
  const own = entry && Object.prototype.hasOwnProperty.call(entry.values, name) ? entry.values[name] : undefined;
  if (own !== undefined && own !== null) return own;
  return Object.prototype.hasOwnProperty.call(channel, name) ? channel[name] : undefined;
}

/** Replaces `{name}` placeholders with the formatted input value ('' for unknown names). */
export function interpolate(template: string, format: (name: string) => string): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => format(name));
}

/** The input names a text template, colour or source refers to with `{name}`. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/** Calls `visit` for every element of the scene, children after their group, in document order. */
export function forEachElement(elements: readonly SceneElement[], visit: (el: SceneElement) => void): void {
  for (const el of elements) {
    visit(el);
    if (el.type === 'group' || el.type === 'rows') forEachElement(el.children, visit);
  }
}

/**
 * The time a clock shows at server time `now`: its state moved on while running, held at `stopAt` once it
 * gets there. The one formula the server (state, stop-at-zero) and the renderer (display) both use.
 */
export function clockTime(state: ClockState, def: ClockShape, now: number): number {
  if (!state.running) return state.ms;
  const elapsed = Math.max(0, now - state.at);
  const down = def.direction === 'down';
  const moved = down ? state.ms - elapsed : state.ms + elapsed;
  const stop = clockStop(def, state.period);
  if (stop === null) return Math.max(0, moved);
  return down ? Math.max(stop, moved) : Math.min(stop, moved);
}

/** What the clock functions read of a clock input. */
export type ClockShape = Pick<InputDef, 'direction' | 'stopAt' | 'periods'>;

/** The period a clock is in (the last one if the index is past them), or undefined for a clock without periods. */
export function clockPeriod(def: Pick<InputDef, 'periods'>, index: number | undefined): ClockPeriod | undefined {
  const periods = def.periods;
  if (periods === undefined || periods.length === 0) return undefined;
  return periods[Math.min(Math.max(0, index ?? 0), periods.length - 1)];
}

/** Where a clock stops by itself (in period `period`, for a clock with periods), or null. */
export function clockStop(def: ClockShape, period?: number): number | null {
  const current = clockPeriod(def, period);
  if (current !== undefined) return current.stopAt;
  if (def.stopAt !== undefined) return def.stopAt;
  return def.direction === 'down' ? 0 : null;
}

/**
 * The state as it stands at `now`: a running clock that has reached its stop is reported stopped there,
 * anchored at the moment it stopped. Stopping needs no message: every party computes the same moment.
 */
export function settledClock(state: ClockState, def: ClockShape, now: number): ClockState {
  const stop = clockStop(def, state.period);
  if (!state.running || stop === null) return state;
  const reachedAt = state.at + Math.abs(state.ms - stop);
  const passed = def.direction === 'down' ? state.ms <= stop : state.ms >= stop;
  if (passed) return { ...state, running: false };
  return now >= reachedAt ? { ...state, running: false, ms: stop, at: reachedAt } : state;
}
