/**
 * Whole-channel views: the WebSocket snapshot and the REST state (docs/api.md, "Channels" and "Real-time WebSocket").
 * Clocks are settled at the moment of the view: a countdown that reached zero reads stopped at zero.
 */
import type { ClockState, InputValue, PreviewEntry, ProgramEntry, SceneScope, SnapshotMessage } from '@onair/protocol';
import type { ChannelRuntime } from './channel-runtime.js';
import { scopedScenes } from './scene-scope.js';

export interface ChannelState {
  channelId: string;
  frame: number;
  serverTime: string;
  fps: number;
  /** One entry per layer, sorted by layer. */
  program: ProgramEntry[];
  preview: PreviewEntry[];
  /** Every declared input but the clocks. */
  inputs: Record<string, InputValue>;
  /** Every declared clock. */
  clocks: Record<string, ClockState>;
  updatedAt: string;
}

/** The snapshot's frame is the channel's last sent frame, so the next frame's `prev` matches it. */
export function buildSnapshot(rt: ChannelRuntime, now: number, scope: SceneScope): SnapshotMessage {
  const { record, live } = rt;
  return {
    type: 'snapshot',
    channelId: record.id,
    frame: live.frame,
    serverTime: Math.round(now),
    fps: record.fps,
    width: record.width,
    height: record.height,
    program: live.program,
    preview: live.preview,
    scenes: scopedScenes(
      scope,
      [...rt.scenes.values()].map((s) => ({ id: s.id, name: s.name, definition: s.definition })),
      live,
    ),
    inputs: rt.effectiveInputs(),
    clocks: rt.clocks(Math.round(now)),
    ...(scope === 'all' ? { rundowns: [...live.rundowns.values()], schedule: [...live.schedule] } : {}),
  };
}

export function buildState(rt: ChannelRuntime, now: number): ChannelState {
  const { record, live } = rt;
  return {
    channelId: record.id,
    frame: live.frame,
    serverTime: new Date(now).toISOString(),
    fps: record.fps,
    program: live.program,
    preview: live.preview,
    inputs: rt.effectiveInputs(),
    clocks: rt.clocks(Math.round(now)),
    updatedAt: live.updatedAt,
  };
}
