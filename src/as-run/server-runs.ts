/**
 * The intervals the server ends and begins by itself, one node (docs/as-run.md, "When the server stops"): at a clean
 * stop every open interval ends then; at start, whatever the last run left open ends where it was last seen on air
 * (`endInferred`: the server died), and whatever the restored program holds begins again, taken by RESTART_ACTOR.
 */
import {
  buildRegistry,
  frameAt,
  frameRate,
  frameTime,
  intervalStart,
  type AsRunStart,
  type FrameRate,
  type StoredChannel,
} from '../engine/index.js';
import { newId } from '../ids.js';
import type { IntervalClose, OpenInterval } from '../store/as-run-store.js';
import type { Actor } from '@onair/protocol';

/** Who begins the intervals of what a restart finds on program. */
export const RESTART_ACTOR: Actor = { type: 'system', id: 'restart', name: 'onair restart' };

/** The end of an open interval at `ms` (never before its start), on its channel's frames. */
export function closeAt(open: OpenInterval, fps: FrameRate, ms: number, inferred: boolean): IntervalClose {
  const endFrame = Math.max(open.startFrame, frameAt(frameRate(fps), ms));
  return { id: open.id, endAt: frameTime(fps, endFrame), endFrame, inferred };
}

/** An open interval left by a run that died ends where it was last seen on air (its start, if never). */
export function inferredClose(open: OpenInterval, fps: FrameRate): IntervalClose {
  return closeAt(open, fps, Date.parse(open.seenAt ?? open.startAt), true);
}

/** The intervals a restart begins at `ms`: one per instance on each channel's restored program. */
export function restartedRuns(
  channels: readonly StoredChannel[],
  ms: number,
): { channelId: string; start: AsRunStart }[] {
  const out: { channelId: string; start: AsRunStart }[] = [];
  for (const { channel, scenes, live } of channels) {
    if (live.program.length === 0) continue;
    const frame = frameAt(frameRate(channel.fps), ms);
    const at = frameTime(channel.fps, frame);
    const registry = buildRegistry(scenes);
    const channelValue = (name: string) => live.values.get(name) ?? registry.get(name)?.default ?? null;
    const byId = new Map(scenes.map((s) => [s.id, s]));
    for (const entry of live.program) {
      const scene = byId.get(entry.sceneId);
      if (!scene) continue;
      const line = { id: newId('asr'), at, takenBy: RESTART_ACTOR };
      out.push({
        channelId: channel.id,
        start: intervalStart(entry, scene, { frame, rundowns: live.rundowns, channelValue }, line),
      });
    }
  }
  return out;
}
