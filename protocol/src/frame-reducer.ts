/**
 * The channel as a client knows it from the real-time WebSocket, and the pure steps that move it forward
 * (docs/api.md, "Server messages", "Ordering and resync"): a snapshot replaces everything; a frame applies only
 * when its `prev` is the last frame applied, its absent keys unchanged; anything else is a gap, and only a new
 * snapshot repairs it. Every step answers a new object and never changes the one it was given, so a listener may
 * keep the state it got. The output page, the dashboard and the SDK wrap these steps with what they need besides
 * (whether they are in sync, an estimate of the server's clock, what to animate).
 */
import type { FrameMessage, PreviewEntry, ProgramEntry, SnapshotMessage } from './messages.js';
import type { Rundown, ScheduledOp } from './rundown.js';
import type { ClockState, InputValue, SceneView } from './scene.js';

export interface LiveState {
  channelId: string;
  /** The last snapshot or frame applied (-1 before the first snapshot). */
  frame: number;
  /** Server epoch milliseconds of that message. */
  serverTime: number;
  fps: number;
  width: number;
  height: number;
  /** What is on air: one entry per layer, sorted by layer. */
  program: ProgramEntry[];
  /** What is cued: one entry per layer, sorted by layer. */
  preview: PreviewEntry[];
  /** The scenes the connection was sent (on the buses, or every scene with `scenes=all`), by id. */
  scenes: Record<string, SceneView>;
  /** The effective value of every declared input but clocks. */
  inputs: Record<string, InputValue>;
  /** Every declared clock: `ms` at server time `at`, moving while `running`. */
  clocks: Record<string, ClockState>;
  /** `scenes=all` connections only: the channel's rundowns, by id ({} otherwise). */
  rundowns: Record<string, Rundown>;
  /** `scenes=all` connections only: what is scheduled, soonest first ([] otherwise). */
  schedule: ScheduledOp[];
}

/** What a client shows before its first snapshot: nothing, on a stage of the default size. */
export function emptyLiveState(): LiveState {
  return {
    channelId: '',
    frame: -1,
    serverTime: 0,
    fps: 0,
    width: 1920,
    height: 1080,
    program: [],
    preview: [],
    scenes: {},
    inputs: {},
    clocks: {},
    rundowns: {},
    schedule: [],
  };
}

export function stateFromSnapshot(msg: SnapshotMessage): LiveState {
  return {
    channelId: msg.channelId,
    frame: msg.frame,
    serverTime: msg.serverTime,
    fps: msg.fps,
    width: msg.width,
    height: msg.height,
    program: byLayer(msg.program),
    preview: byLayer(msg.preview),
    scenes: byId(msg.scenes),
    inputs: plainRecord(msg.inputs),
    clocks: plainRecord(msg.clocks),
    rundowns: byId(msg.rundowns),
    schedule: [...(msg.schedule ?? [])],
  };
}

/**
 * The state after a frame, or `gap` when the frame does not follow the last one applied. A state with more to it
 * (a client's own fields) keeps them.
 */
export function applyFrame<S extends LiveState>(state: S, msg: FrameMessage): S | 'gap' {
  if (msg.prev !== state.frame) return 'gap';
  const next: S = { ...state, frame: msg.frame, serverTime: msg.serverTime };
  if (msg.inputs || msg.removedInputs) next.inputs = merged(state.inputs, msg.inputs, msg.removedInputs);
  if (msg.clocks || msg.removedClocks) next.clocks = merged(state.clocks, msg.clocks, msg.removedClocks);
  if (msg.program !== undefined) next.program = byLayer(msg.program);
  if (msg.preview !== undefined) next.preview = byLayer(msg.preview);
  if (msg.scenes || msg.removedScenes) next.scenes = merged(state.scenes, byId(msg.scenes), msg.removedScenes);
  if (msg.rundowns || msg.removedRundowns) {
    next.rundowns = merged(state.rundowns, byId(msg.rundowns), msg.removedRundowns);
  }
  if (msg.schedule !== undefined) next.schedule = [...msg.schedule];
  if (msg.fps !== undefined) next.fps = msg.fps;
  if (msg.width !== undefined) next.width = msg.width;
  if (msg.height !== undefined) next.height = msg.height;
  return next;
}

/** A copy with `removed` gone and `upserts` set, without a prototype: no name (`__proto__`) is special. */
function merged<T>(
  current: Readonly<Record<string, T>>,
  upserts: Readonly<Record<string, T>> | undefined,
  removed: readonly string[] | undefined,
): Record<string, T> {
  const next = plainRecord(current);
  for (const name of removed ?? []) delete next[name];
  for (const [name, value] of Object.entries(upserts ?? {})) next[name] = value;
  return next;
}

function byId<T extends { id: string }>(records: readonly T[] | undefined): Record<string, T> {
  const out = plainRecord<T>({});
  for (const record of records ?? []) out[record.id] = record;
  return out;
}

function plainRecord<T>(from: Readonly<Record<string, T>>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [name, value] of Object.entries(from)) out[name] = value;
  return out;
}

function byLayer<T extends { layer: number }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => a.layer - b.layer);
}
