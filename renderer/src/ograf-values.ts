/**
 * What an exported scene's graphic shows (ograf-graphic.ts): the values of its inputs, from the scene's defaults and
 * the `data` an OGraf renderer sends to load() and updateAction() (keyed by input name, as the package's manifest
 * schema says). Pure, so the tests run in Node.
 */
import type { ClockState, InputValue, SceneView } from '@onair/protocol';

type Values = Readonly<Record<string, InputValue>>;

/** A file of the package's own asset folder, as the manifest's defaults write it: `assets/{sha256}.{ext}`. */
const PACKAGED_ASSET = /^assets\/[0-9a-f]{64}\.[a-z0-9]{2,5}$/;

/** The scene's defaults: what the graphic draws before any data. */
export function defaultValues(scene: SceneView): Values {
  return Object.fromEntries(scene.definition.inputs.map((def) => [def.name, def.default]));
}

/**
 * `values` with what `data` gives for the scene's inputs (anything else in it is ignored; `null` puts an input back
 * to its default). A file path is read from the package's folder (`base`, ending in `/`): `assets/…` as the library
 * file it packs, any other relative path beside the module; an http(s) URL as it is.
 */
export function withData(scene: SceneView, values: Values, data: unknown, base: string): Values {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return values;
  const next: Record<string, InputValue> = { ...values };
  for (const def of scene.definition.inputs) {
    if (!Object.prototype.hasOwnProperty.call(data, def.name)) continue;
    const value = (data as Record<string, unknown>)[def.name];
    if (value === null || value === undefined) next[def.name] = def.default;
    else if ((def.type === 'asset' || def.type === 'image') && typeof value === 'string')
      next[def.name] = fileValue(value, base);
    else if (isInputValue(value)) next[def.name] = value;
  }
  return next;
}

function fileValue(value: string, base: string): string {
  if (PACKAGED_ASSET.test(value)) return `/${value}`;
  if (value === '' || value.startsWith('/')) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

function isInputValue(value: unknown): value is InputValue {
  return ['string', 'number', 'boolean'].includes(typeof value) || Array.isArray(value);
}

/** The inputs whose values differ between `before` and `after`. */
export function changedInputs(before: Values, after: Values): Set<string> {
  const changed = new Set<string>();
  for (const name of Object.keys(after)) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) changed.add(name);
  }
  return changed;
}

/** A clock shows the milliseconds its input holds, standing still: no server runs it. */
export function standingClocks(scene: SceneView, values: Values, now: number): Record<string, ClockState> {
  const clocks: Record<string, ClockState> = {};
  for (const def of scene.definition.inputs) {
    if (def.type !== 'clock') continue;
    const ms = values[def.name];
    clocks[def.name] = { running: false, ms: typeof ms === 'number' ? ms : 0, at: now };
  }
  return clocks;
}
