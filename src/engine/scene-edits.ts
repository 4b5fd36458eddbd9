/**
 * What scene additions, edits and removals do to a channel's tick: renderers get the new definitions, the
 * buses lose scenes that are gone (or whose layer moved), and inputs and clocks no scene declares any more
 * are forgotten, in the store too, so a name declared again later starts from its default.
 */
import { SYSTEM_ACTOR, type ClockState, type InputDef } from '@onair/protocol';
import { offAir } from './bus-ops.js';
import type { Draft } from './draft.js';
import { checkValue, type InputRegistry } from './input-registry.js';

export interface SceneEdits {
  changed: ReadonlySet<string>;
  removed: ReadonlySet<string>;
}

/** `before` is the registry renderers last saw; the draft's source holds the new one. */
export function applySceneEdits(draft: Draft, before: InputRegistry, edits: SceneEdits): void {
  const { changed, removed } = edits;
  if (changed.size === 0 && removed.size === 0) return;
  const { change, rt } = draft;
  if (changed.size > 0) {
    change.scenes = [...changed].flatMap((id) => {
      const s = rt.scenes.get(id);
      return s ? [{ id: s.id, name: s.name, definition: s.definition }] : [];
    });
  }
  if (removed.size > 0) change.removedScenes = [...removed];
  clearBuses(draft);
  forgetUndeclared(draft, before);
  change.registry = rt.registry;
  draft.touched = true;
}

/** A scene that is gone, or now on another layer, leaves both buses; it leaves program at once (a cut). */
function clearBuses(draft: Draft): void {
  const stale = (e: { sceneId: string; layer: number }) => draft.rt.scenes.get(e.sceneId)?.definition.layer !== e.layer;
  offAir(draft, stale, { source: 'api', actor: SYSTEM_ACTOR }, true);
  if (draft.live.preview.some(stale)) draft.setPreview(draft.live.preview.filter((e) => !stale(e)));
}

function forgetUndeclared(draft: Draft, before: InputRegistry): void {
  const { change, live, rt } = draft;
  const after = rt.registry;
  for (const [name, value] of live.values) {
    const def = after.get(name);
    if (!def || !fits(def, value)) {
      live.values.delete(name);
      change.setValues.set(name, null);
    }
  }
  for (const name of live.clocks.keys()) if (after.get(name)?.type !== 'clock') draft.setClock(name, null);
  const removedInputs = namesOf(before, false).filter((n) => !isKind(after.get(n), false));
  const removedClocks = namesOf(before, true).filter((n) => !isKind(after.get(n), true));
  if (removedInputs.length > 0) change.removedInputs = removedInputs;
  if (removedClocks.length > 0) change.removedClocks = removedClocks;
  // Every declared input and clock is sent again: a default may have changed with the edit.
  const clocks = new Map<string, ClockState>();
  for (const [name, def] of after) {
    if (def.type === 'clock') clocks.set(name, draft.clockState(name)!);
    else change.inputs.set(name, draft.effective(name));
  }
  if (clocks.size > 0) change.clocks = clocks;
}

/** A value kept across an edit must still suit its input (the type may have changed). */
function fits(def: InputDef, value: unknown): boolean {
  if (def.type === 'clock') return false;
  try {
    checkValue(def, value, def.name);
    return true;
  } catch {
    return false;
  }
}

const isKind = (def: InputDef | undefined, clock: boolean) => def !== undefined && (def.type === 'clock') === clock;

function namesOf(registry: InputRegistry, clocks: boolean): string[] {
  return [...registry.values()].filter((d) => isKind(d, clocks)).map((d) => d.name);
}
