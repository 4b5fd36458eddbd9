/**
 * What the rest of the server knows of the engine: the `Engine` interface (reads, writes, lifecycle) and the ports
 * an engine is built with. The API, the transport, the operations and the webhooks depend on this interface only.
 *
 * One node runs a FrameEngine (./frame-engine.ts), the frame-clocked engine itself. Several nodes
 * (docs/architecture/several-nodes.md) run the same FrameEngine wrapped by src/cluster/cluster-engine.ts, which
 * implements this interface too (ops forwarded to the channel's owner, structural writes announced to the other
 * nodes): callers never know which one they hold.
 */
import type { PreviewEntry, ProgramEntry, Rundown, SceneScope, ScheduledOp, SnapshotMessage } from '@onair/protocol';
import type { AsRunChange } from './as-run.js';
import type { Broker } from './broker.js';
import type { SceneOnBus } from './buses.js';
import type { ChannelChange } from './channel-change.js';
import type { ShowLimits } from './draft.js';
import type { EngineEvent } from './events.js';
import type { FrameRate } from './frame-rate.js';
import type { InputRegistry } from './input-registry.js';
import type { ChannelRecord, SceneRecord, StoredChannel } from './model.js';
import type { Op, OpResult } from './ops.js';
import type { ChannelState } from './snapshot.js';
import type { TimeSource } from './time-source.js';

/**
 * Writes one tick's changes: all of them or none, throwing (or rejecting) when nothing was written. When it
 * returns (or its promise resolves) the write is ordered before every later tick's and survives a crash of
 * the process; `durable`, if given, settles when it also survives a power cut (a store that flushes before
 * returning gives nothing). Calls never overlap: the engine waits for one to return before the next.
 *
 * One exception to "all or none": a channel deleted from the store before the tick was written (by another node,
 * several nodes only) is left out of the write and named in `deleted`; the engine refuses that channel's ops with
 * `not_found`, as if the deletion had come first, and commits the others.
 */
export interface TickCommitter {
  commitTick(frame: number, changes: readonly ChannelChange[]): TickWrite | Promise<TickWrite>;
}

/** What a written tick still owes (`durable`: undefined when it is durable already), and what it left out. */
export type TickWrite = { durable?: Promise<void>; deleted?: readonly string[] } | void;

/**
 * Where channels are ticked. One node ticks every channel it holds (the default); with several nodes, each node holds
 * every channel but ticks only the ones it owns (src/cluster/ownership.ts). Asked whenever a channel gets work: a
 * channel it says no to is never ticked here, whatever is queued or changed on it.
 */
export interface Placement {
  ticks(channelId: string): boolean;
}

/** Every channel ticked here: one node. */
export const EVERYWHERE: Placement = { ticks: () => true };

export interface EngineDeps {
  time: TimeSource;
  committer: TickCommitter;
  broker: Broker;
  /**
   * A new event id (`evt_…`), sortable by creation: events get theirs when the tick is prepared, so they are
   * written in the same transaction as the change that caused them.
   */
  newEventId: () => string;
  /** Which channels this engine ticks. Default: every one (EVERYWHERE). */
  placement?: Placement;
  /**
   * When in each frame the clocks tick, as a fraction of the frame in [0, 1): frame numbers are unchanged, only the
   * moment moves (./frame-clock.ts). Several nodes on one machine get different phases so they do not all wake at
   * once. Default 0: at the start of each frame.
   */
  clockPhase?: number;
  /** Limits of each channel's rundowns, schedule and history. Default: DEFAULT_SHOW_LIMITS (./draft.ts). */
  limits?: ShowLimits;
  /** A tick's events, in order, once the tick is durable (after they are stored). */
  onEvents?: (events: EngineEvent[]) => void;
  /**
   * A channel's as-run lines (./as-run.ts) once its tick is written, as its frame is sent to renderers: readers of
   * the store see them already, though the write may not be durable yet.
   */
  onAsRun?: (channelId: string, asRun: AsRunChange) => void;
  /** Something went wrong inside a tick (already contained); for logs and metrics. */
  onTickError?: (err: unknown, context: { frame: number; channelId?: string }) => void;
  onTick?: (info: { fps: FrameRate; frame: number; durationMs: number; changed: number }) => void;
}

/** The buses and the last sent frame of a channel, as of the last tick (shared with the engine: never change them). */
export interface OnAir {
  frame: number;
  fps: FrameRate;
  program: readonly ProgramEntry[];
  preview: readonly PreviewEntry[];
}

/** Clock statistics of one frame rate. */
export interface ClockStats {
  fps: FrameRate;
  ticks: number;
  lateTicks: number;
  skippedFrames: number;
}

/**
 * The engine as the server uses it. Reads answer from memory, at once, as of the last tick (and throw AppError
 * `not_found` for a channel the engine does not hold). Writes of structure (channels, scenes) are made after the
 * store has them, and reach renderers in the channel's next frame; ops are queued and applied in a tick.
 */
export interface Engine {
  /** Puts stored channels in, before start(). */
  load(stored: Iterable<StoredChannel>): void;
  /** Starts ticking (several nodes: also joins the other nodes; resolves once this node takes part). */
  start(): void | Promise<void>;
  /** Stops after one last tick per frame rate: whatever is queued is applied or answered, never left hanging. */
  stop(): Promise<void>;

  channelCount(): number;
  /** Every channel this node holds (one node: every channel; several: every channel too, owned or followed). */
  channelIds(): string[];
  /**
   * Calls `listener` with each channel added from now on (created here, or announced by another node), once it can
   * be read; returns what stops the calls. What follows every channel (`channels=*` sockets) learns of new ones here.
   */
  onChannelAdded(listener: (channelId: string) => void): () => void;
  has(channelId: string): boolean;
  /**
   * Whether this node ticks the channel now (it holds it, and its placement says so): what a node does for a
   * channel by itself, such as polling its data sources, it does only while this is true. One node: every channel.
   */
  ticks(channelId: string): boolean;
  channelRecord(channelId: string): ChannelRecord;
  /** The inputs the channel's scenes declare, for validating a patch before it is queued. */
  registry(channelId: string): InputRegistry;
  scenes(channelId: string): SceneRecord[];
  /** Where the scene is on program and preview (each bus and layer), as of the last tick. */
  sceneBuses(channelId: string, sceneId: string): SceneOnBus[];
  /** Throws conflict when the scene's inputs clash with the channel's; call before persisting. */
  checkScene(scene: SceneRecord): void;
  /** Operations waiting for the channel's next tick here (for metrics and tests: what one tick will apply). */
  queuedOps(channelId: string): number;
  /** `scope`: which scene definitions it carries (engine/scene-scope.ts). */
  snapshot(channelId: string, scope?: SceneScope): SnapshotMessage;
  state(channelId: string): ChannelState;
  /** The buses and last sent frame, without building a state (no copies): for reads many times a second. */
  onAir(channelId: string): OnAir;
  /** The channel's rundowns (creation order) and schedule (soonest first), as of the last tick. */
  show(channelId: string): { rundowns: Rundown[]; schedule: ScheduledOp[] };
  /** Clock statistics per frame rate, for metrics. */
  clockStats(): ClockStats[];

  /**
   * Applies an operation in the channel's next tick; resolves once that tick is durable, with what it did. Rejects
   * with the op's own refusal (AppError), or `unavailable` when it could not be applied (storage refused the write,
   * the server is stopping, no node ticks the channel right now): the caller may retry.
   */
  submit(channelId: string, op: Op): Promise<OpResult>;
  /** A channel just stored; `frame`: the frame it starts from (the store's). */
  addChannel(record: ChannelRecord, frame?: number): void;
  /** A channel's record just stored: a new frame rate or size reaches renderers, a new output token closes old ones. */
  updateChannel(record: ChannelRecord): void;
  /** A channel just deleted: its queued ops are refused `not_found` and its connections closed. */
  removeChannel(channelId: string): void;
  upsertScene(scene: SceneRecord): void;
  removeScene(channelId: string, sceneId: string): void;
}

/**
 * An Engine that passes every call on to `inner`: a decorator spreads it and replaces the calls it changes
 * (`{ ...passThrough(inner), submit }`), so a method added to Engine needs no change in the decorators.
 */
export function passThrough(inner: Engine): Engine {
  return {
    load: (stored) => inner.load(stored),
    start: () => inner.start(),
    stop: () => inner.stop(),
    channelCount: () => inner.channelCount(),
    channelIds: () => inner.channelIds(),
    onChannelAdded: (listener) => inner.onChannelAdded(listener),
    has: (channelId) => inner.has(channelId),
    ticks: (channelId) => inner.ticks(channelId),
    channelRecord: (channelId) => inner.channelRecord(channelId),
    registry: (channelId) => inner.registry(channelId),
    scenes: (channelId) => inner.scenes(channelId),
    sceneBuses: (channelId, sceneId) => inner.sceneBuses(channelId, sceneId),
    checkScene: (scene) => inner.checkScene(scene),
    queuedOps: (channelId) => inner.queuedOps(channelId),
    snapshot: (channelId, scope) => inner.snapshot(channelId, scope),
    state: (channelId) => inner.state(channelId),
    onAir: (channelId) => inner.onAir(channelId),
    show: (channelId) => inner.show(channelId),
    clockStats: () => inner.clockStats(),
    submit: (channelId, op) => inner.submit(channelId, op),
    addChannel: (record, frame) => inner.addChannel(record, frame),
    updateChannel: (record) => inner.updateChannel(record),
    removeChannel: (channelId) => inner.removeChannel(channelId),
    upsertScene: (scene) => inner.upsertScene(scene),
    removeScene: (channelId, sceneId) => inner.removeScene(channelId, sceneId),
  };
}
