/**
 * The channel as this page knows it, and the pure reducer that moves it forward from wire messages.
 * No DOM here: the stage reads this state, the unit tests drive it in Node.
 *
 * What happens once (a layer's scene changing by a frame, a fired trigger) is not state: the reducer
 * reports it as effects for the stage to play, so a snapshot, which carries none, can never replay it.
 */
import type {
  ClockState,
  FiredTrigger,
  FrameMessage,
  HeartbeatMessage,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  SceneView,
  SnapshotMessage,
} from '../../src/protocol/index.js';
import { addSample, emptyServerClock, serverOffset, type ServerClock } from './server-clock.js';
import { noEffects, type Effects, type LayerChange } from './effects.js';

export interface ChannelState {
  /** False until the first snapshot; nothing may be drawn before it. Never goes back to false. */
  loaded: boolean;
  /** False after a gap or a lost connection until the next snapshot; frames are ignored meanwhile. */
  synced: boolean;
  channelId: string;
  /** Number of the last snapshot or frame applied (-1 before the first snapshot). */
  frame: number;
  fps: number;
  width: number;
  height: number;
  /** One entry per layer, sorted by layer. */
  program: readonly ProgramEntry[];
  preview: readonly PreviewEntry[];
  scenes: Readonly<Record<string, SceneView>>;
  inputs: Readonly<Record<string, InputValue>>;
  clocks: Readonly<Record<string, ClockState>>;
  serverClock: ServerClock;
  /** Estimated server clock minus local clock, in ms: serverNow = Date.now() + serverOffsetMs. */
  serverOffsetMs: number;
}

/** `gap` means the caller must ask the server for a resync; `ignored` changes nothing. */
export type ApplyOutcome = 'applied' | 'gap' | 'ignored';

export interface ApplyResult {
  state: ChannelState;
  outcome: ApplyOutcome;
  effects: Effects;
}

export function initialState(): ChannelState {
  return {
    loaded: false,
    synced: false,
    channelId: '',
    frame: -1,
    fps: 0,
    width: 1920,
    height: 1080,
    program: [],
    preview: [],
    scenes: {},
    inputs: {},
    clocks: {},
    serverClock: emptyServerClock(),
    serverOffsetMs: 0,
  };
}

/**
 * A snapshot replaces everything, whatever came before: it is the only way back into sync. It may come
 * from another server process, so the clock estimate starts over from it.
 */
export function applySnapshot(_state: ChannelState, msg: SnapshotMessage, receivedAt: number): ChannelState {
  const scenes: Record<string, SceneView> = {};
  for (const scene of msg.scenes) scenes[scene.id] = scene;
  const serverClock = addSample(emptyServerClock(), msg.serverTime, receivedAt);
  return {
    loaded: true,
    synced: true,
    channelId: msg.channelId,
    frame: msg.frame,
    fps: msg.fps,
    width: msg.width,
    height: msg.height,
    program: sortByLayer(msg.program),
    preview: sortByLayer(msg.preview),
    scenes,
    inputs: { ...msg.inputs },
    clocks: { ...msg.clocks },
    serverClock,
    serverOffsetMs: serverOffset(serverClock),
  };
}

export function applyFrame(state: ChannelState, msg: FrameMessage, receivedAt: number): ApplyResult {
  if (!state.synced || msg.channelId !== state.channelId) return { state, outcome: 'ignored', effects: noEffects() };
  if (msg.prev !== state.frame) return { state: { ...state, synced: false }, outcome: 'gap', effects: noEffects() };
  const next: ChannelState = { ...withSample(state, msg.serverTime, receivedAt), frame: msg.frame };
  if (msg.inputs || msg.removedInputs) next.inputs = merged(state.inputs, msg.inputs, msg.removedInputs);
  if (msg.clocks || msg.removedClocks) next.clocks = merged(state.clocks, msg.clocks, msg.removedClocks);
  if (msg.program !== undefined) next.program = sortByLayer(msg.program);
  if (msg.preview !== undefined) next.preview = sortByLayer(msg.preview);
  if (msg.scenes || msg.removedScenes) next.scenes = merged(state.scenes, byId(msg.scenes), msg.removedScenes);
  if (msg.fps !== undefined) next.fps = msg.fps;
  if (msg.width !== undefined) next.width = msg.width;
  if (msg.height !== undefined) next.height = msg.height;
  const effects: Effects = {
    settle: false,
    layers: msg.program === undefined ? [] : programChanges(state.program, next.program, msg),
    triggers: msg.triggers ?? [],
  };
  return { state: next, outcome: 'applied', effects };
}

/** Heartbeats carry nothing but the time; they keep the clock estimate fresh on a quiet channel. */
export function applyHeartbeat(state: ChannelState, msg: HeartbeatMessage, receivedAt: number): ChannelState {
  return state.loaded ? withSample(state, msg.serverTime, receivedAt) : state;
}

function withSample(state: ChannelState, serverTime: number, receivedAt: number): ChannelState {
  const serverClock = addSample(state.serverClock, serverTime, receivedAt);
  return serverClock === state.serverClock
    ? state
    : { ...state, serverClock, serverOffsetMs: serverOffset(serverClock) };
}

/** Each layer whose scene changed: animated, unless the frame lists it as a cut. */
function programChanges(
  before: readonly ProgramEntry[],
  after: readonly ProgramEntry[],
  msg: FrameMessage,
): LayerChange[] {
  const was = new Map(before.map((e) => [e.layer, e.sceneId]));
  const now = new Map(after.map((e) => [e.layer, e.sceneId]));
  const layers = new Set([...was.keys(), ...now.keys()]);
  const cuts = new Set(msg.cutLayers ?? []);
  const changes: LayerChange[] = [];
  for (const layer of [...layers].sort((a, b) => a - b)) {
    if (was.get(layer) === now.get(layer)) continue;
    changes.push({ layer, mode: cuts.has(layer) ? 'cut' : 'animate', at: msg.serverTime });
  }
  return changes;
}

function merged<T>(
  current: Readonly<Record<string, T>>,
  upserts: Readonly<Record<string, T>> | undefined,
  removed: readonly string[] | undefined,
): Record<string, T> {
  const next: Record<string, T> = { ...current };
  for (const name of removed ?? []) delete next[name];
  if (upserts) Object.assign(next, upserts);
  return next;
}

function byId(scenes: readonly SceneView[] | undefined): Record<string, SceneView> | undefined {
  if (!scenes) return undefined;
  const out: Record<string, SceneView> = {};
  for (const scene of scenes) out[scene.id] = scene;
  return out;
}

function sortByLayer<T extends { layer: number }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => a.layer - b.layer);
}

/** After a lost connection anything may have been missed: wait for the next snapshot. */
export function markDisconnected(state: ChannelState): ChannelState {
  return state.synced ? { ...state, synced: false } : state;
}

export function applyMessage(
  state: ChannelState,
  msg: SnapshotMessage | FrameMessage | HeartbeatMessage,
  receivedAt: number,
): ApplyResult {
  switch (msg.type) {
    case 'snapshot':
      return { state: applySnapshot(state, msg, receivedAt), outcome: 'applied', effects: settleEffects() };
    case 'heartbeat':
      return { state: applyHeartbeat(state, msg, receivedAt), outcome: 'ignored', effects: noEffects() };
    case 'frame':
      return applyFrame(state, msg, receivedAt);
  }
}

function settleEffects(): Effects {
  return { settle: true, layers: [], triggers: [] };
}

/** Own-property lookup, so a name like `constructor` never reaches Object.prototype. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export type { FiredTrigger };
