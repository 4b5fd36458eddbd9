/**
 * What one tick changed on one channel: what the store persists (in the tick's one transaction, events
 * included) and what renderers are sent (as one frame message).
 */
import type {
  ClockState,
  FiredTrigger,
  FrameMessage,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  Rundown,
  SceneView,
  ScheduledOp,
} from '@onair/protocol';
import type { AsRunChange } from './as-run.js';
import type { HistoryRecord } from './history.js';
import type { EngineEvent } from './events.js';
import type { InputRegistry } from './input-registry.js';
import type { LiveState } from './model.js';
import type { OpResult, PendingOp } from './ops.js';

export interface ChannelChange {
  channelId: string;
  orgId: string;
  frame: number;
  prev: number;
  /** Effective values of inputs that changed (defaults resolved). */
  inputs: Map<string, InputValue>;
  /** Explicit values to persist: a value, or null to return to the default (or forget an input). */
  setValues: Map<string, InputValue>;
  /** Inputs no scene declares any more. */
  removedInputs?: string[];
  /** Clock states to persist: the new state, or null to forget a clock no scene declares any more. */
  setClocks?: Map<string, ClockState | null>;
  /** Clocks renderers must redraw, settled at the tick's time. */
  clocks?: Map<string, ClockState>;
  removedClocks?: string[];
  /** The whole bus, when it changed. */
  program?: ProgramEntry[];
  /** Layers of `program` that changed by a cut (drawn at once, no transition). */
  cutLayers?: number[];
  preview?: PreviewEntry[];
  triggers?: FiredTrigger[];
  scenes?: SceneView[];
  removedScenes?: string[];
  /** The channel's inputs once this change is published (set when scenes changed). */
  registry?: InputRegistry;
  meta?: { fps: number; width: number; height: number };
  live: LiveState;
  /** Rundowns created or changed (each whole), and deleted ones: persisted, and sent to `scenes=all` connections. */
  rundowns?: Map<string, Rundown>;
  removedRundowns?: Set<string>;
  /** The whole schedule, when it changed. */
  schedule?: readonly ScheduledOp[];
  /** History entries added (or, for one coalesced in the same tick, replaced) and pruned. */
  historyAdded?: Map<string, HistoryRecord>;
  historyRemoved?: Set<string>;
  /** False when the tick only answered ops that changed nothing: committed, but not sent to renderers. */
  visible?: boolean;
  /** In the order they happened; written with the change, in the same transaction. */
  events: EngineEvent[];
  /** The as-run lines program's moves make (./as-run.ts); written with the change, in the same transaction. */
  asRun?: AsRunChange;
  acks: {
    pending: PendingOp;
    applied?: Record<string, InputValue>;
    clock?: ClockState;
    scheduled?: ScheduledOp;
    rundownId?: string;
    itemId?: string;
  }[];
}

/** The frame message renderers get for a change. */
export function toFrameMessage(change: ChannelChange, now: number): FrameMessage {
  const msg: FrameMessage = {
    type: 'frame',
    channelId: change.channelId,
    frame: change.frame,
    prev: change.prev,
    serverTime: Math.round(now),
  };
  if (change.inputs.size > 0) msg.inputs = Object.fromEntries(change.inputs);
  if (change.removedInputs) msg.removedInputs = change.removedInputs;
  if (change.program !== undefined) msg.program = change.program;
  if (change.cutLayers) msg.cutLayers = change.cutLayers;
  if (change.preview !== undefined) msg.preview = change.preview;
  if (change.scenes) msg.scenes = change.scenes;
  if (change.removedScenes) msg.removedScenes = change.removedScenes;
  if (change.clocks && change.clocks.size > 0) msg.clocks = Object.fromEntries(change.clocks);
  if (change.removedClocks) msg.removedClocks = change.removedClocks;
  if (change.triggers) msg.triggers = change.triggers;
  if (change.rundowns && change.rundowns.size > 0) msg.rundowns = [...change.rundowns.values()];
  if (change.removedRundowns && change.removedRundowns.size > 0) msg.removedRundowns = [...change.removedRundowns];
  if (change.schedule) msg.schedule = [...change.schedule];
  if (change.meta) Object.assign(msg, change.meta);
  return msg;
}

/** What an op is answered with, once its tick is durable. */
export function opResult(change: ChannelChange, ack: ChannelChange['acks'][number]): OpResult {
  const result: OpResult = { frame: change.frame };
  if (ack.applied) result.applied = ack.applied;
  if (ack.clock) result.clock = ack.clock;
  if (ack.scheduled) result.scheduled = ack.scheduled;
  if (ack.rundownId !== undefined) {
    const rundown = change.live.rundowns.get(ack.rundownId);
    if (rundown) result.rundown = rundown;
    const item = ack.itemId === undefined ? undefined : rundown?.items.find((i) => i.id === ack.itemId);
    if (item) result.item = item;
  }
  return result;
}
