/**
 * An instance's own values (docs/scenes.md, "Channel and item values"): only the item-scoped inputs of its scene,
 * each checked against its type. A channel input named here is refused, not ignored: it is set with a patch, for
 * every scene at once.
 */
import type { InputValue, Rundown, RundownItem, SceneDefinition } from '@onair/protocol';
import { AppError } from '../errors.js';
import { closestName } from './closest-name.js';
import type { Draft } from './draft.js';
import { checkValue } from './input-registry.js';

/** The values checked; `null` gives an input back to the channel's value. */
export function itemValues(
  def: SceneDefinition,
  values: Readonly<Record<string, unknown>>,
): Record<string, InputValue> {
  const out: Record<string, InputValue> = {};
  for (const name of Object.keys(values)) {
    const input = def.inputs.find((i) => i.name === name);
    if (!input) throw unknownItemInput(def, name);
    if (input.scope !== 'item') {
      throw new AppError(
        'invalid_request',
        `Input "${name}" is a channel input, shared by every scene: set it with PATCH …/inputs, not on an instance.`,
        { errors: [{ path: `values.${name}`, message: 'a channel input' }] },
      );
    }
    out[name] = checkValue(input, values[name], `values.${name}`);
  }
  return out;
}

/** `base` with `changes` applied: a value set, a null removed. A new object; `base` is not changed. */
export function mergedValues(
  base: Readonly<Record<string, InputValue>>,
  changes: Readonly<Record<string, InputValue>>,
): Record<string, InputValue> {
  const out: Record<string, InputValue> = { ...base };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete out[name];
    else out[name] = value;
  }
  return out;
}

/** The item `itemId` and its rundown, wherever it is in the channel. */
export function findItem(d: Draft, itemId: string): { rundown: Rundown; item: RundownItem } {
  for (const rundown of d.live.rundowns.values()) {
    const item = rundown.items.find((i) => i.id === itemId);
    if (item) return { rundown, item };
  }
  throw new AppError('not_found', `Item ${itemId} is in no rundown of this channel.`);
}

/**
 * An item's values as its scene takes them now: the scene may have changed since the item was prepared, and a value
 * whose input is gone (or is no longer an item input of that type) is left out rather than refusing the cue.
 */
export function itemInstanceValues(d: Draft, item: RundownItem): Record<string, InputValue> {
  const def = d.rt.scenes.get(item.sceneId)?.definition;
  if (!def) {
    throw new AppError('conflict', `The scene of item ${item.id} was deleted; give the item another scene.`, {
      extra: { itemId: item.id, sceneId: item.sceneId },
    });
  }
  const out: Record<string, InputValue> = {};
  for (const [name, value] of Object.entries(item.values)) {
    try {
      Object.assign(out, itemValues(def, { [name]: value }));
    } catch {
      // Left out: see above.
    }
  }
  return out;
}

function unknownItemInput(def: SceneDefinition, name: string): AppError {
  const names = def.inputs.filter((i) => i.scope === 'item').map((i) => i.name);
  const closest = closestName(name, names);
  const hint = closest ? ` Did you mean "${closest}"?` : names.length === 0 ? ' It has no item inputs.' : '';
  return new AppError('unknown_input', `The scene declares no item input named "${name}".${hint}`, {
    errors: [{ path: `values.${name}`, message: 'unknown input' }],
    extra: { input: name, closest: closest ?? null },
  });
}
