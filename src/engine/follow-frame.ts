/**
 * How a copy of a channel that this engine does not tick follows the frames of the node that ticks it (several
 * nodes: docs/architecture/several-nodes.md, "Routing"). A pure function over a plain state, kept alone in this
 * module on purpose: it is the seam where the frame reducer shared with the renderer (in the protocol package) takes
 * over — the same message, the same rules — and only ChannelRuntime.followed()/adoptFollowed() sit on either side.
 */
import type { ClockState, FrameMessage, InputValue, PreviewEntry, ProgramEntry, SceneView } from '../protocol/index.js';

/** A channel as its owner's frames describe it. `inputs` hold effective values (a frame carries those). */
export interface FollowedChannel {
  /** The last frame applied. */
  frame: number;
  fps: number;
  width: number;
  height: number;
  program: readonly ProgramEntry[];
  preview: readonly PreviewEntry[];
  scenes: Readonly<Record<string, SceneView>>;
  inputs: Readonly<Record<string, InputValue>>;
  clocks: Readonly<Record<string, ClockState>>;
}

/**
 * `applied`: the frame follows the state's (its `prev` is the state's frame). `stale`: the state has it already
 * (a frame from before a reload). `gap`: one was missed; the state must be loaded afresh.
 */
export type FollowOutcome = 'applied' | 'stale' | 'gap';

/** The state after `msg`; the same state object unless the outcome is `applied`. */
export function followFrame(
  state: FollowedChannel,
  msg: FrameMessage,
): { state: FollowedChannel; outcome: FollowOutcome } {
  if (msg.prev !== state.frame) {
    // A lower number is a frame already applied, unless the frame rate changed (numbers restart on another scale).
    const stale = msg.frame <= state.frame && msg.fps === undefined;
    return { state, outcome: stale ? 'stale' : 'gap' };
  }
  const next: FollowedChannel = { ...state, frame: msg.frame };
  if (msg.inputs || msg.removedInputs) next.inputs = merged(state.inputs, msg.inputs, msg.removedInputs);
  if (msg.clocks || msg.removedClocks) next.clocks = merged(state.clocks, msg.clocks, msg.removedClocks);
  if (msg.scenes || msg.removedScenes) next.scenes = merged(state.scenes, byId(msg.scenes), msg.removedScenes);
  if (msg.program !== undefined) next.program = msg.program;
  if (msg.preview !== undefined) next.preview = msg.preview;
  if (msg.fps !== undefined) next.fps = msg.fps;
  if (msg.width !== undefined) next.width = msg.width;
  if (msg.height !== undefined) next.height = msg.height;
  return { state: next, outcome: 'applied' };
}

/** A copy with `removed` gone and `upserts` set; without a prototype, so no name (`__proto__`) is special. */
function merged<T>(
  current: Readonly<Record<string, T>>,
  upserts: Readonly<Record<string, T>> | undefined,
  removed: readonly string[] | undefined,
): Record<string, T> {
  const next = Object.assign(Object.create(null) as Record<string, T>, current);
  for (const name of removed ?? []) delete next[name];
  for (const [name, value] of Object.entries(upserts ?? {})) next[name] = value;
  return next;
}

function byId(scenes: readonly SceneView[] | undefined): Record<string, SceneView> | undefined {
  if (!scenes) return undefined;
  const out = Object.create(null) as Record<string, SceneView>;
  for (const scene of scenes) out[scene.id] = scene;
  return out;
}
