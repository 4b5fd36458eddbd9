/**
 * Render WebSocket messages (docs/api.md, "Real-time WebSocket"), shared by the server and the renderer.
 * No Node imports: this file is bundled into the renderer.
 *
 * Ordering guarantee: on one connection, frames arrive in increasing `frame` order and each frame's
 * `prev` is the frame number of the previous message sent for this channel. A client that sees
 * `prev` differ from the last frame it applied has missed something and asks for a `resync`.
 */
import type { ClockState, InputValue, SceneView } from './scene.js';

export interface ProgramBus {
  sceneId: string;
  /** ISO 8601 time at which the scene went to air. */
  since: string;
}

export interface PreviewBus {
  sceneId: string;
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
  program: ProgramBus | null;
  preview: PreviewBus | null;
  scenes: SceneView[];
  /** Effective value of every declared input (defaults filled in). */
  inputs: Record<string, InputValue>;
  clocks: Record<string, ClockState>;
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
  program?: ProgramBus | null;
  preview?: PreviewBus | null;
  /** Scenes added or changed. */
  scenes?: SceneView[];
  removedScenes?: string[];
  clocks?: Record<string, ClockState>;
  fps?: number;
  width?: number;
  height?: number;
}

export interface AckMessage {
  type: 'ack';
  id: string;
  frame: number;
}

export interface ErrorMessage {
  type: 'error';
  id: string | null;
  code: string;
  detail: string;
}

/**
 * Sent to every connection every HEARTBEAT_INTERVAL_MS. Browsers cannot see WebSocket pings, so this is
 * how a page notices a half-open line on a quiet channel: silence for HEARTBEAT_DEAD_AFTER_MS means
 * reconnect.
 */
export interface HeartbeatMessage {
  type: 'heartbeat';
  serverTime: number;
}

export const HEARTBEAT_INTERVAL_MS = 5_000;
export const HEARTBEAT_DEAD_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;

export type ServerMessage = SnapshotMessage | FrameMessage | AckMessage | ErrorMessage | HeartbeatMessage;

export type ClientMessage =
  | { op: 'resync' }
  | { op: 'patch'; id: string; inputs: Record<string, InputValue> }
  | { op: 'preview'; id: string; sceneId: string }
  | { op: 'program'; id: string; sceneId: string }
  | { op: 'take'; id: string }
  | { op: 'clear'; id: string };

/**
 * WebSocket close codes. 1000–1999 are the standard ones; 4000–4099 mean "do not reconnect with the
 * same credentials" (a renderer keeps retrying slowly, since an operator may fix the URL's channel);
 * 4100–4199 mean "reconnect soon".
 */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  unauthorized: 4001,
  forbidden: 4003,
  notFound: 4004,
  tokenRotated: 4009,
  channelDeleted: 4010,
  slowConsumer: 4100,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** True when a close code tells the client its credentials or channel are no longer valid. */
export function isTerminalClose(code: number): boolean {
  return code >= 4000 && code < 4100;
}
