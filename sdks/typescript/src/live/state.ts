/**
 * The channel as the live client knows it, and the pure steps that move it forward (docs/api.md, "Server
 * messages", "Ordering and resync"): a snapshot replaces everything; a frame applies only when its `prev` is the
 * last frame applied, its absent keys unchanged; anything else is a gap, and only a new snapshot repairs it.
 * Every step answers a new object: a listener may keep the one it was given.
 */
import type { ClockState, InputValue } from '../types.js';
import type { FrameMessage, PreviewEntry, ProgramEntry, SceneView, SnapshotMessage } from './protocol.js';

export interface LiveState {
  channelId: string;
  /** The last snapshot or frame applied. */
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
  /** Every scene of the channel, by id. */
  scenes: Record<string, SceneView>;
  /** The effective value of every declared input but clocks. */
  inputs: Record<string, InputValue>;
  /** Every declared clock: `ms` at server time `at`, moving while `running`. */
  clocks: Record<string, ClockState>;
}

export function stateFromSnapshot(msg: SnapshotMessage): LiveState {
  const scenes: Record<string, SceneView> = {};
  for (const scene of msg.scenes) scenes[scene.id] = scene;
  return {
    channelId: msg.channelId,
    frame: msg.frame,
    serverTime: msg.serverTime,
    fps: msg.fps,
    width: msg.width,
    height: msg.height,
    program: byLayer(msg.program),
    preview: byLayer(msg.preview),
    scenes,
    inputs: { ...msg.inputs },
    clocks: { ...msg.clocks },
  };
}

/** The state after a frame, or `gap` when the frame does not follow the last one applied. */
export function applyFrame(state: LiveState, msg: FrameMessage): LiveState | 'gap' {
  if (msg.prev !== state.frame) return 'gap';
  const next: LiveState = { ...state, frame: msg.frame, serverTime: msg.serverTime };
  if (msg.inputs || msg.removedInputs) next.inputs = merged(state.inputs, msg.inputs, msg.removedInputs);
  if (msg.clocks || msg.removedClocks) next.clocks = merged(state.clocks, msg.clocks, msg.removedClocks);
  if (msg.program !== undefined) next.program = byLayer(msg.program);
  if (msg.preview !== undefined) next.preview = byLayer(msg.preview);
  if (msg.scenes || msg.removedScenes) {
    const upserts: Record<string, SceneView> = {};
    for (const scene of msg.scenes ?? []) upserts[scene.id] = scene;
    next.scenes = merged(state.scenes, upserts, msg.removedScenes);
  }
  if (msg.fps !== undefined) next.fps = msg.fps;
  if (msg.width !== undefined) next.width = msg.width;
  if (msg.height !== undefined) next.height = msg.height;
  return next;
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

function byLayer<T extends { layer: number }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => a.layer - b.layer);
}
