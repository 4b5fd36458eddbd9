/**
 * Resolves what one instance of a scene shows for one drawing pass: `{inputName}` placeholders, colour references,
 * flags and clocks. The page's local overrides come first (CasparCG `update`), then clocks, then the instance's own
 * values (its item inputs, carried by its bus entry), then the channel's inputs (instanceValue, docs/scenes.md,
 * "Channel and item values"). Pure, so the tests run in Node.
 */
import {
  clockPeriod,
  clockTime,
  HEX_COLOR,
  instanceValue,
  interpolate,
  settledClock,
  WHOLE_PLACEHOLDER,
  type ClockFormat,
  type BusEntry,
  type ClockState,
  type ColorRef,
  type InputDef,
  type InputValue,
  type SceneView,
  type VisibleWhen,
} from '@onair/protocol';
import { own } from './channel-state.js';
import { formatClock, formatValue } from './format.js';

export interface ValueSources {
  /** The channel's values. */
  inputs: Readonly<Record<string, InputValue>>;
  /** The bus entry of the instance drawn: its own values come before the channel's. None: the channel's only. */
  entry?: Pick<BusEntry, 'values'> | undefined;
  overrides: Readonly<Record<string, InputValue>>;
  clocks: Readonly<Record<string, ClockState>>;
  /** Estimated server time now, in epoch ms. */
  serverNow: number;
}

export interface SceneValues {
  /** The value itself, as the instance draws it (an override, its own, the channel's); undefined when none. */
  raw(name: string): InputValue | undefined;
  /** The display text of an input ('' for unknown names); a clock input as m:ss. */
  text(name: string): string;
  /** A text template with its placeholders filled in. */
  fill(template: string): string;
  /** True only for `true` (or the string 'true', which is all a CasparCG XML update can send). */
  isTrue(name: string): boolean;
  /** True while the input's value meets the condition: equal to `equals`, not to `notEquals`, or a number at least `atLeast`. */
  meets(when: VisibleWhen): boolean;
  /** A CSS colour for a colour reference; `transparent` for anything that is not a hex colour. */
  color(ref: ColorRef | undefined): string;
  /** A clock input's text in `format`, counting its own direction. */
  clock(name: string, format: ClockFormat | undefined): string;
  /** True when a clock read in this pass is still moving: its text will change without a message. */
  moving(): boolean;
  /** How many rows a list input draws: its rows, at most its `maxRows`; 0 for anything but a list. */
  rowCount(list: string): number;
  /**
   * The values row `index` of a list draws with: its cells first (a column it leaves out shows empty), then
   * everything else as for the scene.
   */
  row(list: string, index: number): SceneValues;
}

const DEFAULT_MAX_ROWS = 20;

/** A value equals the one a condition gives; a CasparCG XML update sends every value as a string ('3', 'true'). */
function equal(v: InputValue | undefined, to: string | number | boolean | undefined): boolean {
  return v === to || (typeof v === 'string' && to !== undefined && v === String(to));
}

const defsCache = new WeakMap<SceneView, Readonly<Record<string, InputDef>>>();

/** The scene's inputs by name, computed once per scene definition. */
export function inputDefs(scene: SceneView): Readonly<Record<string, InputDef>> {
  let defs = defsCache.get(scene);
  if (!defs) {
    const byName: Record<string, InputDef> = {};
    for (const def of scene.definition.inputs) byName[def.name] = def;
    defs = byName;
    defsCache.set(scene, defs);
  }
  return defs;
}

export function createSceneValues(scene: SceneView, sources: ValueSources): SceneValues {
  const defs = inputDefs(scene);
  let moving = false;

  function clockMs(name: string): { ms: number; def: InputDef | undefined } | null {
    const state = own(sources.clocks, name);
    if (!state) return null;
    const def = own(defs, name);
    const shape = { direction: def?.direction, stopAt: def?.stopAt, periods: def?.periods };
    if (settledClock(state, shape, sources.serverNow).running) moving = true;
    return { ms: clockTime(state, shape, sources.serverNow), def };
  }

  function value(name: string): InputValue | undefined {
    return own(sources.overrides, name) ?? instanceValue(sources.entry, name, sources.inputs);
  }

  const values: SceneValues = {
    raw: value,
    text(name) {
      const override = own(sources.overrides, name);
      if (override !== undefined) return formatValue(override);
      if (own(defs, name)?.type === 'clock' || own(sources.clocks, name)) return values.clock(name, 'm:ss');
      return formatValue(instanceValue(sources.entry, name, sources.inputs));
    },
    fill: (template) => interpolate(template, (name) => values.text(name)),
    isTrue(name) {
      const v = value(name);
      return v === true || v === 'true';
    },
    meets(when) {
      // A CasparCG XML update sends every value as a string: '3' stands for 3, 'true' for true.
      const v = value(when.input);
      if (when.atLeast !== undefined) {
        const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
        return typeof n === 'number' && n >= when.atLeast;
      }
      if (when.notEquals !== undefined) return !equal(v, when.notEquals);
      return equal(v, when.equals);
    },
    color(ref) {
      if (ref === undefined) return 'transparent';
      const input = WHOLE_PLACEHOLDER.exec(ref)?.[1];
      const resolved = input === undefined ? ref : value(input);
      return typeof resolved === 'string' && HEX_COLOR.test(resolved.trim()) ? resolved.trim() : 'transparent';
    },
    clock(name, format) {
      const override = own(sources.overrides, name);
      if (override !== undefined) return formatValue(override);
      if (format === 'period') {
        const def = own(defs, name);
        return def ? (clockPeriod(def, own(sources.clocks, name)?.period)?.name ?? '') : '';
      }
      const clock = clockMs(name);
      return formatClock(clock?.ms ?? 0, format, clock?.def?.direction ?? 'up');
    },
    moving: () => moving,
    rowCount(list) {
      const rows = value(list);
      return Array.isArray(rows) ? Math.min(rows.length, own(defs, list)?.maxRows ?? DEFAULT_MAX_ROWS) : 0;
    },
    row(list, index) {
      const rows = value(list);
      const cells = (Array.isArray(rows) ? rows[index] : undefined) ?? {};
      const overrides: Record<string, InputValue> = { ...sources.overrides };
      for (const column of own(defs, list)?.columns ?? []) overrides[column.name] = own(cells, column.name) ?? '';
      return createSceneValues(scene, { ...sources, overrides });
    },
  };
  return values;
}
