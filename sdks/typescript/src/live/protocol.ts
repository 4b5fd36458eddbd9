/**
 * The messages of the real-time WebSocket (`/v1/ws`, docs/api.md "Real-time WebSocket"), as the SDK reads and
 * writes them. Written out here so the SDK stands alone; scene definitions come from the generated types.
 */
import type { ClockAction, ClockState, InputValue, SceneDefinition } from '../types.js';

/** A scene on air on one layer; `since` is the ISO 8601 time it went to air. */
export interface ProgramEntry {
  sceneId: string;
  layer: number;
  since: string;
}

/** A scene cued in preview on one layer. */
export interface PreviewEntry {
  sceneId: string;
  layer: number;
}

/** What a renderer needs of a scene. */
export interface SceneView {
  id: string;
  name: string;
  definition: SceneDefinition;
}

/** A trigger fired in a frame: play it once. `at` is server epoch milliseconds. */
export interface FiredTrigger {
  name: string;
  sceneId: string;
  at: number;
}

/** Sent first on every connection, and in answer to a resync: the whole channel. */
export interface SnapshotMessage {
  type: 'snapshot';
  channelId: string;
  frame: number;
  /** Server epoch milliseconds. */
  serverTime: number;
  fps: number;
  width: number;
  height: number;
  program: ProgramEntry[];
  preview: PreviewEntry[];
  scenes: SceneView[];
  inputs: Record<string, InputValue>;
  clocks: Record<string, ClockState>;
}

/** What one tick changed; an absent key did not change. `prev` is the frame of the previous message. */
export interface FrameMessage {
  type: 'frame';
  channelId: string;
  frame: number;
  prev: number;
  serverTime: number;
  inputs?: Record<string, InputValue>;
  removedInputs?: string[];
  program?: ProgramEntry[];
  cutLayers?: number[];
  preview?: PreviewEntry[];
  scenes?: SceneView[];
  removedScenes?: string[];
  clocks?: Record<string, ClockState>;
  removedClocks?: string[];
  triggers?: FiredTrigger[];
  fps?: number;
  width?: number;
  height?: number;
}

/** The op with this id was applied in `frame` and stored. A clock op's ack has the clock's state. */
export interface AckMessage {
  type: 'ack';
  id: string;
  frame: number;
  clock?: ClockState;
}

/** The op with this id failed (`id` null for an unreadable message or a refused resync). */
export interface ErrorMessage {
  type: 'error';
  id: string | null;
  code: string;
  detail: string;
}

/** Every 5 s on every connection: silence for 15 s means a dead line. */
export interface HeartbeatMessage {
  type: 'heartbeat';
  serverTime: number;
}

export type ServerMessage = SnapshotMessage | FrameMessage | AckMessage | ErrorMessage | HeartbeatMessage;

export type ClientOp =
  | { op: 'patch'; inputs: Record<string, InputValue> }
  | { op: 'preview'; sceneId: string }
  | { op: 'program'; sceneId: string }
  | { op: 'take'; layer?: number }
  | { op: 'clear'; layer?: number; sceneId?: string }
  | { op: 'trigger'; name: string }
  | { op: 'clock'; name: string; action: ClockAction; ms?: number };

export type ClientMessage = { op: 'resync' } | (ClientOp & { id: string });

export const HEARTBEAT_DEAD_AFTER_MS = 15_000;

/** The subprotocol the server answers with; offered with `bearer.<key>` where headers cannot be set. */
export const SUBPROTOCOL = 'onair.v1';

/** 4000–4099: do not reconnect with the same credentials (4001 key revoked, 4009 token rotated, 4010 channel deleted). */
export function isTerminalClose(code: number): boolean {
  return code >= 4000 && code < 4100;
}

const TYPES: ReadonlySet<string> = new Set(['snapshot', 'frame', 'ack', 'error', 'heartbeat']);

/** A JSON text message with a known `type`, or null. */
export function parseServerMessage(data: unknown): ServerMessage | null {
  let text: string;
  if (typeof data === 'string') text = data;
  else if (data instanceof ArrayBuffer) text = new TextDecoder().decode(data);
  else if (ArrayBuffer.isView(data)) text = new TextDecoder().decode(data);
  else return null;
  try {
    const msg: unknown = JSON.parse(text);
    if (typeof msg === 'object' && msg !== null && TYPES.has((msg as { type?: unknown }).type as string)) {
      return msg as ServerMessage;
    }
  } catch {
    return null;
  }
  return null;
}
