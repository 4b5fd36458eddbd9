/**
 * One channel in memory: its record, scenes, declared inputs, live state and queue of pending operations.
 * `prepare` applies the queue to a copy of the live state (./draft.ts); the engine swaps the copy in only
 * after the tick's changes are written, so a failed write leaves the channel as it was.
 */
import { AppError } from '../errors.js';
import type { ClockState, InputValue, SceneView } from '@onair/protocol';
import type { FollowedChannel } from './follow-frame.js';
import { busesOf, type SceneOnBus } from './buses.js';
import type { ChannelChange } from './channel-change.js';
import { currentClock } from './clocks.js';
import { Draft, type TickContext } from './draft.js';
import { buildRegistry, type InputRegistry } from './input-registry.js';
import type { FrameRate } from './frame-rate.js';
import type { ChannelRecord, LiveState, SceneRecord } from './model.js';
import type { PendingOp } from './ops.js';
import { applySceneEdits, type SceneEdits } from './scene-edits.js';

const NO_EDITS: SceneEdits = { changed: new Set(), removed: new Set() };

export class ChannelRuntime {
  record: ChannelRecord;
  readonly scenes = new Map<string, SceneRecord>();
  /** The inputs the scenes declare now: patches are checked against it. */
  registry: InputRegistry;
  /** The inputs renderers were last told of (what a scene edit's removals are counted from). */
  published: InputRegistry;
  live: LiveState;
  queue: PendingOp[] = [];
  /** Scene edits waiting for the next tick; null (the usual case) costs an idle channel nothing. */
  private sceneEdits: { changed: Set<string>; removed: Set<string> } | null = null;
  private metaChanged = false;

  constructor(record: ChannelRecord, scenes: SceneRecord[], live: LiveState) {
    this.record = record;
    for (const s of scenes) this.scenes.set(s.id, s);
    this.registry = buildRegistry(this.scenes.values());
    this.published = this.registry;
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

  /** Every declared input but the clocks, defaults filled in. */
  effectiveInputs(): Record<string, InputValue> {
    const out: Record<string, InputValue> = Object.create(null) as Record<string, InputValue>;
    for (const [name, def] of this.registry) if (def.type !== 'clock') out[name] = this.effective(name);
    return out;
  }

  /** Every declared clock as it stands at `now`. */
  clocks(now: number): Record<string, ClockState> {
    const out: Record<string, ClockState> = Object.create(null) as Record<string, ClockState>;
    for (const [name, def] of this.registry) {
      if (def.type === 'clock') out[name] = currentClock(def, this.live.clocks.get(name), now);
    }
    return out;
  }

  /** Where the scene is on air or cued, as of the last published tick. */
  busesOf(sceneId: string): SceneOnBus[] {
    return busesOf(sceneId, this.live.program, this.live.preview);
  }

  /** A scene as renderers get it. */
  sceneView(sceneId: string): SceneView | undefined {
    const s = this.scenes.get(sceneId);
    return s && { id: s.id, name: s.name, definition: s.definition };
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

  /** The next tick sends every scene again (a channel taken over: renderers may have missed edits). */
  resendScenes(): void {
    for (const scene of [...this.scenes.values()]) this.upsertScene(scene);
  }

  /** Answers every queued op with `err` (none of them was applied). */
  refuseQueued(err: AppError): void {
    for (const p of this.queue) p.reject(err);
    this.queue = [];
  }

  /** A copy ticked elsewhere, as a plain state (./follow-frame.ts). */
  followed(): FollowedChannel {
    const scenes = Object.create(null) as Record<string, SceneView>;
    for (const s of this.scenes.values()) scenes[s.id] = { id: s.id, name: s.name, definition: s.definition };
    return {
      channelId: this.record.id,
      frame: this.live.frame,
      serverTime: Date.parse(this.live.updatedAt),
      fps: this.record.fps,
      width: this.record.width,
      height: this.record.height,
      program: [...this.live.program],
      preview: [...this.live.preview],
      scenes,
      inputs: Object.fromEntries(this.live.values),
      clocks: Object.fromEntries(this.live.clocks),
      rundowns: Object.fromEntries(this.live.rundowns),
      schedule: [...this.live.schedule],
    };
  }

  /**
   * A copy ticked elsewhere takes the state its owner's frame led to; `at`, the frame's time, dates what changed.
   * Never for a channel ticked here: the state skips the tick's bookkeeping (scene edits, published inputs).
   */
  adoptFollowed(next: FollowedChannel, at: string): void {
    if (this.adoptScenes(next.scenes, at)) {
      this.registry = buildRegistry(this.scenes.values());
      this.published = this.registry;
    }
    const values = new Map<string, Exclude<InputValue, null>>();
    for (const [name, value] of Object.entries(next.inputs)) if (value !== null) values.set(name, value);
    this.live = {
      values,
      clocks: new Map(Object.entries(next.clocks)),
      program: [...next.program],
      preview: [...next.preview],
      rundowns: new Map(Object.entries(next.rundowns)),
      schedule: next.schedule,
      // The history stays with the node that ticks the channel (and in the store); a follower holds none.
      history: this.live.history,
      frame: next.frame,
      updatedAt: at,
    };
    const { fps, width, height } = next;
    if (fps !== this.record.fps || width !== this.record.width || height !== this.record.height) {
      this.updateRecord({ ...this.record, fps: fps as FrameRate, width, height });
    }
  }

  /** Whether any scene changed: the ones the frame carried are new records (created `at` if they are new). */
  private adoptScenes(views: Readonly<Record<string, SceneView>>, at: string): boolean {
    let changed = false;
    for (const id of [...this.scenes.keys()]) {
      if (views[id] !== undefined) continue;
      this.scenes.delete(id);
      changed = true;
    }
    for (const { id, name, definition } of Object.values(views)) {
      const before = this.scenes.get(id);
      if (before && before.name === name && before.definition === definition) continue;
      const createdAt = before?.createdAt ?? at;
      this.scenes.set(id, { id, channelId: this.record.id, name, definition, createdAt, updatedAt: at });
      changed = true;
    }
    return changed;
  }

  /** After a failed commit: the change's scene and format updates are applied again next tick. */
  requeueStructural(change: ChannelChange): boolean {
    for (const scene of change.scenes ?? []) if (this.scenes.has(scene.id)) this.edits().changed.add(scene.id);
    for (const id of change.removedScenes ?? []) if (!this.scenes.has(id)) this.edits().removed.add(id);
    if (change.meta) this.metaChanged = true;
    return this.hasWork();
  }

  /** Once the change is written: it becomes the channel's state. */
  adopt(change: ChannelChange): void {
    this.live = change.live;
    if (change.registry) this.published = change.registry;
  }

  /**
   * Applies scene edits, then the queue, to a copy of the live state. Never throws: a bad op is rejected on
   * its own.
   */
  prepare(tick: TickContext): ChannelChange | null {
    const draft = new Draft(this, tick);
    applySceneEdits(draft, this.published, this.sceneEdits ?? NO_EDITS);
    draft.runSchedule();
    for (const pending of this.queue) {
      try {
        draft.change.acks.push({ pending, ...draft.applyOp(pending.op) });
      } catch (err) {
        pending.reject(err instanceof AppError ? err : new AppError('internal'));
      }
    }
    this.queue = [];
    if (this.metaChanged)
      draft.change.meta = { fps: this.record.fps, width: this.record.width, height: this.record.height };
    this.sceneEdits = null;
    this.metaChanged = false;
    return this.result(draft);
  }

  /**
   * The change to commit and publish; a tick whose ops changed nothing (the same values again, clear with
   * nothing on air) is still committed so its ops are answered, but sends renderers nothing.
   */
  private result(draft: Draft): ChannelChange | null {
    const change = draft.finish();
    if (draft.touched || draft.showChanged || change.meta) return change;
    if (change.acks.length === 0) return null;
    change.visible = false;
    change.live.frame = change.prev;
    change.live.updatedAt = this.live.updatedAt;
    return change;
  }
}
