/**
 * A graphic's data as scene inputs (docs/ograf.md, "A scene from a graphic"): each leaf of its GDD schema becomes an
 * item-scoped input (the data belongs to an instance, as an OGraf graphic instance's does), named after its path with
 * `_` between the keys (`team.name` → `team_name`, other characters made `_`), and `data` records where each input
 * goes. Its custom actions become triggers that run them.
 *
 * | GDD                                               | input                                  |
 * | ------------------------------------------------- | -------------------------------------- |
 * | `string` (single-line, multi-line, file-path)     | `text`                                 |
 * | `string` + `color-rrggbb` / `color-rrggbbaa`      | `color`                                |
 * | `string` + `file-path/image-path`                 | `asset` (an image of the asset library)|
 * | `string` with `enum` (`select`)                   | `select`                               |
 * | `number` / `integer` (`duration-ms`, `percentage`, a numeric `select`) | `number`          |
 * | `boolean`                                         | `boolean`                              |
 * | `object`                                          | its properties, by path                |
 * | `array`                                           | not mapped (listed in `unmapped`)      |
 */
import {
  HEX_COLOR,
  NAME_PATTERN,
  RESERVED_NAMES,
  type InputDef,
  type InputValue,
  type TriggerDef,
} from '@onair/protocol';
import type { Manifest } from './manifest-schema.js';

export interface GraphicData {
  inputs: InputDef[];
  data: { input: string; path: string[] }[];
  /** Paths of the schema no input carries (arrays, types onair has no input for). */
  unmapped: string[];
}

type Gdd = { type: string; [k: string]: unknown };

const MAX_DEPTH = 8;
const MAX_TEXT = 4096;

export function graphicData(schema: Manifest['schema']): GraphicData {
  const out: GraphicData = { inputs: [], data: [], unmapped: [] };
  if (schema?.type !== 'object') return out;
  const taken = new Set<string>();
  walk(schema, [], out, taken);
  return out;
}

function walk(node: Gdd, path: string[], out: GraphicData, taken: Set<string>): void {
  const properties = (node.properties ?? {}) as Record<string, Gdd>;
  for (const [key, prop] of Object.entries(properties).sort(byOrder)) {
    const at = [...path, key];
    if (prop.type === 'object' && at.length < MAX_DEPTH) {
      walk(prop, at, out, taken);
      continue;
    }
    const shape = inputShape(prop);
    if (!shape) {
      out.unmapped.push(at.join('.'));
      continue;
    }
    const name = uniqueName(at, taken);
    const label = typeof prop.title === 'string' && prop.title ? prop.title.slice(0, 200) : at.join('.');
    out.inputs.push({ name, label, scope: 'item', ...shape });
    out.data.push({ input: name, path: at });
  }
}

/** GDD's `order` first (lower first), then the schema's own order. */
function byOrder(a: [string, Gdd], b: [string, Gdd]): number {
  const order = (g: Gdd) => (typeof g.order === 'number' ? g.order : Number.MAX_SAFE_INTEGER);
  return order(a[1]) - order(b[1]);
}

function inputShape(prop: Gdd): Pick<InputDef, 'type' | 'default' | 'options'> | null {
  const gddType = typeof prop.gddType === 'string' ? prop.gddType : '';
  const given = prop.default as InputValue | undefined;
  if (prop.type === 'boolean') return { type: 'boolean', default: typeof given === 'boolean' ? given : false };
  if (prop.type === 'number' || prop.type === 'integer') {
    return { type: 'number', default: typeof given === 'number' && Number.isFinite(given) ? given : 0 };
  }
  if (prop.type !== 'string') return null;
  if (gddType.startsWith('color-rrggbb')) {
    return { type: 'color', default: typeof given === 'string' && HEX_COLOR.test(given) ? given : null };
  }
  if (gddType.startsWith('file-path/image-path')) return { type: 'asset', default: null };
  const options = stringOptions(prop.enum);
  if (options) return { type: 'select', options, default: options.includes(given as string) ? given! : options[0]! };
  return { type: 'text', default: typeof given === 'string' ? given.slice(0, MAX_TEXT) : '' };
}

function stringOptions(values: unknown): string[] | null {
  if (!Array.isArray(values) || values.length === 0 || values.length > 100) return null;
  if (!values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 200)) return null;
  const unique = [...new Set(values as string[])];
  return unique;
}

/** An input or trigger name from a path: valid, not reserved, and not one already taken. */
export function uniqueName(path: string[], taken: Set<string>): string {
  let base = path.join('_').replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
  base = base.slice(0, 60);
  if (RESERVED_NAMES.has(base)) base = `${base}_`;
  let name = base;
  for (let n = 2; taken.has(name) || !NAME_PATTERN.test(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** One trigger per custom action, named after its id, running it. */
export function customActionTriggers(actions: Manifest['customActions']): TriggerDef[] {
  const taken = new Set<string>();
  return (actions ?? []).map((a) => ({ name: uniqueName([a.id], taken), customAction: a.id }));
}
