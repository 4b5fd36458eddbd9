/**
 * The working copy of one channel's tick: the live state as the tick's ops leave it, and the change that
 * says so (what to persist, what to send, which events happened). Nothing here touches the channel itself:
 * the engine swaps the new live state in only once the change is written.
 */
import { AppError } from '../errors.js';
import type { ClockAction, ClockState, InputValue, PreviewEntry, ProgramEntry, SceneDefinition } from '@onair/protocol';
import { EMPTY_BUS, entryAt, scenesOnBuses, withEntry, without } from './buses.js';
import type { ChannelChange } from './channel-change.js';
import { applyClockAction, clockDef, currentClock } from './clocks.js';
import { closestName } from './closest-name.js';
import type { EngineEvent, EngineEventType } from './events.js';
import { validatePatch, type InputRegistry } from './input-registry.js';
import type { ChangeSource, ChannelRecord, LiveState, SceneRecord } from './model.js';
import type { Op } from './ops.js';

/** What a draft reads of its channel. */
export interface DraftSource {
  record: ChannelRecord;
  scenes: ReadonlyMap<string, SceneRecord>;
  registry: InputRegistry;
  live: LiveState;
}

/** The tick a draft belongs to. */
export interface TickContext {
  frame: number;
  /** The tick's server time, epoch ms (whole): clock changes and fired triggers are dated with it. */
  now: number;
  nowIso: string;
  /** A new `evt_…` id, sortable by creation. */
  eventId: () => string;
}

type AckExtra = Omit<ChannelChange['acks'][number], 'pending'>;

export class Draft {
  readonly change: ChannelChange;
  readonly live: LiveState;
  /** Set once the draft changes anything renderers draw. */
  touched = false;
  private clocksOwned = false;
  /** Layers whose last change this tick was a cut. */
  private readonly cuts = new Set<number>();
  private readonly fired = new Set<string>();

  constructor(
    readonly rt: DraftSource,
    readonly tick: TickContext,
  ) {
    this.live = { ...rt.live, values: new Map(rt.live.values), frame: tick.frame, updatedAt: tick.nowIso };
    this.change = {
      channelId: rt.record.id,
      orgId: rt.record.orgId,
      frame: tick.frame,
      prev: rt.live.frame,
      inputs: new Map(),
      setValues: new Map(),
      live: this.live,
      events: [],
      acks: [],
    };
  }

  /** Applies one op; its error, if any, is thrown for the caller to answer that op alone. */
  applyOp(op: Op): AckExtra {
    switch (op.kind) {
      case 'patch':
        return { applied: this.patch(op.values, op.source) };
      case 'cue':
        this.cue(op.sceneId, op.source);
        return {};
      case 'cut':
        this.cut(op.sceneId, op.source);
        return {};
      case 'take':
        this.take(op.layer, op.source);
        return {};
      case 'clear':
        this.clear(op.layer, op.sceneId, op.source);
        return {};
      case 'trigger':
        this.trigger(op.name, op.source);
        return {};
      case 'clock':
        return { clock: this.clock(op.name, op.action, op.ms, op.source) };
    }
  }

  /** The finished change: the cut layers and fired triggers collected along the way. */
  finish(): ChannelChange {
    if (this.change.program !== undefined && this.cuts.size > 0) {
      this.change.cutLayers = [...this.cuts].sort((a, b) => a - b);
    }
    return this.change;
  }

  effective(name: string): InputValue {
    const v = this.live.values.get(name);
    return v !== undefined ? v : (this.rt.registry.get(name)?.default ?? null);
  }

  clockState(name: string): ClockState | undefined {
    const def = this.rt.registry.get(name);
    return def?.type === 'clock' ? currentClock(def, this.live.clocks.get(name), this.tick.now) : undefined;
  }

  // ---- inputs and clocks

  private patch(values: Map<string, InputValue>, source: ChangeSource): Record<string, InputValue> {
    // Re-checked here: a scene may have been removed since the op was queued.
    const checked = validatePatch(this.rt.registry, Object.fromEntries(values));
    const applied: Record<string, InputValue> = {};
    const inputs: Record<string, InputValue> = {};
    const previous: Record<string, InputValue> = {};
    const moved: string[] = [];
    for (const [name, value] of checked) {
      const stored = this.live.values.get(name);
      if (value === null ? stored !== undefined : stored !== value) {
        previous[name] = this.effective(name);
        if (value === null) this.live.values.delete(name);
        else this.live.values.set(name, value);
        inputs[name] = this.effective(name);
        if (inputs[name] !== previous[name]) moved.push(name);
        this.change.inputs.set(name, inputs[name]);
        this.change.setValues.set(name, value);
        this.touched = true;
      }
      applied[name] = this.effective(name);
    }
    // One event per patch that changed something.
    if (Object.keys(inputs).length > 0) this.bindUpdated(inputs, previous, source);
    for (const name of moved) this.fireBound(name, source);
    return applied;
  }

  private clock(name: string, action: ClockAction, ms: number | undefined, source: ChangeSource): ClockState {
    const def = clockDef(this.rt.registry, name);
    const before = currentClock(def, this.live.clocks.get(name), this.tick.now);
    const after = applyClockAction(def, before, action, ms, this.tick.now);
    if (after === before) return before;
    this.setClock(name, after);
    (this.change.clocks ??= new Map()).set(name, after);
    this.bindUpdated({ [name]: after }, { [name]: before }, source);
    this.touched = true;
    this.fireBound(name, source);
    return after;
  }

  /** Copies the clocks on first write: most ticks never touch them, and idle channels share one empty map. */
  setClock(name: string, state: ClockState | null): void {
    if (!this.clocksOwned) {
      this.live.clocks = new Map(this.live.clocks);
      this.clocksOwned = true;
    }
    if (state) this.live.clocks.set(name, state);
    else this.live.clocks.delete(name);
    (this.change.setClocks ??= new Map()).set(name, state);
  }

  // ---- buses

  private cue(sceneId: string, source: ChangeSource): void {
    const { layer } = this.requireScene(sceneId);
    if (entryAt(this.live.preview, layer)?.sceneId === sceneId) return;
    this.setPreview(withEntry(this.live.preview, { sceneId, layer }));
    this.event('channel.scene_loaded', { sceneId, bus: 'preview', layer, source });
  }

  private cut(sceneId: string, source: ChangeSource): void {
    const { layer } = this.requireScene(sceneId);
    this.toAir(sceneId, layer, source);
    this.cuts.add(layer);
  }

  private take(layer: number | undefined, source: ChangeSource): void {
    const cued = this.live.preview.filter((e) => layer === undefined || e.layer === layer);
    if (cued.length === 0) {
      const where = layer === undefined ? '' : ` on layer ${layer}`;
      throw new AppError('preview_empty', `Nothing is cued in preview${where}; cue a scene first.`);
    }
    for (const e of cued) {
      this.toAir(e.sceneId, e.layer, source);
      this.cuts.delete(e.layer);
    }
    this.setPreview(without(this.live.preview, (e) => cued.includes(e)));
  }

  private clear(layer: number | undefined, sceneId: string | undefined, source: ChangeSource): void {
    if (sceneId !== undefined) this.requireScene(sceneId);
    this.offAir(
      (e) => (layer === undefined || e.layer === layer) && (sceneId === undefined || e.sceneId === sceneId),
      source,
      false,
    );
  }

  private toAir(sceneId: string, layer: number, source: ChangeSource): void {
    const previousSceneId = entryAt(this.live.program, layer)?.sceneId ?? null;
    this.setProgram(withEntry(this.live.program, { sceneId, layer, since: this.tick.nowIso }));
    this.event('channel.scene_loaded', { sceneId, bus: 'program', layer, source });
    this.event('channel.played', { sceneId, previousSceneId, layer, source });
  }

  /** Takes the selected program entries off air; `cut` when they vanish at once (their scene is gone). */
  offAir(drop: (e: ProgramEntry) => boolean, source: ChangeSource, cut: boolean): void {
    const leaving = this.live.program.filter(drop);
    if (leaving.length === 0) return;
    this.setProgram(without(this.live.program, drop));
    for (const e of leaving) {
      if (cut) this.cuts.add(e.layer);
      else this.cuts.delete(e.layer);
      this.event('channel.cleared', { sceneId: e.sceneId, layer: e.layer, source });
    }
  }

  setProgram(program: ProgramEntry[]): void {
    this.live.program = program.length === 0 ? EMPTY_BUS : program;
    this.change.program = this.live.program;
    this.touched = true;
  }

  setPreview(preview: PreviewEntry[]): void {
    this.live.preview = preview.length === 0 ? EMPTY_BUS : preview;
    this.change.preview = this.live.preview;
    this.touched = true;
  }

  private requireScene(sceneId: string): SceneDefinition {
    const scene = this.rt.scenes.get(sceneId);
    if (!scene) throw new AppError('not_found', `Scene ${sceneId} is not in this channel.`);
    return scene.definition;
  }

  // ---- triggers

  private trigger(name: string, source: ChangeSource): void {
    const onAir = this.scenesOnAir();
    const firing = onAir.filter((s) => s.definition.triggers.some((t) => t.name === name));
    if (firing.length === 0) throw unknownTrigger(name, onAir);
    for (const scene of firing) this.fire(name, scene.id, source);
  }

  /** Triggers bound to an input (`on`) fire, on every scene on air or cued, when its value changes. */
  private fireBound(input: string, source: ChangeSource): void {
    for (const scene of this.scenesOnAir()) {
      for (const t of scene.definition.triggers) if (t.on === input) this.fire(t.name, scene.id, source);
    }
  }

  /** Renderers get each trigger once per frame; every firing has its event. */
  private fire(name: string, sceneId: string, source: ChangeSource): void {
    const key = `${sceneId}\u0000${name}`;
    if (!this.fired.has(key)) {
      this.fired.add(key);
      (this.change.triggers ??= []).push({ name, sceneId, at: this.tick.now });
    }
    this.event('channel.trigger_fired', { sceneId, trigger: name, source });
    this.touched = true;
  }

  private scenesOnAir(): SceneRecord[] {
    return scenesOnBuses(this.live.program, this.live.preview).flatMap((id) => this.rt.scenes.get(id) ?? []);
  }

  // ---- events

  event(type: EngineEventType, data: EngineEvent['data']): void {
    const { orgId, id: channelId } = this.rt.record;
    this.change.events.push({ id: this.tick.eventId(), type, orgId, channelId, createdAt: this.tick.nowIso, data });
  }

  /** One per patch that changed a value, and per clock op that changed a clock (the clock's state as value). */
  private bindUpdated(inputs: Record<string, unknown>, previous: Record<string, unknown>, source: ChangeSource): void {
    this.event('channel.bind_updated', { inputs, previous, frame: this.tick.frame, source });
  }
}

function unknownTrigger(name: string, onAir: SceneRecord[]): AppError {
  const names = [...new Set(onAir.flatMap((s) => s.definition.triggers.map((t) => t.name)))];
  const closest = closestName(name, names);
  let hint = closest ? ` Did you mean "${closest}"?` : ` Triggers there: ${names.join(', ')}.`;
  if (onAir.length === 0) hint = ' Nothing is on program or preview.';
  else if (names.length === 0) hint = ' The scenes there declare no triggers.';
  return new AppError('unknown_trigger', `No scene on program or preview declares a trigger "${name}".${hint}`, {
    extra: { trigger: name, closest: closest ?? null },
  });
}
