/**
 * How a node that does not tick a channel keeps its copy (cluster-engine.ts): it applies the owner's frames, the
 * `scenes=all` ones, which carry every change, to the channel's runtime.
 */
import type { ChannelRecord, ChannelRuntime } from '../engine/index.js';
import type { FrameMessage } from '@onair/protocol';

/** A follower applies what its owner's frame says changed (the `scenes=all` frame: every change is in it). */
export function applyFrame(rt: ChannelRuntime, frame: FrameMessage): void {
  const at = new Date(frame.serverTime).toISOString();
  for (const view of frame.scenes ?? []) {
    const before = rt.scenes.get(view.id);
    rt.upsertScene({
      id: view.id,
      channelId: rt.record.id,
      name: view.name,
      definition: view.definition,
      createdAt: before?.createdAt ?? at,
      updatedAt: at,
    });
  }
  for (const id of frame.removedScenes ?? []) rt.removeScene(id);
  const values = new Map(rt.live.values);
  for (const [name, value] of Object.entries(frame.inputs ?? {})) {
    if (value === null) values.delete(name);
    else values.set(name, value);
  }
  for (const name of frame.removedInputs ?? []) values.delete(name);
  const clocks = new Map(rt.live.clocks);
  for (const [name, state] of Object.entries(frame.clocks ?? {})) clocks.set(name, state);
  for (const name of frame.removedClocks ?? []) clocks.delete(name);
  rt.live = {
    values,
    clocks,
    program: frame.program ?? rt.live.program,
    preview: frame.preview ?? rt.live.preview,
    frame: frame.frame,
    updatedAt: at,
  };
  if (frame.fps !== undefined || frame.width !== undefined || frame.height !== undefined) {
    rt.updateRecord({
      ...rt.record,
      fps: (frame.fps ?? rt.record.fps) as ChannelRecord['fps'],
      width: frame.width ?? rt.record.width,
      height: frame.height ?? rt.record.height,
    });
  }
}

/** Whether the copy has reached `frame` of a `fps` clock. */
export function reached(rt: ChannelRuntime, frame: number, fps: number): boolean {
  return rt.record.fps === fps && rt.live.frame >= frame;
}
