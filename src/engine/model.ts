/**
 * The records the engine holds in memory and hands to persistence. Plain data, no behaviour.
 */
import type { FrameRate } from './frame-rate.js';
import type {
  ClockState,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  Rundown,
  SceneDefinition,
  ScheduledOp,
} from '@onair/protocol';
import type { HistoryRecord } from './history.js';

export interface ChannelRecord {
  id: string;
  orgId: string;
  name: string;
  fps: FrameRate;
  width: number;
  height: number;
  outputToken: string;
  createdAt: string;
  updatedAt: string;
}

export interface SceneRecord {
  id: string;
  channelId: string;
  name: string;
  definition: SceneDefinition;
  createdAt: string;
  updatedAt: string;
}

/** The durable live state of a channel: what the tick changes. */
export interface LiveState {
  /** Values explicitly set (inputs at their default are absent). */
  values: Map<string, Exclude<InputValue, null>>;
  /** State of clock inputs that were ever driven (others are at their default, stopped). */
  clocks: Map<string, ClockState>;
  /** One entry per layer, sorted by layer. */
  program: ProgramEntry[];
  preview: PreviewEntry[];
  /** The channel's rundowns by id, in creation order. Replaced, never changed in place. */
  rundowns: ReadonlyMap<string, Rundown>;
  /** What is scheduled, soonest first. Replaced, never changed in place. */
  schedule: readonly ScheduledOp[];
  /** Recorded on-air actions, oldest first (each actor's last few: ./history.ts). Replaced, never changed in place. */
  history: readonly HistoryRecord[];
  /** Frame of the last change sent to renderers. */
  frame: number;
  updatedAt: string;
}

/** Everything needed to bring a channel back after a restart. */
export interface StoredChannel {
  channel: ChannelRecord;
  scenes: SceneRecord[];
  live: LiveState;
}

/**
 * Where a change came in: the API, the dashboard, an incoming hook, a data source, or the server's own schedule; an
 * event the server raised watching its output pages (docs/outputs.md) says `output`.
 */
export type ChangeSource = 'api' | 'dashboard' | 'incoming_webhook' | 'data_source' | 'schedule' | 'output';
