/**
 * Turns what a scorekeeper posts into a change of the channel (docs/incoming-hooks.md, "Mapping"): each
 * mapped field path (`home_score`, `game.home.score`) names an input; an empty mapping means every top-level
 * field names its input. Values are coerced the way senders write them: numeric strings for numbers,
 * "true"/"false" for booleans, numbers for text (and for a select, whose value must be one of its options). A clock input takes a boolean (start or stop) or a time in
 * milliseconds (set). Fields nothing maps are listed, never an error; a value that does not fit its input (one holding
 * U+0000 included) is an error naming both, and nothing is applied.
 */
import { AppError } from '../errors.js';
import { NUL_RULE, nulPathIn } from '../nul-char.js';
import { checkValue, MAX_ABS_NUMBER, MAX_TEXT_BYTES, type InputRegistry } from '../engine/index.js';
import { MAX_CLOCK_MS, type InputDef, type InputValue } from '@onair/protocol';

export type ClockChange = { name: string; action: 'start' | 'stop' } | { name: string; action: 'set'; ms: number };

/** A post, mapped onto the channel's inputs. */
export interface MappedChange {
  /** Input values to set. */
  patch: Record<string, InputValue>;
  clocks: ClockChange[];
  /** Input name → value applied (clocks: `true`/`false` for running, a number for a time). */
  applied: Record<string, unknown>;
  /** Field paths present in the payload that nothing maps. */
  ignored: string[];
}

/** Levels of nesting a payload is read to, and leaves it may hold. */
const MAX_DEPTH = 8;
const MAX_LEAVES = 1000;

export function mapPayload(
  payload: unknown,
  mapping: Readonly<Record<string, string>>,
  registry: InputRegistry,
): MappedChange {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new AppError('invalid_request', 'Post a JSON object of fields to values, such as {"home_score": 2}.');
  }
  const leaves = leafPaths(payload as Record<string, unknown>);
  const entries = Object.keys(mapping).length > 0 ? Object.entries(mapping) : identity(payload, registry);
  const change: MappedChange = {
    patch: Object.create(null) as Record<string, InputValue>,
    clocks: [],
    applied: Object.create(null) as Record<string, unknown>,
    ignored: [],
  };
  const used: string[] = [];
  for (const [field, input] of entries) {
    const value = valueAt(payload, field);
    if (value === undefined) continue;
    used.push(field);
    const def = registry.get(input);
    if (!def) throw unknownTarget(field, input);
    apply(change, def, field, value);
  }
  // A post that sets a clock's time and starts it means "from that time": the time goes first.
  change.clocks.sort((a, b) => Number(b.action === 'set') - Number(a.action === 'set'));
  change.ignored = leaves.filter((leaf) => !used.some((u) => leaf === u || leaf.startsWith(`${u}.`)));
  return change;
}

/** Every top-level field that names an input maps to it. */
function identity(payload: object, registry: InputRegistry): [string, string][] {
  return Object.keys(payload)
    .filter((k) => registry.has(k))
    .map((k) => [k, k]);
}

function apply(change: MappedChange, def: InputDef, field: string, value: unknown): void {
  if (def.type === 'clock') {
    const clock = clockChange(def.name, field, value);
    change.clocks.push(clock);
    change.applied[def.name] = clock.action === 'set' ? clock.ms : clock.action === 'start';
    return;
  }
  const coerced = coerce(def, field, value);
  // A post with one was refused at the door; a data source's answer (JSON or CSV) is read here first.
  const nul = nulPathIn(coerced);
  if (nul !== null) throw misfit(nul === '' ? field : `${field}.${nul}`, def, NUL_RULE);
  change.patch[def.name] = coerced;
  change.applied[def.name] = coerced;
}

function coerce(def: InputDef, field: string, value: unknown): InputValue {
  if (value === null) return null;
  switch (def.type) {
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > MAX_ABS_NUMBER) {
        throw misfit(field, def, 'must be a number (or a string of one)');
      }
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw misfit(field, def, 'must be true or false');
    case 'text': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      if (typeof text !== 'string') throw misfit(field, def, 'must be a string or a number');
      if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) throw misfit(field, def, 'must be at most 4 KiB of text');
      return text;
    }
    case 'select': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      const options = def.options ?? [];
      if (typeof text === 'string' && options.includes(text)) return text;
      throw misfit(field, def, `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
    }
    case 'list':
    case 'asset':
      // As a PATCH takes them; a misfit names the field (a list's: the row and column, `standings.2.pts`).
      try {
        return checkValue(def, value, field);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        throw misfit(err.errors?.[0]?.path ?? field, def, err.errors?.[0]?.message ?? err.message);
      }
    default:
      if (typeof value !== 'string') throw misfit(field, def, `must be a string (${def.type})`);
      return value;
  }
}

function clockChange(name: string, field: string, value: unknown): ClockChange {
  if (typeof value === 'boolean') return { name, action: value ? 'start' : 'stop' };
  if (value === 'true' || value === 'false') return { name, action: value === 'true' ? 'start' : 'stop' };
  const ms = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof ms === 'number' && Number.isInteger(ms) && ms >= 0 && ms <= MAX_CLOCK_MS) {
    return { name, action: 'set', ms };
  }
  throw new AppError(
    'invalid_request',
    `Field "${field}" drives clock "${name}": send true or false to start or stop it, or a time in whole milliseconds (0 to 100 h).`,
    {
      errors: [{ path: field, message: `clock "${name}" takes a boolean or whole milliseconds` }],
      extra: { field, input: name },
    },
  );
}

function misfit(field: string, def: InputDef, problem: string): AppError {
  return new AppError('invalid_request', `Field "${field}" sets input "${def.name}" (${def.type}), which ${problem}.`, {
    errors: [{ path: field, message: `input "${def.name}" ${problem}` }],
    extra: { field, input: def.name },
  });
}

function unknownTarget(field: string, input: string): AppError {
  return new AppError(
    'unknown_input',
    `Field "${field}" is mapped to "${input}", which no scene of this channel declares.`,
    {
      errors: [{ path: field, message: `unknown input ${input}` }],
      extra: { field, input, closest: null },
    },
  );
}

/** The value at a dotted path, reading own properties only; undefined when absent. Data sources read with it too. */
export function valueAt(payload: object, path: string): unknown {
  let node: unknown = payload;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Dotted paths of the payload's values (arrays and values past MAX_DEPTH count as one leaf). */
function leafPaths(payload: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string, depth: number) => {
    for (const key of Object.keys(node)) {
      if (out.length >= MAX_LEAVES) return;
      const path = prefix ? `${prefix}.${key}` : key;
      const value = node[key];
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && depth < MAX_DEPTH) {
        walk(value as Record<string, unknown>, path, depth + 1);
      } else out.push(path);
    }
  };
  walk(payload, '', 1);
  return out;
}
