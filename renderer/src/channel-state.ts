/**
 * The channel as this page knows it: the protocol's state (@onair/protocol, frame-reducer), which every client
 * moves forward the same way, wrapped with what the page needs besides: whether it may draw (`loaded`, `synced`)
 * and its estimate of the server's clock. No DOM here: the stage reads this state, the unit tests drive it in Node.
 *
 * What happens once (a layer's scene changing by a frame, a fired trigger) is not state: the wrapper reports it
 * as effects for the stage to play, so a snapshot, which carries none, can never replay it.
 */
import {
  applyFrame as applyLiveFrame,
  emptyLiveState,
  stateFromSnapshot,
  type FrameMessage,
  type HeartbeatMessage,
  type LiveState,
  type ProgramEntry,
  type SnapshotMessage,
} from '@onair/protocol';
import { addSample, emptyServerClock, serverOffset, type ServerClock } from './server-clock.js';
import { noEffects, type Effects, type LayerChange } from './effects.js';

export interface ChannelState extends LiveState {
  /** False until the first snapshot; nothing may be drawn before it. Never goes back to false. */
  loaded: boolean;
  /** False after a gap or a lost connection until the next snapshot; frames are ignored meanwhile. */
  synced: boolean;
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
    ...emptyLiveState(),
    loaded: false,
    synced: false,
    serverClock: emptyServerClock(),
    serverOffsetMs: 0,
  };
}

/**
 * A snapshot replaces everything, whatever came before: it is the only way back into sync. It may come
 * from another server process, so the clock estimate starts over from it.
 */
export function applySnapshot(_state: ChannelState, msg: SnapshotMessage, receivedAt: number): ChannelState {
  const serverClock = addSample(emptyServerClock(), msg.serverTime, receivedAt);
  return {
    ...stateFromSnapshot(msg),
    loaded: true,
    synced: true,
    serverClock,
    serverOffsetMs: serverOffset(serverClock),
  };
}

export function applyFrame(state: ChannelState, msg: FrameMessage, receivedAt: number): ApplyResult {
  if (!state.synced || msg.channelId !== state.channelId) return { state, outcome: 'ignored', effects: noEffects() };
  const applied = applyLiveFrame(state, msg);
  if (applied === 'gap') return { state: { ...state, synced: false }, outcome: 'gap', effects: noEffects() };
  const next = withSample(applied, msg.serverTime, receivedAt);
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

/** Each layer whose instance changed: animated, unless the frame lists it as a cut. */
function programChanges(
  before: readonly ProgramEntry[],
  after: readonly ProgramEntry[],
  msg: FrameMessage,
): LayerChange[] {
  const was = new Map(before.map((e) => [e.layer, instanceKey(e)]));
  const now = new Map(after.map((e) => [e.layer, instanceKey(e)]));
  const layers = new Set([...was.keys(), ...now.keys()]);
  const cuts = new Set(msg.cutLayers ?? []);
  const changes: LayerChange[] = [];
  for (const layer of [...layers].sort((a, b) => a - b)) {
    if (was.get(layer) === now.get(layer)) continue;
    changes.push({ layer, mode: cuts.has(layer) ? 'cut' : 'animate', at: msg.serverTime });
  }
  return changes;
}

/**
 * Which instance is on air: every take or cut puts a new one there, with its own `since`, even of the scene already
 * on that layer (the next name on the lower third leaves and enters like any other scene); an update on air keeps
 * the instance and changes only its values, drawn in place.
 */
function instanceKey(e: ProgramEntry): string {
  return JSON.stringify([e.sceneId, e.itemId, e.since]);
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
