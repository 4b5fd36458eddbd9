/**
 * The channel as this page knows it, and the pure reducer that moves it forward from wire messages.
 * No DOM here: the stage reads this state, the unit tests drive it in Node.
 */
import type {
  ClockState,
  FrameMessage,
  InputValue,
  PreviewBus,
  ProgramBus,
  SceneView,
  SnapshotMessage,
} from '../../src/protocol/index.js';

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
  program: ProgramBus | null;
  preview: PreviewBus | null;
  scenes: Readonly<Record<string, SceneView>>;
  inputs: Readonly<Record<string, InputValue>>;
  clocks: Readonly<Record<string, ClockState>>;
  /** Estimated server clock minus local clock, in ms: serverNow = Date.now() + serverOffsetMs. */
  serverOffsetMs: number;
}

/** `gap` means the caller must ask the server for a resync; `ignored` changes nothing. */
export type ApplyOutcome = 'applied' | 'gap' | 'ignored';

export interface ApplyResult {
  state: ChannelState;
  outcome: ApplyOutcome;
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
    program: null,
    preview: null,
    scenes: {},
    inputs: {},
    clocks: {},
    serverOffsetMs: 0,
  };
}

/** A snapshot replaces everything, whatever came before: it is the only way back into sync. */
export function applySnapshot(_state: ChannelState, msg: SnapshotMessage, receivedAt: number): ChannelState {
  const scenes: Record<string, SceneView> = {};
  for (const scene of msg.scenes) scenes[scene.id] = scene;
  return {
    loaded: true,
    synced: true,
    channelId: msg.channelId,
    frame: msg.frame,
    fps: msg.fps,
    width: msg.width,
    height: msg.height,
    program: msg.program,
    preview: msg.preview,
    scenes,
    inputs: { ...msg.inputs },
    clocks: { ...msg.clocks },
    // The message left the server before we got it, so this underestimates by the one-way latency.
    serverOffsetMs: msg.serverTime - receivedAt,
  };
}

export function applyFrame(state: ChannelState, msg: FrameMessage, receivedAt: number): ApplyResult {
  if (!state.synced || msg.channelId !== state.channelId) return { state, outcome: 'ignored' };
  if (msg.prev !== state.frame) return { state: { ...state, synced: false }, outcome: 'gap' };
  const next: ChannelState = {
    ...state,
    frame: msg.frame,
    // Latency only ever makes a sample smaller, so the largest one seen since the snapshot is the best.
    serverOffsetMs: Math.max(state.serverOffsetMs, msg.serverTime - receivedAt),
  };
  if (msg.inputs) next.inputs = { ...state.inputs, ...msg.inputs };
  if (msg.clocks) next.clocks = { ...state.clocks, ...msg.clocks };
  if (msg.program !== undefined) next.program = msg.program;
  if (msg.preview !== undefined) next.preview = msg.preview;
  if (msg.scenes || msg.removedScenes) next.scenes = updateScenes(state.scenes, msg);
  if (msg.fps !== undefined) next.fps = msg.fps;
  if (msg.width !== undefined) next.width = msg.width;
  if (msg.height !== undefined) next.height = msg.height;
  return { state: next, outcome: 'applied' };
}

function updateScenes(scenes: Readonly<Record<string, SceneView>>, msg: FrameMessage): Record<string, SceneView> {
  const next: Record<string, SceneView> = { ...scenes };
  for (const id of msg.removedScenes ?? []) delete next[id];
  for (const scene of msg.scenes ?? []) next[scene.id] = scene;
  return next;
}

/** After a lost connection anything may have been missed: wait for the next snapshot. */
export function markDisconnected(state: ChannelState): ChannelState {
  return state.synced ? { ...state, synced: false } : state;
}

export function applyMessage(
  state: ChannelState,
  msg: SnapshotMessage | FrameMessage,
  receivedAt: number,
): ApplyResult {
  if (msg.type === 'snapshot') return { state: applySnapshot(state, msg, receivedAt), outcome: 'applied' };
  return applyFrame(state, msg, receivedAt);
}

/** Own-property lookup, so a name like `constructor` never reaches Object.prototype. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
