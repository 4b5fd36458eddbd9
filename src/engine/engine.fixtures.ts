/**
 * Shared by the engine's unit tests: a TickCommitter that records ticks (and can fail or hold back
 * durability on demand), channel and scene records at a fixed time, and an engine on a manual clock.
 */
import type { FrameMessage, InputDef, SceneDefinition } from '@onair/protocol';
import { AppError } from '../errors.js';
import type { AsRunChange } from './as-run.js';
import { MemoryBroker } from './broker.js';
import { parseFrame } from './channel-messages.js';
import type { ChannelChange } from './channel-change.js';
import type { ShowLimits } from './draft.js';
import type { TickCommitter, TickWrite } from './engine.js';
import { FrameEngine } from './frame-engine.js';
import type { EngineEvent } from './events.js';
import type { FrameRate } from './frame-rate.js';
import type { ChannelRecord, LiveState, SceneRecord, StoredChannel } from './model.js';
import type { Op, OpResult, Origin } from './ops.js';
import { ManualTime } from './time-source.js';

/** A common frame boundary of 25, 50 and 60 fps. */
export const T0 = 1_700_000_000_000;
export const ISO = new Date(T0).toISOString();

/** Who the tests' ops come from, by default: an API key. */
export const API_BY: Origin = { source: 'api', actor: { type: 'key', id: 'key_test', name: 'test key' } };
/** The actor fields every event of an API_BY op carries. */
export const API_EVENT = { source: 'api', actor: API_BY.actor } as const;

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

/** A format-v1 definition on layer 0 that draws nothing, with `inputs` (and anything in `extra`). */
export function definition(inputs: InputDef[], extra: Partial<SceneDefinition> = {}): SceneDefinition {
  return {
    version: 1,
    layer: 0,
    inputs,
    elements: [],
    transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
    triggers: [],
    ...extra,
  };
}

export function sceneRecord(
  id: string,
  channelId: string,
  inputs: InputDef[],
  extra: Partial<SceneDefinition> = {},
): SceneRecord {
  return { id, channelId, name: id, definition: definition(inputs, extra), createdAt: ISO, updatedAt: ISO };
}

/** A live state with nothing set, on air or cued. */
export function emptyLive(frame = 0): LiveState {
  return {
    values: new Map(),
    clocks: new Map(),
    program: [],
    preview: [],
    rundowns: new Map(),
    schedule: [],
    history: [],
    frame,
    updatedAt: ISO,
  };
}

/** A MemoryBroker that also keeps every frame published on any channel (the `scenes=all` version), in order. */
export class RecordingBroker extends MemoryBroker {
  constructor(readonly frames: FrameMessage[] = []) {
    super();
  }

  override publish(channelId: string, payload: Uint8Array): Promise<void> {
    const frame = parseFrame(payload);
    if (frame) this.frames.push(frame);
    return super.publish(channelId, payload);
  }
}

/** Event ids in creation order: evt_000001, evt_000002… */
export function eventIds(): () => string {
  let n = 0;
  return () => `evt_${String(++n).padStart(6, '0')}`;
}

/** An engine on a manual clock over `stored`, recording frames, events, ticks and commits. */
export function engineHarness(stored: StoredChannel[], options: { limits?: ShowLimits } = {}) {
  const time = new ManualTime(T0);
  const committer = new RecordingCommitter();
  const frames: FrameMessage[] = [];
  const broker = new RecordingBroker(frames);
  const events: EngineEvent[] = [];
  const asRun: { channelId: string; asRun: AsRunChange }[] = [];
  const ticks: { fps: FrameRate; frame: number; changed: number }[] = [];
  const engine = new FrameEngine({
    time,
    committer,
    broker,
    newEventId: eventIds(),
    ...(options.limits ? { limits: options.limits } : {}),
    onEvents: (e) => events.push(...e),
    onAsRun: (channelId, change) => asRun.push({ channelId, asRun: change }),
    onTick: ({ fps, frame, changed }) => ticks.push({ fps, frame, changed }),
  });
  engine.load(stored);
  engine.start();
  /** Moves the clock on by `ms` (a frame at 60 fps by default) and lets the tick's commit finish. */
  const advance = async (ms = 17) => {
    time.advance(ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  /** Submits `op` (by API_BY unless it says who) and runs the tick that answers it. */
  const run = async (channelId: string, op: OpWithoutBy, by: Origin = API_BY): Promise<OpResult> => {
    const result = engine.submit(channelId, { ...op, by });
    result.catch(() => undefined); // refusals are the caller's to await
    await advance();
    return result;
  };
  /** Submits `op` as `run` does and answers the AppError it is refused with (failing when it is not refused). */
  const refusal = async (channelId: string, op: OpWithoutBy, by: Origin = API_BY): Promise<AppError> => {
    try {
      await run(channelId, op, by);
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    throw new Error(`expected ${op.kind} to be refused`);
  };
  return { time, committer, frames, events, asRun, ticks, engine, advance, run, refusal };
}

/** An op without its `by` (the harness adds it). */
export type OpWithoutBy = Op extends infer O ? (O extends Op ? Omit<O, 'by'> : never) : never;
