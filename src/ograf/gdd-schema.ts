/**
 * The `schema` (GDD: a JSON schema with GUI hints) of an exported scene's manifest: one property per input, named as
 * the input, so an OGraf controller's form writes the very `data` the module reads (renderer/src/ograf-values.ts).
 * A library file the scene names is packed at `assets/{sha256}.{ext}`: defaults point there.
 */
import { assetRef, type InputDef, type InputValue } from '@onair/protocol';

export type GddProperty = { type: 'boolean' | 'string' | 'number' | 'integer' | 'array' | 'object' } & Record<
  string,
  unknown
>;

export interface GddObject {
  type: 'object';
  properties: Record<string, GddProperty>;
  [keyword: string]: unknown;
}

/** Where the package keeps a library file: its path without the leading `/`. */
export function packagedPath(value: string): string | null {
  const ref = assetRef(value);
  return ref ? ref.path.slice(1) : null;
}

export function gddSchema(inputs: readonly InputDef[]): GddObject {
  const properties: Record<string, GddProperty> = {};
  inputs.forEach((def, order) => {
    const described = { title: def.label, order, ...typed(def) };
    properties[def.name] = withDefault(described, def);
  });
  return { type: 'object', properties };
}

function typed(def: InputDef): GddProperty {
  switch (def.type) {
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'color':
      return colour(def.default);
    case 'image':
    case 'asset':
      return { type: 'string', gddType: 'file-path/image-path' };
    case 'clock':
      return { type: 'integer', gddType: 'duration-ms', minimum: 0 };
    case 'select': {
      const options = def.options ?? [];
      return {
        type: 'string',
        enum: options,
        gddType: 'select',
        gddOptions: { labels: Object.fromEntries(options.map((o) => [o, o])) },
      };
    }
    case 'list':
      return list(def);
    default:
      return { type: 'string' };
  }
}

/** GDD colours are lower-case `#rrggbb` (or `#rrggbbaa` when the default has an alpha). */
function colour(value: InputValue): GddProperty {
  const alpha = typeof value === 'string' && expandColour(value)?.length === 9;
  return alpha
    ? { type: 'string', gddType: 'color-rrggbbaa', pattern: '^#[0-9a-f]{8}$' }
    : { type: 'string', gddType: 'color-rrggbb', pattern: '^#[0-9a-f]{6}$' };
}

function list(def: InputDef): GddProperty {
  const columns = def.columns ?? [];
  const properties = Object.fromEntries(
    columns.map((c) => [c.name, { type: c.type === 'number' ? 'number' : 'string', title: c.name }]),
  );
  return { type: 'array', maxItems: def.maxRows ?? 20, items: { type: 'object', properties } };
}

function withDefault(property: GddProperty, def: InputDef): GddProperty {
  const value = defaultOf(def);
  return value === undefined ? property : { ...property, default: value };
}

function defaultOf(def: InputDef): unknown {
  const value = def.default;
  if (value === null) return undefined;
  if (def.type === 'color' && typeof value === 'string') return expandColour(value);
  if (def.type === 'asset' && typeof value === 'string') return packagedPath(value) ?? value;
  return value;
}

/** `#abc` as `#aabbcc`, lower case: the form the GDD colour pattern takes. */
function expandColour(value: string): string | undefined {
  const hex = value.slice(1).toLowerCase();
  const full = hex.length === 3 || hex.length === 4 ? [...hex].map((ch) => ch + ch).join('') : hex;
  if (full.length === 8) return `#${full}`;
  return full.length === 6 ? `#${full}` : undefined;
}
