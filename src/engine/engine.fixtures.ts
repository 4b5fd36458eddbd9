/**
 * Shared by the engine's unit tests: a TickCommitter that records ticks (and can fail or hold back
 * durability on demand), and channel records at a fixed time.
 */
import type { ChannelChange } from './channel-runtime.js';
import type { TickCommitter, TickWrite } from './engine.js';
import type { FrameRate } from './frame-rate.js';
import type { ChannelRecord, SceneRecord } from './model.js';
import type { InputDef } from '../protocol/index.js';

/** A common frame boundary of 25, 50 and 60 fps. */
export const T0 = 1_700_000_000_000;
export const ISO = new Date(T0).toISOString();

/**
 * Records every tick, or throws like a full disk when told to (`failNext`). With `deferFlush`, each
 * write's durability waits for the test to call `flushes[i].resolve()` (or reject).
 */
export class RecordingCommitter implements TickCommitter {
  readonly ticks: { frame: number; changes: ChannelChange[] }[] = [];
  readonly flushes: { resolve: () => void; reject: (err: Error) => void }[] = [];
  failNext = 0;
  deferFlush = false;
  commitTick(frame: number, changes: readonly ChannelChange[]): TickWrite {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('SQLITE_FULL: database or disk is full');
    }
    this.ticks.push({ frame, changes: [...changes] });
    if (!this.deferFlush) return;
    return { durable: new Promise<void>((resolve, reject) => this.flushes.push({ resolve, reject })) };
  }
}

export function channelRecord(id: string, fps: FrameRate = 60): ChannelRecord {
  return {
    id,
    orgId: 'org_1',
    name: id,
    fps,
    width: 1920,
    height: 1080,
    outputToken: 't',
    createdAt: ISO,
    updatedAt: ISO,
  };
}

export function sceneRecord(id: string, channelId: string, inputs: InputDef[]): SceneRecord {
  return { id, channelId, name: id, definition: { inputs, triggers: [], layers: [] }, createdAt: ISO, updatedAt: ISO };
}
