/**
 * The inputs a channel's scenes declare, merged by name, and the checks a value must pass.
 * A name is declared once per channel with one type; the first scene to declare it gives the default.
 */
import { AppError } from '../errors.js';
import {
  ASSET_INPUT_RULE,
  assetRef,
  HEX_COLOR,
  IMAGE_ASSET_EXTENSIONS,
  type InputDef,
  type InputScope,
  type InputType,
  type InputValue,
  type SceneDefinition,
} from '@onair/protocol';
import type { SceneRecord } from './model.js';
import { closestName } from './closest-name.js';
import { MAX_ABS_NUMBER, MAX_TEXT_BYTES } from './input-limits.js';
import { listProblem } from './list-value.js';

export { MAX_ABS_NUMBER, MAX_TEXT_BYTES };

export type InputRegistry = ReadonlyMap<string, InputDef>;

/**
 * A registry is never changed, only rebuilt, so channels with one scene share the registry of its
 * definition: 10,000 channels made from one template (their definitions are shared when they load)
 * hold one registry, not 10,000.
 */
const byDefinition = new WeakMap<SceneDefinition, InputRegistry>();
const EMPTY: InputRegistry = new Map();

export function buildRegistry(scenes: Iterable<SceneRecord>): InputRegistry {
  const list = [...scenes];
  if (list.length === 0) return EMPTY;
  if (list.length > 1) return merge(list);
  const { definition } = list[0]!;
  let registry = byDefinition.get(definition);
  if (!registry) byDefinition.set(definition, (registry = merge(list)));
  return registry;
}

function merge(scenes: readonly SceneRecord[]): InputRegistry {
  const registry = new Map<string, InputDef>();
  for (const scene of scenes) {
    for (const def of scene.definition.inputs) {
      if (!registry.has(def.name)) registry.set(def.name, def);
    }
  }
  return registry;
}

/**
 * Throws conflict when a scene redeclares an input of the channel with another type or another scope: one name has
 * one meaning in a channel, so a name that is a channel value in one scene cannot be an instance's own in another.
 */
export function assertCompatible(registry: InputRegistry, scene: SceneRecord, others: Iterable<SceneRecord>): void {
  const owners = new Map<string, string>();
  for (const other of others) {
    if (other.id === scene.id) continue;
    for (const def of other.definition.inputs) if (!owners.has(def.name)) owners.set(def.name, other.name);
  }
  for (const def of scene.definition.inputs) {
    const existing = registry.get(def.name);
    const owner = owners.get(def.name);
    if (!existing || owner === undefined) continue;
    if (existing.type !== def.type) {
      throw new AppError(
        'conflict',
        `Input "${def.name}" is already declared as ${existing.type} by scene "${owner}"; a channel input has one type.`,
      );
    }
    const scope = scopeOf(existing);
    if (scope !== scopeOf(def)) {
      throw new AppError(
        'conflict',
        `Input "${def.name}" is already declared with scope "${scope}" by scene "${owner}"; one name has one ` +
          `meaning in a channel: declare it with scope "${scope}" here too, or give it another name.`,
      );
    }
  }
}

function scopeOf(def: InputDef): InputScope {
  return def.scope ?? 'channel';
}

/** Checks a whole patch; returns it as a Map so that names like `__proto__` stay plain data. */
export function validatePatch(registry: InputRegistry, patch: Record<string, unknown>): Map<string, InputValue> {
  const out = new Map<string, InputValue>();
  for (const name of Object.keys(patch)) {
    const def = Object.prototype.hasOwnProperty.call(patch, name) ? registry.get(name) : undefined;
    if (!def) throw unknownInput(registry, name);
    out.set(name, checkValue(def, patch[name], name));
  }
  return out;
}

function unknownInput(registry: InputRegistry, name: string): AppError {
  const closest = closestName(name, registry.keys());
  const hint = closest
    ? ` Did you mean "${closest}"?`
    : registry.size === 0
      ? ' This channel has no scene that declares inputs.'
      : '';
  return new AppError('unknown_input', `No scene of this channel declares an input named "${name}".${hint}`, {
    errors: [{ path: name, message: 'unknown input' }],
    extra: { input: name, closest: closest ?? null },
  });
}

export function checkValue(def: InputDef, value: unknown, path: string): InputValue {
  if (value === null) return null;
  if (def.type === 'list') {
    const problem = listProblem(def, value);
    if (problem) throw invalidValue(problem.at === '' ? path : `${path}.${problem.at}`, problem.message);
    return value as InputValue;
  }
  const problem = def.type === 'select' ? selectProblem(def.options ?? [], value) : typeProblem(def.type, value);
  if (problem) throw invalidValue(path, problem);
  return value as InputValue;
}

function invalidValue(path: string, problem: string): AppError {
  return new AppError('invalid_request', `Input "${path}" ${problem}.`, { errors: [{ path, message: problem }] });
}

/** A select takes one of its options, exactly as written; the message lists them so the caller can pick. */
function selectProblem(options: readonly string[], value: unknown): string | null {
  if (typeof value === 'string' && options.includes(value)) return null;
  return `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
}

function typeProblem(type: Exclude<InputType, 'select' | 'list'>, value: unknown): string | null {
  switch (type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (Math.abs(value) > MAX_ABS_NUMBER) return `must be between -1e15 and 1e15`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'text':
      return textProblem(value);
    case 'color':
      return typeof value === 'string' && HEX_COLOR.test(value) ? null : 'must be a colour like #ff8800 or #ff8800cc';
    case 'image':
      return imageProblem(value);
    case 'asset':
      return assetProblem(value);
    case 'clock':
      return 'is a clock; it is driven through the clocks endpoint, not set as a value';
  }
}

function textProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (Buffer.byteLength(value, 'utf8') > MAX_TEXT_BYTES) return 'must be at most 4 KiB of UTF-8 text';
  return null;
}

/**
 * An image of the library by its path or URL (docs/assets.md). Whether the workspace holds it is checked where the
 * store is known (operations/asset-refs.ts); here, only what the value says.
 */
function assetProblem(value: unknown): string | null {
  const text = textProblem(value);
  if (text) return text;
  const ref = assetRef(value as string);
  if (ref && !IMAGE_ASSET_EXTENSIONS.includes(ref.ext)) return `${ASSET_INPUT_RULE}; this names a .${ref.ext} file`;
  return ref ? null : ASSET_INPUT_RULE;
}

function imageProblem(value: unknown): string | null {
  const text = textProblem(value);
  if (text) return text;
  try {
    const url = new URL(value as string);
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}
