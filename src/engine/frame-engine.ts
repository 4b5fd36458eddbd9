/**
 * The frame-clocked channel engine (the Engine of ./engine.ts). Operations queue on their channel and are applied at
 * the next tick of the channel's frame clock. A tick's changes are written as one unit and published at once, as one
 * frame message per changed channel; the operations are acknowledged, and turned into events, when the write is
 * durable (a flush that runs off the event loop, so it never delays the next frame). Only channels with queued work
 * are visited, so idle channels cost nothing per tick. The tick never throws.
 *
 * It ticks the channels its placement gives it (every one by default). Several nodes drive the rest through `host`
 * (./engine-host.ts); nothing in here knows of nodes.
 */
import { AppError } from '../errors.js';
import type { FrameMessage, Rundown, SceneScope, ScheduledOp, SnapshotMessage } from '@onair/protocol';
import { busesOf, EMPTY_BUS, type SceneOnBus } from './buses.js';
import { opResult, toFrameMessage, type ChannelChange } from './channel-change.js';
import { encodeFrame, encodeRevoke } from './channel-messages.js';
import { ChannelRuntime } from './channel-runtime.js';
import {
  EVERYWHERE,
  type ClockStats,
  type Engine,
  type EngineDeps,
  type OnAir,
  type Placement,
  type TickWrite,
} from './engine.js';
import type { EngineHost, RemoteFrameOutcome } from './engine-host.js';
import { followFrame } from './follow-frame.js';
import { FrameClock } from './frame-clock.js';
import { frameRate, frameStart, type FrameRate } from './frame-rate.js';
import { DEFAULT_SHOW_LIMITS } from './draft.js';
import { dueFrame, dueWithin } from './schedule.js';
import { assertCompatible, type InputRegistry } from './input-registry.js';
import type { ChannelRecord, SceneRecord, StoredChannel } from './model.js';
import type { Op, OpResult } from './ops.js';
import { busesFrame } from './scene-scope.js';
import { buildSnapshot, buildState, type ChannelState } from './snapshot.js';

interface Group {
  clock: FrameClock;
  pending: Set<ChannelRuntime>;
  /** The commit in flight, if any: ticks wait for it, and stop() awaits it. */
  inflight: Promise<void> | null;
}

/** Why an op queued on a channel that moved to another node before its tick was not applied (several nodes). */
const MOVED_DETAIL = 'The channel moved to another node before this change was applied; retry.';

/** stop() keeps ticking while work remains (ops queued during a commit), up to this many times. */
const FINAL_TICKS = 5;

const deleted = () => new AppError('not_found', 'The channel was deleted.');

export class FrameEngine implements Engine {
  /** For several nodes only (./engine-host.ts). */
  readonly host: EngineHost;
  private readonly channels = new Map<string, ChannelRuntime>();
  private readonly groups = new Map<FrameRate, Group>();
  /** Written ticks waiting for durability: stop() waits for them, so no acknowledgement is lost. */
  private readonly flushing = new Set<Promise<void>>();
  private readonly placement: Placement;
  private running = false;
  /** Per channel with a schedule: the timer that puts it on the clock shortly before its next entry is due. */
  private readonly wakeups = new Map<string, () => void>();
  private readonly addedListeners = new Set<(channelId: string) => void>();

  constructor(private readonly deps: EngineDeps) {
    this.placement = deps.placement ?? EVERYWHERE;
    this.host = {
      channelIds: () => [...this.channels.keys()],
      position: (channelId) => {
        const rt = this.channels.get(channelId);
        return rt && { frame: rt.live.frame, fps: rt.record.fps };
      },
      install: (stored) => this.install(stored),
      demote: (channelId) => this.demote(channelId),
      forget: (channelId) => this.forget(channelId),
      applyRemoteFrame: (channelId, frame) => this.applyRemoteFrame(channelId, frame),
    };
  }

  load(stored: Iterable<StoredChannel>): void {
    for (const s of stored) this.channels.set(s.channel.id, new ChannelRuntime(s.channel, s.scenes, s.live));
  }

  start(): void {
    this.running = true;
    for (const rt of this.channels.values()) this.armSchedule(rt);
    for (const g of this.groups.values()) if (g.pending.size > 0) g.clock.start();
  }

  /**
   * Puts the channel on its clock a frame before its next scheduled entry is due, so the tick of that frame applies it
   * (./schedule.ts); only where the channel is ticked, and again whenever its schedule changes.
   */
  private armSchedule(rt: ChannelRuntime): void {
    const id = rt.record.id;
    this.wakeups.get(id)?.();
    this.wakeups.delete(id);
    const next = rt.live.schedule[0];
    if (!next || !this.running || !this.placement.ticks(id)) return;
    const rate = frameRate(rt.record.fps);
    const wait = frameStart(rate, dueFrame(next, rt.record.fps) - 1) - this.deps.time.now();
    this.wakeups.set(
      id,
      this.deps.time.setTimer(() => {
        this.wakeups.delete(id);
        if (this.channels.get(id) === rt) this.markPending(rt);
      }, wait),
    );
  }

  private disarm(channelId: string): void {
    this.wakeups.get(channelId)?.();
    this.wakeups.delete(channelId);
  }

  /** Stops the clocks after one last tick per group, so nothing queued is left unanswered. */
  async stop(): Promise<void> {
    this.running = false;
    for (const id of [...this.wakeups.keys()]) this.disarm(id);
    for (const [fps, g] of this.groups) {
      g.clock.stop();
      for (let i = 0; i < FINAL_TICKS && (g.inflight || g.pending.size > 0); i++) {
        if (g.inflight) await g.inflight;
        if (g.pending.size > 0) await this.runTick(fps, g, g.clock.nextFrame());
      }
      this.rejectLeftovers(g);
    }
    while (this.flushing.size > 0) await Promise.all(this.flushing);
  }

  /** Whatever could not be applied before stopping is answered, never left hanging. */
  private rejectLeftovers(g: Group): void {
    const stopped = new AppError('unavailable', 'The server is stopping; retry shortly.', { retryAfter: 1 });
    for (const rt of g.pending) rt.refuseQueued(stopped);
  }

  channelCount(): number {
    return this.channels.size;
  }

  channelIds(): string[] {
    return [...this.channels.keys()];
  }

  onChannelAdded(listener: (channelId: string) => void): () => void {
    this.addedListeners.add(listener);
    return () => this.addedListeners.delete(listener);
  }

  has(channelId: string): boolean {
    return this.channels.has(channelId);
  }

  ticks(channelId: string): boolean {
    return this.channels.has(channelId) && this.placement.ticks(channelId);
  }

  channelRecord(channelId: string): ChannelRecord {
    return this.runtime(channelId).record;
  }

  /** The inputs the channel's scenes declare, for validating a patch before it is queued. */
  registry(channelId: string): InputRegistry {
    return this.runtime(channelId).registry;
  }

  scenes(channelId: string): SceneRecord[] {
    return [...this.runtime(channelId).scenes.values()];
  }

  addChannel(record: ChannelRecord, frame = 0): void {
    const live = {
      values: new Map(),
      clocks: new Map(),
      program: EMPTY_BUS,
      preview: EMPTY_BUS,
      rundowns: new Map(),
      schedule: [],
      history: [],
      frame,
      updatedAt: record.createdAt,
    };
    this.channels.set(record.id, new ChannelRuntime(record, [], live));
    for (const listener of this.addedListeners) listener(record.id);
  }

  updateChannel(record: ChannelRecord): void {
    const rt = this.runtime(record.id);
    const before = rt.record;
    if (before.fps !== record.fps) this.moveGroup(rt, before.fps, record.fps);
    rt.updateRecord(record);
    // The next entry's frame is counted again at the new rate.
    if (before.fps !== record.fps) this.armSchedule(rt);
    if (before.outputToken !== record.outputToken) this.send(record.id, encodeRevoke('token_rotated'), rt.live.frame);
    this.markPending(rt);
  }

  removeChannel(channelId: string): void {
    const rt = this.channels.get(channelId);
    if (!rt) return;
    this.forget(channelId);
    this.send(channelId, encodeRevoke('channel_deleted'), rt.live.frame);
  }

  /** Throws conflict when the scene's inputs clash with the channel's; call before persisting. */
  checkScene(scene: SceneRecord): void {
    const rt = this.runtime(scene.channelId);
    const others = [...rt.scenes.values()].filter((s) => s.id !== scene.id);
    const registry = new Map(others.flatMap((s) => s.definition.inputs.map((d) => [d.name, d] as const)));
    assertCompatible(registry, scene, others);
  }

  upsertScene(scene: SceneRecord): void {
    const rt = this.runtime(scene.channelId);
    rt.upsertScene(scene);
    this.markPending(rt);
  }

  /**
   * Where the scene is on program and preview (each bus and layer), as of the last tick: the API refuses to
   * delete a scene that is on a bus, or to move it to another layer.
   */
  sceneBuses(channelId: string, sceneId: string): SceneOnBus[] {
    const live = this.runtime(channelId).live;
    return busesOf(sceneId, live.program, live.preview);
  }

  removeScene(channelId: string, sceneId: string): void {
    const rt = this.runtime(channelId);
    rt.removeScene(sceneId);
    this.markPending(rt);
  }

  /** Queues an operation; resolves once the tick that applied it is durable. */
  submit(channelId: string, op: Op): Promise<OpResult> {
    const rt = this.runtime(channelId);
    if (!this.running)
      return Promise.reject(new AppError('unavailable', 'The engine is not running.', { retryAfter: 1 }));
    return new Promise<OpResult>((resolve, reject) => {
      rt.queue.push({ op, resolve, reject });
      this.markPending(rt);
    });
  }

  /** Operations waiting for the channel's next tick (for metrics and tests: what one tick will apply). */
  queuedOps(channelId: string): number {
    return this.runtime(channelId).queue.length;
  }

  /** `scope`: which scene definitions it carries (engine/scene-scope.ts). */
  snapshot(channelId: string, scope: SceneScope = 'all'): SnapshotMessage {
    return buildSnapshot(this.runtime(channelId), this.deps.time.now(), scope);
  }

  state(channelId: string): ChannelState {
    return buildState(this.runtime(channelId), this.deps.time.now());
  }

  onAir(channelId: string): OnAir {
    const { record, live } = this.runtime(channelId);
    return { frame: live.frame, fps: record.fps, program: live.program, preview: live.preview };
  }

  show(channelId: string): { rundowns: Rundown[]; schedule: ScheduledOp[] } {
    const { live } = this.runtime(channelId);
    return { rundowns: [...live.rundowns.values()], schedule: [...live.schedule] };
  }

  clockStats(): ClockStats[] {
    return [...this.groups].map(([fps, g]) => ({ fps, ...g.clock.getStats() }));
  }

  /** Several nodes: see EngineHost.install. */
  private install(stored: StoredChannel): void {
    this.demote(stored.channel.id);
    const rt = new ChannelRuntime(stored.channel, stored.scenes, stored.live);
    this.channels.set(stored.channel.id, rt);
    if (!this.placement.ticks(rt.record.id)) return;
    rt.resendScenes();
    this.markPending(rt);
    this.armSchedule(rt);
  }

  /** Several nodes: see EngineHost.demote. */
  private demote(channelId: string): void {
    const rt = this.channels.get(channelId);
    if (!rt) return;
    this.disarm(channelId);
    this.groups.get(rt.record.fps)?.pending.delete(rt);
    rt.refuseQueued(new AppError('unavailable', MOVED_DETAIL, { retryAfter: 1, reason: 'channel_moved' }));
  }

  /** See EngineHost.forget; removeChannel() also tells renderers. */
  private forget(channelId: string): void {
    const rt = this.channels.get(channelId);
    if (!rt) return;
    this.disarm(channelId);
    this.channels.delete(channelId);
    this.groups.get(rt.record.fps)?.pending.delete(rt);
    rt.refuseQueued(deleted());
  }

  /** Several nodes: see EngineHost.applyRemoteFrame. */
  private applyRemoteFrame(channelId: string, frame: FrameMessage): RemoteFrameOutcome {
    const rt = this.channels.get(channelId);
    if (!rt) return 'unknown';
    const { state, outcome } = followFrame(rt.followed(), frame);
    if (outcome === 'applied') rt.adoptFollowed(state, new Date(frame.serverTime).toISOString());
    return outcome;
  }

  private runtime(channelId: string): ChannelRuntime {
    const rt = this.channels.get(channelId);
    if (!rt) throw new AppError('not_found', `Channel ${channelId} does not exist.`);
    return rt;
  }

  private group(fps: FrameRate): Group {
    let g = this.groups.get(fps);
    if (!g) {
      const created: Group = { pending: new Set(), inflight: null, clock: null as unknown as FrameClock };
      const onTick = (frame: number) => {
        this.runTick(fps, created, frame).catch((err: unknown) => this.deps.onTickError?.(err, { frame }));
      };
      created.clock = new FrameClock(frameRate(fps), this.deps.time, onTick, { phase: this.deps.clockPhase });
      this.groups.set(fps, created);
      g = created;
    }
    return g;
  }

  private markPending(rt: ChannelRuntime): void {
    if (!this.placement.ticks(rt.record.id)) return;
    const g = this.group(rt.record.fps);
    g.pending.add(rt);
    if (this.running) g.clock.start();
  }

  private moveGroup(rt: ChannelRuntime, from: FrameRate, to: FrameRate): void {
    // Queued work moves with the channel; markPending() adds it to the new group.
    this.groups.get(from)?.pending.delete(rt);
    this.group(to);
  }

  private async runTick(fps: FrameRate, g: Group, frame: number): Promise<void> {
    // A commit still in flight: leave the queues for the next tick (they are applied then, in order).
    if (g.inflight || g.pending.size === 0) {
      if (g.pending.size === 0) g.clock.stop();
      return;
    }
    const started = performance.now();
    const changes = this.prepareAll(g, frame);
    if (changes.length > 0) await this.commitAndPublish(g, frame, changes);
    this.deps.onTick?.({ fps, frame, durationMs: performance.now() - started, changed: changes.length });
  }

  private prepareAll(g: Group, frame: number): ChannelChange[] {
    const now = Math.round(this.deps.time.now());
    const limits = this.deps.limits ?? DEFAULT_SHOW_LIMITS;
    const tick = { frame, now, nowIso: new Date(now).toISOString(), eventId: this.deps.newEventId, limits };
    const changes: ChannelChange[] = [];
    const due = g.pending;
    g.pending = new Set();
    for (const rt of due) {
      try {
        const change = rt.prepare(tick);
        if (change) changes.push(change);
        // A scheduled entry due in the next frames: stay on the clock for it (the wake-up timer may fire early).
        if (dueWithin((change?.live ?? rt.live).schedule, rt.record.fps, frame, 2)) g.pending.add(rt);
      } catch (err) {
        this.deps.onTickError?.(err, { frame, channelId: rt.record.id });
      }
    }
    return changes;
  }

  private async commitAndPublish(g: Group, frame: number, changes: ChannelChange[]): Promise<void> {
    let settle = () => {};
    g.inflight = new Promise<void>((resolve) => (settle = resolve));
    let written: TickWrite;
    try {
      written = await this.deps.committer.commitTick(frame, changes);
    } catch (err) {
      this.deps.onTickError?.(err, { frame });
      this.refuse(changes, err);
      return;
    } finally {
      g.inflight = null;
      settle();
    }
    const kept = this.withoutDeleted(changes, written?.deleted);
    for (const change of kept) this.publish(change);
    if (!written?.durable) return this.acknowledge(frame, kept);
    const flushed = written.durable.then(
      () => this.acknowledge(frame, kept),
      (err: unknown) => this.unconfirmed(frame, kept, err),
    );
    this.flushing.add(flushed);
    void flushed.finally(() => this.flushing.delete(flushed));
  }

  /** Channels the store found deleted were not written (TickCommitter): their ops are answered as after a deletion. */
  private withoutDeleted(changes: ChannelChange[], gone: readonly string[] | undefined): ChannelChange[] {
    if (!gone || gone.length === 0) return changes;
    const ids = new Set(gone);
    for (const c of changes) if (ids.has(c.channelId)) for (const a of c.acks) a.pending.reject(deleted());
    return changes.filter((c) => !ids.has(c.channelId));
  }

  /**
   * A failed write: ops are refused (their callers retry); scene and format changes are tried again. The store's
   * own `unavailable` (a full disk, a read-only one) is passed on as it is: it says what happened.
   */
  private refuse(changes: ChannelChange[], cause: unknown): void {
    const refusal =
      cause instanceof AppError && cause.code === 'unavailable'
        ? cause
        : new AppError('unavailable', 'Storage refused the write; nothing was applied. Retry shortly.', {
            retryAfter: 1,
          });
    for (const c of changes) {
      for (const a of c.acks) a.pending.reject(refusal);
      const rt = this.channels.get(c.channelId);
      if (rt && rt.requeueStructural(c)) this.markPending(rt);
      // Scheduled entries the tick applied are still due (the state was not adopted): woken again, they run next frame.
      if (rt && c.schedule) this.armSchedule(rt);
    }
  }

  /**
   * Written and on air, but the flush to disk failed: the state stays (it is in the store and on every
   * renderer) but nobody is told it is safe.
   */
  private unconfirmed(frame: number, changes: ChannelChange[], err: unknown): void {
    this.deps.onTickError?.(err, { frame });
    const refusal = new AppError('unavailable', 'Storage could not confirm the write is on disk. Retry shortly.', {
      retryAfter: 1,
    });
    for (const c of changes) for (const a of c.acks) a.pending.reject(refusal);
  }

  private acknowledge(frame: number, changes: ChannelChange[]): void {
    for (const change of changes) for (const a of change.acks) a.pending.resolve(opResult(change, a));
    const events = changes.flatMap((c) => c.events);
    if (events.length > 0) this.safely(frame, () => this.deps.onEvents?.(events));
  }

  private publish(change: ChannelChange): void {
    const rt = this.channels.get(change.channelId);
    const before = rt?.live ?? change.live;
    if (rt) rt.adopt(change);
    if (rt && change.schedule) this.armSchedule(rt);
    const asRun = change.asRun;
    if (asRun) this.safely(change.frame, () => this.deps.onAsRun?.(change.channelId, asRun));
    if (change.visible === false) return;
    this.safely(change.frame, () => {
      const message = toFrameMessage(change, this.deps.time.now());
      const buses = busesFrame(message, before, change.live, (id) => rt?.sceneView(id));
      this.send(change.channelId, encodeFrame(message, buses), change.frame);
    });
  }

  /** Publishes on the channel's topic; a broker that cannot send it on (a remote one down) is reported, not thrown. */
  private send(channelId: string, payload: Uint8Array, frame: number): void {
    this.deps.broker.publish(channelId, payload).catch((err: unknown) => {
      this.deps.onTickError?.(err, { frame, channelId });
    });
  }

  private safely(frame: number, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.deps.onTickError?.(err, { frame });
    }
  }
}
