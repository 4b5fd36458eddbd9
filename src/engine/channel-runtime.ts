/**
 * One channel in memory: its record, scenes, declared inputs, live state and queue of pending operations.
 * `prepare` applies the queue to a copy of the live state; the engine swaps the copy in only after the
 * tick's changes are written, so a failed write leaves the channel as it was.
 */
import { AppError } from '../errors.js';
import type { InputValue, PreviewBus, ProgramBus, SceneView } from '../protocol/index.js';
import { bindUpdated, type EngineEvent } from './events.js';
import { buildRegistry, validatePatch, type InputRegistry } from './input-registry.js';
import type { ChannelRecord, ChangeSource, LiveState, SceneRecord } from './model.js';
import type { Op, PendingOp } from './ops.js';

/** What one tick changed on one channel. */
export interface ChannelChange {
  channelId: string;
  orgId: string;
  frame: number;
  prev: number;
  /** Effective values of inputs that changed (defaults resolved). */
  inputs: Map<string, InputValue>;
  /** Explicit values to persist: a value, or null to return to the default. */
  setValues: Map<string, InputValue>;
  program?: ProgramBus | null;
  preview?: PreviewBus | null;
  scenes?: SceneView[];
  removedScenes?: string[];
  meta?: { fps: number; width: number; height: number };
  live: LiveState;
  /** False when the tick only answered ops that changed nothing: committed, but not sent to renderers. */
  visible?: boolean;
  events: EngineEvent[];
  acks: { pending: PendingOp; applied?: Record<string, InputValue> }[];
}

const NO_SCENES: ReadonlySet<string> = new Set();

export class ChannelRuntime {
  record: ChannelRecord;
  readonly scenes = new Map<string, SceneRecord>();
  registry: InputRegistry;
  live: LiveState;
  queue: PendingOp[] = [];
  /** Scene edits waiting for the next tick; null (the usual case) costs an idle channel nothing. */
  private sceneEdits: { changed: Set<string>; removed: Set<string> } | null = null;
  private metaChanged = false;

  constructor(record: ChannelRecord, scenes: SceneRecord[], live: LiveState) {
    this.record = record;
    for (const s of scenes) this.scenes.set(s.id, s);
    this.registry = buildRegistry(this.scenes.values());
    this.live = live;
  }

  private edits(): { changed: Set<string>; removed: Set<string> } {
    return (this.sceneEdits ??= { changed: new Set(), removed: new Set() });
  }

  hasWork(): boolean {
    return this.queue.length > 0 || this.sceneEdits !== null || this.metaChanged;
  }

  effective(name: string): InputValue {
    const v = this.live.values.get(name);
    return v !== undefined ? v : (this.registry.get(name)?.default ?? null);
  }

  effectiveInputs(): Record<string, InputValue> {
    const out: Record<string, InputValue> = Object.create(null) as Record<string, InputValue>;
    for (const name of this.registry.keys()) out[name] = this.effective(name);
    return out;
  }

  upsertScene(scene: SceneRecord): void {
    this.scenes.set(scene.id, scene);
    this.registry = buildRegistry(this.scenes.values());
    this.edits().removed.delete(scene.id);
    this.edits().changed.add(scene.id);
  }

  removeScene(sceneId: string): void {
    this.scenes.delete(sceneId);
    this.registry = buildRegistry(this.scenes.values());
    this.edits().changed.delete(sceneId);
    this.edits().removed.add(sceneId);
  }

  updateRecord(record: ChannelRecord): void {
    const before = this.record;
    this.record = record;
    if (before.fps !== record.fps || before.width !== record.width || before.height !== record.height) {
      this.metaChanged = true;
    }
  }

  /** After a failed commit: the change's scene and format updates are applied again next tick. */
  requeueStructural(change: ChannelChange): boolean {
    for (const scene of change.scenes ?? []) if (this.scenes.has(scene.id)) this.edits().changed.add(scene.id);
    for (const id of change.removedScenes ?? []) if (!this.scenes.has(id)) this.edits().removed.add(id);
    if (change.meta) this.metaChanged = true;
    return this.hasWork();
  }

  /** Applies the queue to a copy of the live state. Never throws: a bad op is rejected on its own. */
  prepare(frame: number, nowIso: string): ChannelChange | null {
    const draft = new Draft(this, frame, nowIso);
    for (const pending of this.queue) draft.apply(pending);
    this.queue = [];
    draft.sceneChanges(this.sceneEdits?.changed ?? NO_SCENES, this.sceneEdits?.removed ?? NO_SCENES);
    if (this.metaChanged)
      draft.change.meta = { fps: this.record.fps, width: this.record.width, height: this.record.height };
    this.sceneEdits = null;
    this.metaChanged = false;
    return draft.result();
  }
}

/** The working copy of one channel's tick. */
class Draft {
  readonly change: ChannelChange;
  private readonly values: Map<string, Exclude<InputValue, null>>;
  private touched = false;

  constructor(
    private readonly rt: ChannelRuntime,
    frame: number,
    private readonly nowIso: string,
  ) {
    this.values = new Map(rt.live.values);
    const live: LiveState = { ...rt.live, values: this.values, frame, updatedAt: nowIso };
    this.change = {
      channelId: rt.record.id,
      orgId: rt.record.orgId,
      frame,
      prev: rt.live.frame,
      inputs: new Map(),
      setValues: new Map(),
      live,
      events: [],
      acks: [],
    };
  }

  apply(pending: PendingOp): void {
    try {
      const applied = this.applyOp(pending.op);
      this.change.acks.push(applied ? { pending, applied } : { pending });
    } catch (err) {
      pending.reject(err instanceof AppError ? err : new AppError('internal'));
    }
  }

  sceneChanges(changed: ReadonlySet<string>, removed: ReadonlySet<string>): void {
    if (changed.size > 0) {
      this.change.scenes = [...changed].flatMap((id) => {
        const s = this.rt.scenes.get(id);
        return s ? [{ id: s.id, name: s.name, definition: s.definition }] : [];
      });
    }
    if (removed.size > 0) {
      this.change.removedScenes = [...removed];
      const live = this.change.live;
      if (live.program && removed.has(live.program.sceneId)) this.setProgram(null, 'api');
      if (live.preview && removed.has(live.preview.sceneId)) this.setPreview(null);
    }
    // Inputs whose default changed with a scene edit must reach renderers too.
    if (changed.size > 0 || removed.size > 0) {
      for (const name of this.rt.registry.keys()) this.change.inputs.set(name, this.effectiveDraft(name));
    }
    if (changed.size > 0 || removed.size > 0) this.touched = true;
  }

  /**
   * The change to commit and publish; a tick whose ops changed nothing (the same values again, clear with
   * nothing on air) is still committed so its ops are answered, but sends renderers nothing.
   */
  result(): ChannelChange | null {
    if (this.touched || this.change.meta) return this.change;
    if (this.change.acks.length === 0) return null;
    this.change.visible = false;
    this.change.live.frame = this.change.prev;
    this.change.live.updatedAt = this.rt.live.updatedAt;
    return this.change;
  }

  private applyOp(op: Op): Record<string, InputValue> | undefined {
    switch (op.kind) {
      case 'patch':
        return this.patch(op.values, op.source);
      case 'preview':
        this.requireScene(op.sceneId);
        if (this.change.live.preview?.sceneId === op.sceneId) return undefined;
        this.setPreview({ sceneId: op.sceneId });
        this.event('channel.scene_loaded', { sceneId: op.sceneId, bus: 'preview', source: op.source });
        return undefined;
      case 'program':
        this.requireScene(op.sceneId);
        this.setProgram(op.sceneId, op.source);
        return undefined;
      case 'take': {
        const preview = this.change.live.preview;
        if (!preview) throw new AppError('preview_empty', 'Nothing is cued in preview; cue a scene first.');
        this.setProgram(preview.sceneId, op.source);
        return undefined;
      }
      case 'clear':
        this.setProgram(null, op.source);
        return undefined;
    }
  }

  private patch(values: Map<string, InputValue>, source: ChangeSource): Record<string, InputValue> {
    // Re-checked here: a scene may have been removed since the op was queued.
    const checked = validatePatch(this.rt.registry, Object.fromEntries(values));
    const applied: Record<string, InputValue> = {};
    const inputs: Record<string, InputValue> = {};
    const previous: Record<string, InputValue> = {};
    for (const [name, value] of checked) {
      const stored = this.values.get(name);
      const differs = value === null ? stored !== undefined : stored !== value;
      if (differs) {
        previous[name] = this.effectiveDraft(name);
        if (value === null) this.values.delete(name);
        else this.values.set(name, value);
        inputs[name] = this.effectiveDraft(name);
        this.change.inputs.set(name, inputs[name]);
        this.change.setValues.set(name, value);
        this.touched = true;
      }
      applied[name] = this.effectiveDraft(name);
    }
    // One event per patch that changed something (a value changed).
    if (Object.keys(inputs).length > 0) {
      this.change.events.push(bindUpdated(this.base(), inputs, previous, this.change.frame, source));
    }
    return applied;
  }

  private setProgram(sceneId: string | null, source: ChangeSource): void {
    const live = this.change.live;
    const previousSceneId = live.program?.sceneId ?? null;
    if (sceneId === null) {
      if (!live.program) return;
      this.touched = true;
      live.program = null;
      this.change.program = null;
      this.event('channel.cleared', { sceneId: previousSceneId, source });
      return;
    }
    this.touched = true;
    live.program = { sceneId, since: this.nowIso };
    this.change.program = live.program;
    this.event('channel.scene_loaded', { sceneId, bus: 'program', source });
    this.event('channel.played', { sceneId, previousSceneId, source });
  }

  private setPreview(preview: PreviewBus | null): void {
    this.touched = true;
    this.change.live.preview = preview;
    this.change.preview = preview;
  }

  private requireScene(sceneId: string): void {
    if (!this.rt.scenes.has(sceneId)) throw new AppError('not_found', `Scene ${sceneId} is not in this channel.`);
  }

  private effectiveDraft(name: string): InputValue {
    const v = this.values.get(name);
    return v !== undefined ? v : (this.rt.registry.get(name)?.default ?? null);
  }

  private base(): Omit<EngineEvent, 'type' | 'data'> {
    return { orgId: this.rt.record.orgId, channelId: this.rt.record.id, createdAt: this.nowIso };
  }

  private event(type: EngineEvent['type'], data: EngineEvent['data']): void {
    this.change.events.push({ ...this.base(), type, data });
  }
}
