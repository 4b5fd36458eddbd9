/**
 * Messages of the real-time WebSocket (docs/api.md, "Real-time WebSocket"), as the server writes them and the
 * output page, the dashboard and the SDK read them.
 *
 * Ordering guarantee: on one connection, frames arrive in increasing `frame` order and each frame's
 * `prev` is the frame number of the previous message sent for this channel. A client that sees
 * `prev` differ from the last frame it applied has missed something and asks for a `resync`.
 */
import type { OutputsMessage, PaintedMessage } from './outputs.js';
import type { Rundown, RundownItem, ScheduledOp } from './rundown.js';
import type { ClockAction, ClockState, InputValue, SceneView } from './scene.js';
import type { SourceSummary, SourcesMessage } from './sources.js';

/**
 * A scene instance on a bus: the scene, and the values that belong to this instance (its item-scoped inputs:
 * a name, a title), set when it was cued or cut, from a rundown item or given directly. What an instance draws for an
 * input is its own value, else the channel's, else the scene's default (instanceValue).
 */
export interface BusEntry {
  sceneId: string;
  layer: number;
  /** The rundown item it was cued from; null when it was cued by scene. */
  itemId: string | null;
  /** The instance's own values (item-scoped inputs only); `{}` when it has none. */
  values: Record<string, InputValue>;
  /** Graphic scenes on program: the step the graphic is on (0 at take, +1 per `continue`); absent otherwise. */
  step?: number;
}

/** A scene on air on one layer. */
export interface ProgramEntry extends BusEntry {
  /** ISO 8601 time at which the scene went to air. */
  since: string;
}

/** A scene cued in preview on one layer. */
export type PreviewEntry = BusEntry;

/** A trigger that fired in this frame: renderers drawing the scene play it once. */
export interface FiredTrigger {
  name: string;
  sceneId: string;
  /** Server epoch milliseconds when it fired (the frame's time). */
  at: number;
  /** What the trigger was fired with (a graphic's custom action argument); absent when none. */
  payload?: unknown;
}

export interface SnapshotMessage {
  type: 'snapshot';
  channelId: string;
  frame: number;
  /** Server epoch milliseconds when the message was built. */
  serverTime: number;
  fps: number;
  width: number;
  height: number;
  /** What is on air, one entry per layer, sorted by layer. */
  program: ProgramEntry[];
  preview: PreviewEntry[];
  /**
   * Scene definitions: by default only the scenes on program or preview (what a renderer draws); every scene of
   * the channel for a connection opened with `scenes=all` (docs/api.md, "Connecting").
   */
  scenes: SceneView[];
  /** Effective value of every declared input (defaults filled in); clocks are in `clocks`. */
  inputs: Record<string, InputValue>;
  /** State of every declared clock input. */
  clocks: Record<string, ClockState>;
  /** `scenes=all` connections only (the dashboard): the channel's rundowns, in creation order. */
  rundowns?: Rundown[];
  /** `scenes=all` connections only: what is scheduled, soonest first. */
  schedule?: ScheduledOp[];
}

/** Only what changed in this frame; a key that is absent did not change. */
export interface FrameMessage {
  type: 'frame';
  channelId: string;
  frame: number;
  /** Frame number of the previous snapshot/frame this channel sent. */
  prev: number;
  serverTime: number;
  inputs?: Record<string, InputValue>;
  /** Inputs no scene declares any more. */
  removedInputs?: string[];
  /** The whole program bus, when it changed. A layer whose scene changed animates (its `out`, then `in`)... */
  program?: ProgramEntry[];
  /** ...unless the layer is listed here: a cut, drawn at once. */
  cutLayers?: number[];
  preview?: PreviewEntry[];
  /**
   * Scenes added or changed (an on-air scene whose definition changed is redrawn, without a transition). By default:
   * scenes that came onto a bus in this frame, and on-bus scenes that changed. With `scenes=all`: every added or
   * changed scene.
   */
  scenes?: SceneView[];
  /** Scenes deleted; by default also scenes that left both buses (the client may forget their definitions). */
  removedScenes?: string[];
  clocks?: Record<string, ClockState>;
  removedClocks?: string[];
  triggers?: FiredTrigger[];
  /** `scenes=all` connections only: rundowns created or changed (each whole: items, focus, item states). */
  rundowns?: Rundown[];
  removedRundowns?: string[];
  /** `scenes=all` connections only: the whole schedule, when it changed. */
  schedule?: ScheduledOp[];
  fps?: number;
  width?: number;
  height?: number;
}

export interface AckMessage {
  type: 'ack';
  id: string;
  /** On a connection following several channels (`channels=`): the channel the op ran on. */
  channelId?: string;
  frame: number;
  /** For a clock op: the clock's state after it. */
  clock?: ClockState;
  /** For a rundown op: the rundown after it (item states as of the tick). */
  rundown?: Rundown;
  /** For an item op: the item after it. */
  item?: RundownItem;
  /** For `schedule.add`: the entry. */
  scheduled?: ScheduledOp;
  /** For `source.refresh` and `source.row`: the source after it. */
  source?: SourceSummary;
}

export interface ErrorMessage {
  type: 'error';
  id: string | null;
  /** On a connection following several channels: the channel the refused op named, when it named one. */
  channelId?: string;
  code: string;
  detail: string;
}

/**
 * Sent to every connection every HEARTBEAT_INTERVAL_MS. Browsers cannot see WebSocket pings, so this is
 * how a page notices a half-open line on a quiet channel: silence for HEARTBEAT_DEAD_AFTER_MS means
 * reconnect. Its serverTime also keeps the page's estimate of the server's clock fresh.
 */
export interface HeartbeatMessage {
  type: 'heartbeat';
  serverTime: number;
}

export const HEARTBEAT_INTERVAL_MS = 5_000;
export const HEARTBEAT_DEAD_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;

/**
 * On a connection following several channels (`channels=`): the channel is no longer followed (deleted, or no longer
 * visible to the credential). Nothing more comes for it; a client forgets its state.
 */
export interface ChannelRemovedMessage {
  type: 'channel_removed';
  channelId: string;
}

/** Which scene definitions a connection gets: those on the buses (the default), or every scene of the channel. */
export type SceneScope = 'buses' | 'all';
export const SCENE_SCOPES: readonly SceneScope[] = ['buses', 'all'];

/** `outputs` (./outputs.ts) and `sources` (./sources.ts) go to key and session connections only, never to output pages. */
export type ServerMessage =
  | SnapshotMessage
  | FrameMessage
  | AckMessage
  | ErrorMessage
  | HeartbeatMessage
  | OutputsMessage
  | SourcesMessage
  | ChannelRemovedMessage;

/**
 * An operation a client asks for, before it gets the `id` its ack or error answers to (docs/api.md, "Operations over
 * the socket"): the REST operations under the same names, with the same bodies. `cue` puts a scene on the preview bus,
 * `cut` straight on the program bus; `preview` and `program` are their older names, still accepted.
 */
export type ClientOp =
  | { op: 'patch'; inputs: Record<string, InputValue> }
  | { op: 'cue' | 'preview'; sceneId: string; values?: Record<string, InputValue> }
  | { op: 'cue' | 'preview'; itemId: string }
  | { op: 'cut' | 'program'; sceneId: string; values?: Record<string, InputValue> }
  | { op: 'cut' | 'program'; itemId: string }
  | { op: 'take'; layer?: number }
  | { op: 'clear'; layer?: number; sceneId?: string }
  | { op: 'update'; layer?: number; sceneId?: string; values: Record<string, InputValue> }
  | { op: 'continue'; layer?: number; step?: number }
  | { op: 'trigger'; name: string; payload?: unknown; layer?: number }
  | { op: 'clock'; name: string; action: ClockAction; ms?: number; period?: number }
  | { op: 'undo' | 'redo' }
  | { op: 'rundown.create'; name: string }
  | { op: 'rundown.rename'; rundownId: string; name: string; version: number }
  | { op: 'rundown.delete'; rundownId: string }
  | {
      op: 'rundown.item_add';
      rundownId: string;
      sceneId: string;
      values?: Record<string, InputValue>;
      label?: string;
      notes?: string;
      durationMs?: number | null;
      position?: number;
    }
  | {
      op: 'rundown.item_edit';
      rundownId: string;
      itemId: string;
      version: number;
      sceneId?: string;
      values?: Record<string, InputValue>;
      label?: string;
      notes?: string;
      durationMs?: number | null;
      position?: number;
    }
  | { op: 'rundown.item_duplicate' | 'rundown.item_delete'; rundownId: string; itemId: string }
  | { op: 'rundown.focus'; rundownId: string; itemId: string }
  | { op: 'rundown.focus'; rundownId: string; move: 'next' | 'previous' | 'first' | 'last' }
  | { op: 'rundown.cue'; rundownId: string; itemId?: string }
  | { op: 'rundown.play_next'; rundownId: string }
  | { op: 'rundown.stop'; rundownId: string; itemId?: string }
  | { op: 'source.refresh'; sourceId: string }
  | { op: 'source.row'; sourceId: string; move: 'next' | 'previous' | 'first' }
  | { op: 'source.row'; sourceId: string; number: number };

/**
 * `painted` (./outputs.ts) is an output page's report: output-token connections only, never answered. On a connection
 * following several channels every op and `resync` names its channel (`channelId`); on a one-channel connection
 * `channelId` may be left out (given, it must be the connection's channel).
 */
export type ClientMessage =
  { op: 'resync'; channelId?: string } | PaintedMessage | (ClientOp & { id: string; channelId?: string });

/** The subprotocol the server answers with; a client offers it with `bearer.<key>` where headers cannot be set. */
export const SUBPROTOCOL = 'onair.v1';
