/**
 * The working copy of one channel's tick: the live state as the tick's ops leave it, and the change that
 * says so (what to persist, what to send, which events happened). Nothing here touches the channel itself:
 * the engine swaps the new live state in only once the change is written.
 */
import { AppError } from '../errors.js';
import type {
  Actor,
  ClockAction,
  ClockState,
  FiredTrigger,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  Rundown,
  SceneDefinition,
  ScheduledOp,
} from '@onair/protocol';
import { draftAsRun, LayerActors } from './as-run.js';
import { EMPTY_BUS, scenesOnBuses } from './buses.js';
import { clearBuses, continueScenes, cueInstance, cutInstance, takePreview, updateOnAir } from './bus-ops.js';
import type { ChannelChange } from './channel-change.js';
import { applyClockAction, clockDef, currentClock, type ClockArgs } from './clocks.js';
import { closestName } from './closest-name.js';
import type { EngineEvent, EngineEventType } from './events.js';
import { validatePatch, type InputRegistry } from './input-registry.js';
import type { ChannelRecord, LiveState, SceneRecord } from './model.js';
import {
  coalesced,
  isRecorded,
  touched,
  type HistoryKind,
  type HistoryMark,
  type HistoryRecord,
  type HistorySide,
} from './history.js';
import type { Op, OpKind, Origin } from './ops.js';
import {
  addItem,
  createRundown,
  cueItem,
  deleteItem,
  deleteRundown,
  duplicateItem,
  editItem,
  focusItem,
  playNext,
  refreshItemStates,
  renameRundown,
  stopItem,
  type RundownAck,
} from './rundown-ops.js';
import { addScheduled, cancelScheduled, runDue } from './schedule.js';
import { revisit } from './undo.js';

/** Ops the history records (for the actors it records), by the kind of action they are. */
const RECORDED_KINDS: Partial<Record<OpKind, HistoryKind>> = {
  patch: 'values',
  cue: 'cue',
  cut: 'cut',
  take: 'take',
  clear: 'clear',
  update: 'update',
  'rundown.cue': 'rundown.cue',
  'rundown.play_next': 'rundown.play_next',
  'rundown.stop': 'rundown.stop',
};

/** What the limits of a channel's prepared show are (config: ONAIR_LIMIT_*). */
export interface ShowLimits {
  rundownsPerChannel: number;
  itemsPerRundown: number;
  scheduledPerChannel: number;
  historyDepth: number;
}

export const DEFAULT_SHOW_LIMITS: ShowLimits = {
  rundownsPerChannel: 20,
  itemsPerRundown: 500,
  scheduledPerChannel: 100,
  historyDepth: 200,
};

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
  limits: ShowLimits;
}

type AckExtra = Omit<ChannelChange['acks'][number], 'pending'> & RundownAck;

export class Draft {
  readonly change: ChannelChange;
  readonly live: LiveState;
  /** Set once the draft changes anything renderers draw. */
  touched = false;
  /** Set once the draft changes the prepared show (rundowns, schedule, history): sent to `scenes=all` only. */
  showChanged = false;
  /** Rundown items an undo took back off air: ready again rather than done (./undo.ts). */
  readonly notAired = new Set<string>();
  private clocksOwned = false;
  /** Layers whose last change this tick was a cut. */
  readonly cuts = new Set<number>();
  /** Who put instances on program and took them off, by layer: the as-run log's actors. */
  readonly actors = new LayerActors();
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
    const kind = RECORDED_KINDS[op.kind];
    if (kind === undefined || !isRecorded(op.by)) return this.dispatch(op);
    const mark: HistoryMark = {
      program: this.live.program,
      preview: this.live.preview,
      values: new Map(this.live.values),
    };
    const ack = this.dispatch(op);
    const moved = touched(mark, this.live);
    if (moved) this.record(kind, op.by, moved);
    return ack;
  }

  private dispatch(op: Op): AckExtra {
    switch (op.kind) {
      case 'patch':
        return { applied: this.patchValues(op.values, op.by) };
      case 'clock':
        return { clock: this.clock(op.name, op.action, { ms: op.ms, period: op.period }, op.by) };
      case 'trigger':
        this.trigger(op.name, op.by, op.layer === undefined ? undefined : this.onLayer(op.layer), op.payload);
        return {};
      case 'cue':
        cueInstance(this, op, op.by);
        return {};
      case 'cut':
        cutInstance(this, op, op.by);
        return {};
      case 'take':
        takePreview(this, op.layer, op.by);
        return {};
      case 'clear':
        clearBuses(this, op.layer, op.sceneId, op.by);
        return {};
      case 'update':
        updateOnAir(this, op, op.by);
        return {};
      case 'continue':
        continueScenes(this, op.layer, op.by, op.step);
        return {};
      case 'rundown.create':
        return createRundown(this, op);
      case 'rundown.rename':
        return renameRundown(this, op);
      case 'rundown.delete':
        return deleteRundown(this, op);
      case 'item.add':
        return addItem(this, op);
      case 'item.edit':
        return editItem(this, op);
      case 'item.duplicate':
        return duplicateItem(this, op);
      case 'item.delete':
        return deleteItem(this, op);
      case 'rundown.focus':
        return focusItem(this, op);
      case 'rundown.cue':
        return cueItem(this, op);
      case 'rundown.play_next':
        return playNext(this, op);
      case 'rundown.stop':
        return stopItem(this, op, op.since);
      case 'schedule.add':
        return { scheduled: addScheduled(this, op) };
      case 'schedule.cancel':
        cancelScheduled(this, op);
        return {};
      case 'undo':
      case 'redo':
        revisit(this, op.kind, op.by);
        return {};
      case 'event':
        this.event(op.type, { ...op.data, ...op.by });
        return {};
    }
  }

  /** Scheduled entries due by this frame, applied before the queued ops (./schedule.ts). */
  runSchedule(): void {
    runDue(this, (op) => this.applyOp(op));
  }

  /** The finished change: the cut layers and fired triggers collected along the way; item states brought up to date. */
  finish(): ChannelChange {
    if (this.change.program !== undefined || this.change.preview !== undefined || this.change.rundowns) {
      refreshItemStates(this);
    }
    if (this.change.program !== undefined && this.cuts.size > 0) {
      this.change.cutLayers = [...this.cuts].sort((a, b) => a - b);
    }
    const asRun = this.change.program === undefined ? null : draftAsRun(this);
    if (asRun) this.change.asRun = asRun;
    return this.change;
  }

  // ---- the prepared show: rundowns, schedule, history

  setRundown(rundown: Rundown): void {
    const next = new Map(this.live.rundowns);
    next.set(rundown.id, rundown);
    this.live.rundowns = next;
    (this.change.rundowns ??= new Map()).set(rundown.id, rundown);
    this.change.removedRundowns?.delete(rundown.id);
    this.showChanged = true;
  }

  removeRundown(rundownId: string): void {
    const next = new Map(this.live.rundowns);
    next.delete(rundownId);
    this.live.rundowns = next;
    this.change.rundowns?.delete(rundownId);
    (this.change.removedRundowns ??= new Set()).add(rundownId);
    this.showChanged = true;
  }

  setSchedule(schedule: readonly ScheduledOp[]): void {
    this.live.schedule = schedule;
    this.change.schedule = schedule;
    this.showChanged = true;
  }

  /** Adds an entry to the history, keeping the last `historyDepth` (./history.ts). */
  pushHistory(record: HistoryRecord): void {
    const added = (this.change.historyAdded ??= new Map());
    let history = [...this.live.history.filter((r) => r.id !== record.id), record];
    const depth = this.tick.limits.historyDepth;
    if (history.length > depth) {
      const dropped = history.slice(0, history.length - depth);
      history = history.slice(history.length - depth);
      const removed = (this.change.historyRemoved ??= new Set());
      for (const r of dropped) {
        if (added.delete(r.id)) continue;
        removed.add(r.id);
      }
    }
    this.live.history = history;
    added.set(record.id, record);
    this.showChanged = true;
  }

  private record(kind: HistoryKind, by: Origin, moved: { before: HistorySide; after: HistorySide }): void {
    const last = this.live.history[this.live.history.length - 1];
    const same = (a: Actor) => a.type === by.actor.type && a.id === by.actor.id;
    // Value changes of one actor in one tick (a scorekeeper posting faster than the frame rate) are one action.
    if (kind === 'values' && last?.kind === 'values' && last.frame === this.tick.frame && same(last.actor)) {
      this.pushHistory(coalesced(last, moved));
      return;
    }
    const { frame, nowIso } = this.tick;
    this.pushHistory({ id: `his_${this.tick.eventId().slice(4)}`, kind, actor: by.actor, frame, at: nowIso, ...moved });
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

  /** Sets channel values (null: back to the default), as a PATCH does. */
  patchValues(values: Map<string, InputValue>, by: Origin): Record<string, InputValue> {
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
    if (Object.keys(inputs).length > 0) this.bindUpdated(inputs, previous, by);
    for (const name of moved) this.fireBound(name, by);
    return applied;
  }

  private clock(name: string, action: ClockAction, args: ClockArgs, by: Origin): ClockState {
    const def = clockDef(this.rt.registry, name);
    const before = currentClock(def, this.live.clocks.get(name), this.tick.now);
    const after = applyClockAction(def, before, action, args, this.tick.now);
    if (after === before) return before;
    this.setClock(name, after);
    (this.change.clocks ??= new Map()).set(name, after);
    this.bindUpdated({ [name]: after }, { [name]: before }, by);
    this.touched = true;
    this.fireBound(name, by);
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

  // ---- buses (the operations on them are in bus-ops.ts)

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

  requireScene(sceneId: string): SceneDefinition {
    const scene = this.rt.scenes.get(sceneId);
    if (!scene) throw new AppError('not_found', `Scene ${sceneId} is not in this channel.`);
    return scene.definition;
  }

  // ---- triggers

  /** Whether a scene is on program or preview on `layer`. */
  private onLayer(layer: number): (sceneId: string) => boolean {
    const on = [...this.live.program, ...this.live.preview].filter((e) => e.layer === layer);
    return (sceneId) => on.some((e) => e.sceneId === sceneId);
  }

  /** Fires `name` on every scene on air or cued (or only those `among`) that declares it; unknown_trigger if none. */
  trigger(name: string, by: Origin, among?: (sceneId: string) => boolean, payload?: unknown): void {
    const onAir = this.scenesOnAir().filter((s) => !among || among(s.id));
    const firing = onAir.filter((s) => s.definition.triggers.some((t) => t.name === name));
    if (firing.length === 0) throw unknownTrigger(name, onAir);
    for (const scene of firing) this.fire(name, scene.id, by, payload);
  }

  /** Triggers bound to an input (`on`) fire, on every scene on air or cued, when its value changes. */
  fireBound(input: string, by: Origin, among?: (sceneId: string) => boolean): void {
    for (const scene of this.scenesOnAir()) {
      if (among && !among(scene.id)) continue;
      for (const t of scene.definition.triggers) if (t.on === input) this.fire(t.name, scene.id, by);
    }
  }

  /** Renderers get each trigger once per frame; every firing has its event. */
  private fire(name: string, sceneId: string, by: Origin, payload?: unknown): void {
    const key = `${sceneId}\u0000${name}`;
    if (!this.fired.has(key)) {
      this.fired.add(key);
      const fired: FiredTrigger = { name, sceneId, at: this.tick.now };
      if (payload !== undefined) fired.payload = payload;
      (this.change.triggers ??= []).push(fired);
    }
    this.event('channel.trigger_fired', { sceneId, trigger: name, ...by });
    this.touched = true;
  }

  private scenesOnAir(): SceneRecord[] {
    return scenesOnBuses(this.live.program, this.live.preview).flatMap((id) => this.rt.scenes.get(id) ?? []);
  }

  // ---- events

  /** Records an event of this tick; returns its id. */
  event(type: EngineEventType, data: EngineEvent['data']): string {
    const { orgId, id: channelId } = this.rt.record;
    const id = this.tick.eventId();
    this.change.events.push({ id, type, orgId, channelId, createdAt: this.tick.nowIso, data });
    return id;
  }

  /** One per patch that changed a value, and per clock op that changed a clock (the clock's state as value). */
  private bindUpdated(inputs: Record<string, unknown>, previous: Record<string, unknown>, by: Origin): void {
    this.event('channel.bind_updated', { inputs, previous, frame: this.tick.frame, ...by });
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
