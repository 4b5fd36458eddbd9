/**
 * What the playout ops do to a tick's buses (docs/api.md, "Playout"): cue an instance into preview, cut one straight
 * to air, take preview to air, clear, update what is on air, continue. An instance is a scene with its own values (its
 * item-scoped inputs), which travel with it from preview to program; the channel's values are shared by all.
 */
import { SYSTEM_ACTOR, type InputValue, type ProgramEntry } from '@onair/protocol';
import { AppError } from '../errors.js';
import { entryAt, withEntry, without } from './buses.js';
import type { Draft } from './draft.js';
import { findItem, itemInstanceValues, itemValues, mergedValues } from './item-values.js';
import { scheduleSystem } from './schedule.js';
import type { Instance, Origin } from './ops.js';

export function cueInstance(d: Draft, inst: Instance, by: Origin): void {
  const { entry, rundownId } = resolved(d, inst);
  const current = entryAt(d.live.preview, entry.layer);
  if (current && sameInstance(current, entry)) return;
  d.setPreview(withEntry(d.live.preview, entry));
  const { sceneId, layer, itemId } = entry;
  d.event('channel.scene_loaded', { sceneId, bus: 'preview', layer, itemId, ...by });
  if (rundownId !== null) d.event('rundown.item_cued', { rundownId, itemId, sceneId, layer, ...by });
}

export function cutInstance(d: Draft, inst: Instance, by: Origin): void {
  const { entry } = resolved(d, inst);
  toAir(d, entry, by);
  d.cuts.add(entry.layer);
}

export function takePreview(d: Draft, layer: number | undefined, by: Origin): void {
  const cued = d.live.preview.filter((e) => layer === undefined || e.layer === layer);
  if (cued.length === 0) {
    const where = layer === undefined ? '' : ` on layer ${layer}`;
    throw new AppError('preview_empty', `Nothing is cued in preview${where}; cue a scene first.`);
  }
  for (const e of cued) {
    toAir(d, e, by);
    d.cuts.delete(e.layer);
  }
  d.setPreview(without(d.live.preview, (e) => cued.includes(e)));
}

export function clearBuses(d: Draft, layer: number | undefined, sceneId: string | undefined, by: Origin): void {
  if (sceneId !== undefined) d.requireScene(sceneId);
  offAir(
    d,
    (e) => (layer === undefined || e.layer === layer) && (sceneId === undefined || e.sceneId === sceneId),
    by,
    false,
  );
}

/**
 * New own values for an instance on air, like a CasparCG update: what it draws changes in this frame, without a
 * transition; its bound triggers fire for the inputs that changed. A null value gives the input back to the channel.
 */
export function updateOnAir(
  d: Draft,
  target: { layer?: number | undefined; sceneId?: string | undefined; values: Record<string, InputValue> },
  by: Origin,
): void {
  const entry = onAirTarget(d, target.layer, target.sceneId);
  const values = itemValues(d.requireScene(entry.sceneId), target.values);
  const next = mergedValues(entry.values, values);
  const changed = Object.keys(values).filter((name) => next[name] !== entry.values[name]);
  if (changed.length === 0) return;
  d.setProgram(withEntry(d.live.program, { ...entry, values: next }));
  const previous = Object.fromEntries(changed.map((n) => [n, entry.values[n] ?? null]));
  const update = Object.fromEntries(changed.map((n) => [n, next[n] ?? null]));
  const { sceneId, layer, itemId } = entry;
  d.event('channel.updated_on_air', { sceneId, layer, itemId, values: update, previous, frame: d.tick.frame, ...by });
  for (const name of changed) d.fireBound(name, by, (id) => id === sceneId);
}

/**
 * The next step of the scenes on air (on `layer`): a graphic scene's step, one more up to its last (a graphic on its
 * last step stays there: `clear` takes it out), and native scenes' `next` trigger. unknown_trigger when nothing on air
 * has a next step.
 */
export function continueScenes(d: Draft, layer: number | undefined, by: Origin, goto?: number): void {
  const onAir = d.live.program.filter((e) => layer === undefined || e.layer === layer);
  const graphics = onAir.filter((e) => d.requireScene(e.sceneId).graphic !== undefined);
  for (const e of graphics) {
    const { stepCount } = d.requireScene(e.sceneId).graphic!;
    const step = goto === undefined ? nextStep(e.step ?? 0, stepCount) : stepAt(goto, stepCount);
    if (step !== e.step) d.setProgram(withEntry(d.live.program, { ...e, step }));
  }
  if (goto !== undefined) return;
  const natives = new Set(onAir.filter((e) => !graphics.includes(e)).map((e) => e.sceneId));
  const hasNext = [...natives].some((id) => d.requireScene(id).triggers.some((t) => t.name === 'next'));
  if (graphics.length > 0 && !hasNext) return;
  d.trigger('next', by, (sceneId) => natives.has(sceneId));
}

/** Steps are 0-based; a graphic of n steps ends on n - 1, one of -1 (unknown) steps never ends, one of 0 has none. */
export function nextStep(step: number, stepCount: number): number {
  return stepAt(step + 1, stepCount);
}

/** `step` held to the steps a graphic has. */
export function stepAt(step: number, stepCount: number): number {
  if (stepCount < 0) return Math.max(0, step);
  return Math.max(0, Math.min(step, stepCount - 1));
}

/** Takes the selected program entries off air; `cut` when they vanish at once (their scene is gone). */
export function offAir(d: Draft, drop: (e: ProgramEntry) => boolean, by: Origin, cut: boolean): void {
  const leaving = d.live.program.filter(drop);
  if (leaving.length === 0) return;
  d.setProgram(without(d.live.program, drop));
  for (const e of leaving) {
    d.actors.leftAir(e.layer, by.actor);
    if (cut) d.cuts.add(e.layer);
    else d.cuts.delete(e.layer);
    d.event('channel.cleared', { sceneId: e.sceneId, layer: e.layer, itemId: e.itemId, ...by });
    const found = e.itemId === null ? null : maybeItem(d, e.itemId);
    if (found) {
      const { sceneId, layer, itemId } = e;
      d.event('rundown.item_stopped', { rundownId: found.rundown.id, itemId, sceneId, layer, ...by });
    }
  }
}

/** Puts an instance on air (a take, a cut, an undo); an item taken with a duration leaves again by itself. */
export function toAir(d: Draft, entry: Omit<ProgramEntry, 'since'>, by: Origin): void {
  const { sceneId, layer, itemId } = entry;
  const previousSceneId = entryAt(d.live.program, layer)?.sceneId ?? null;
  if (previousSceneId !== null) d.actors.leftAir(layer, by.actor);
  const since = d.tick.nowIso;
  // A graphic starts on its first step (docs/ograf.md); the step of an entry taken again starts over.
  const onAir: ProgramEntry = { ...entry, since };
  if (d.requireScene(sceneId).graphic !== undefined) onAir.step = 0;
  else delete onAir.step;
  d.setProgram(withEntry(d.live.program, onAir));
  d.event('channel.scene_loaded', { sceneId, bus: 'program', layer, itemId, ...by });
  const played = d.event('channel.played', { sceneId, previousSceneId, layer, itemId, ...by });
  d.actors.tookAir(layer, by.actor, played);
  if (itemId === null) return;
  const found = maybeItem(d, itemId);
  if (!found) return;
  const { rundown, item } = found;
  d.event('rundown.item_taken', { rundownId: rundown.id, itemId, sceneId, layer, ...by });
  if (item.durationMs !== null) {
    const stop = { kind: 'stop' as const, rundownId: rundown.id, itemId, since };
    scheduleSystem(d, stop, d.tick.now + item.durationMs, SYSTEM_ACTOR);
  }
}

/** The bus entry an instance makes: a scene with its given values, or a rundown item with its own. */
function resolved(d: Draft, inst: Instance): { entry: Omit<ProgramEntry, 'since'>; rundownId: string | null } {
  if (inst.itemId !== undefined) {
    const { rundown, item } = findItem(d, inst.itemId);
    const values = itemInstanceValues(d, item);
    const { layer } = d.requireScene(item.sceneId);
    return { entry: { sceneId: item.sceneId, layer, itemId: item.id, values }, rundownId: rundown.id };
  }
  const { layer } = d.requireScene(inst.sceneId);
  return { entry: { sceneId: inst.sceneId, layer, itemId: null, values: ownValues(d, inst) }, rundownId: null };
}

function maybeItem(d: Draft, itemId: string): ReturnType<typeof findItem> | null {
  try {
    return findItem(d, itemId);
  } catch {
    return null;
  }
}

function ownValues(
  d: Draft,
  inst: { sceneId: string; values?: Record<string, InputValue> | undefined },
): Record<string, InputValue> {
  return inst.values ? mergedValues({}, itemValues(d.requireScene(inst.sceneId), inst.values)) : {};
}

function sameInstance(a: ProgramEntry | Omit<ProgramEntry, 'since'>, b: Omit<ProgramEntry, 'since'>): boolean {
  if (a.sceneId !== b.sceneId || a.itemId !== b.itemId) return false;
  const keys = Object.keys(a.values);
  return keys.length === Object.keys(b.values).length && keys.every((k) => a.values[k] === b.values[k]);
}

/** The instance on air an update names: by layer, by scene, or the only one on air. */
function onAirTarget(d: Draft, layer: number | undefined, sceneId: string | undefined): ProgramEntry {
  const { program } = d.live;
  const found =
    layer !== undefined
      ? entryAt(program, layer)
      : sceneId !== undefined
        ? program.find((e) => e.sceneId === sceneId)
        : program.length === 1
          ? program[0]
          : undefined;
  if (found && (sceneId === undefined || found.sceneId === sceneId)) return found;
  if (layer === undefined && sceneId === undefined && program.length > 1) {
    throw new AppError('invalid_request', 'Several scenes are on air: name the layer or the scene to update.', {
      errors: [{ path: 'layer', message: 'required when several scenes are on air' }],
    });
  }
  const where = layer !== undefined ? ` on layer ${layer}` : sceneId !== undefined ? ` for scene ${sceneId}` : '';
  throw new AppError('not_found', `Nothing is on air${where}: an update changes what is on program.`);
}
