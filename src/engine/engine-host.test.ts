/**
 * What several nodes drive a FrameEngine with (engine-host.ts): the placement port, the host calls and their
 * refusals by reason, a tick that finds a channel deleted, and the clock phase. On a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import type { FrameMessage } from '@onair/protocol';
import { decodeChannelMessage } from './channel-messages.js';
import type { ChannelChange } from './channel-change.js';
import type { EngineDeps, TickCommitter, TickWrite } from './engine.js';
import { API_BY, channelRecord, emptyLive, eventIds, RecordingBroker, sceneRecord, T0 } from './engine.fixtures.js';
import { FrameEngine } from './frame-engine.js';
import { frameAt, frameRate, frameStart } from './frame-rate.js';
import type { StoredChannel } from './model.js';
import type { Op } from './ops.js';
import { ManualTime } from './time-source.js';

const SCORE = [{ name: 'score', type: 'number' as const, label: 'Score', default: 0 }];
const patch = (score: number): Op => ({ kind: 'patch', values: new Map([['score', score]]), by: API_BY });

function stored(id: string, frame = 0): StoredChannel {
  return { channel: channelRecord(id, 25), scenes: [sceneRecord(`sc_${id}`, id, SCORE)], live: emptyLive(frame) };
}

/** A committer that records what it writes, and leaves out the channels in `deleted` (as Postgres does). */
class Committer implements TickCommitter {
  readonly written: { frame: number; channels: string[]; at: number }[] = [];
  readonly deleted = new Set<string>();
  constructor(private readonly time: ManualTime) {}
  commitTick(frame: number, changes: readonly ChannelChange[]): TickWrite {
    const kept = changes.filter((c) => !this.deleted.has(c.channelId));
    this.written.push({ frame, channels: kept.map((c) => c.channelId), at: this.time.now() });
    const gone = changes.filter((c) => this.deleted.has(c.channelId)).map((c) => c.channelId);
    return gone.length > 0 ? { deleted: gone } : undefined;
  }
}

function setup(ticked: Set<string> | null, extra: Partial<EngineDeps> = {}) {
  const time = new ManualTime(T0);
  const committer = new Committer(time);
  const frames: FrameMessage[] = [];
  const broker = new RecordingBroker(frames);
  const placement = ticked ? { ticks: (id: string) => ticked.has(id) } : undefined;
  const engine = new FrameEngine({ time, committer, broker, newEventId: eventIds(), placement, ...extra });
  const advance = async (ms = 40) => {
    time.advance(ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { time, committer, frames, broker, engine, advance };
}

/** The promise's outcome, without an unhandled rejection meanwhile. */
function settled<T>(p: Promise<T>) {
  const out: { value?: T; error?: unknown } = {};
  p.then(
    (value) => (out.value = value),
    (error: unknown) => (out.error = error),
  );
  return out;
}

describe('FrameEngine placement and host', () => {
  it('never ticks a channel its placement refuses, whatever is queued or changed on it', async () => {
    const { engine, committer, frames, advance } = setup(new Set(['ch_here']));
    engine.load([stored('ch_here'), stored('ch_elsewhere')]);
    engine.start();
    const here = settled(engine.submit('ch_here', patch(1)));
    const elsewhere = settled(engine.submit('ch_elsewhere', patch(2)));
    engine.upsertScene(sceneRecord('sc_new', 'ch_elsewhere', SCORE));
    await advance(200);
    expect(here.value?.frame).toBeGreaterThan(0);
    expect(elsewhere).toEqual({});
    expect(committer.written.flatMap((w) => w.channels)).toEqual(['ch_here']);
    expect(frames.map((f) => f.channelId)).toEqual(['ch_here']);
    expect(engine.scenes('ch_elsewhere').map((s) => s.id)).toEqual(['sc_ch_elsewhere', 'sc_new']);
  });

  it("demote() refuses what was queued with reason 'channel_moved'; forget() with not_found, telling no renderer", async () => {
    const ticked = new Set(['ch_a', 'ch_b']);
    const { engine, broker, advance } = setup(ticked);
    engine.load([stored('ch_a'), stored('ch_b')]);
    engine.start();
    const revokes: string[] = [];
    broker.subscribe('ch_b', (p) => {
      const m = decodeChannelMessage(p);
      if (m.kind === 'revoke') revokes.push(m.reason);
    });
    const moved = settled(engine.submit('ch_a', patch(1)));
    const gone = settled(engine.submit('ch_b', patch(1)));
    ticked.clear();
    engine.host.demote('ch_a');
    engine.host.forget('ch_b');
    await advance();
    expect(AppError.hasReason(moved.error, 'channel_moved')).toBe(true);
    expect(moved.error).toMatchObject({ code: 'unavailable', retryAfter: 1 });
    expect(gone.error).toMatchObject({ code: 'not_found' });
    expect(AppError.hasReason(gone.error, 'channel_moved')).toBe(false);
    expect(engine.has('ch_a')).toBe(true);
    expect(engine.has('ch_b')).toBe(false);
    expect(revokes).toEqual([]);
  });

  it('install() replaces the copy; ticked here, its next frame carries every scene again', async () => {
    const ticked = new Set<string>();
    const { engine, frames, advance } = setup(ticked);
    engine.load([stored('ch_a', 7)]);
    engine.start();
    ticked.add('ch_a');
    engine.host.install({ ...stored('ch_a', 12), scenes: [sceneRecord('sc_x', 'ch_a', SCORE)] });
    expect(engine.host.position('ch_a')).toEqual({ frame: 12, fps: 25 });
    await advance();
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ prev: 12, scenes: [{ id: 'sc_x' }] });
    expect(engine.host.channelIds()).toEqual(['ch_a']);
  });

  it("applyRemoteFrame() moves a copy ticked elsewhere by its owner's frames, and says when one is stale or missing", () => {
    const { engine } = setup(new Set());
    engine.load([stored('ch_a', 100)]);
    const next = (n: number, fields: Partial<FrameMessage> = {}): FrameMessage => ({
      type: 'frame',
      channelId: 'ch_a',
      frame: n,
      prev: n - 1,
      serverTime: T0,
      ...fields,
    });
    expect(engine.host.applyRemoteFrame('ch_a', next(101, { inputs: { score: 5 } }))).toBe('applied');
    expect(engine.state('ch_a')).toMatchObject({ frame: 101, inputs: { score: 5 } });
    expect(engine.snapshot('ch_a')).toMatchObject({ frame: 101, inputs: { score: 5 } });
    expect(engine.host.applyRemoteFrame('ch_a', next(101))).toBe('stale');
    expect(engine.host.applyRemoteFrame('ch_a', next(105))).toBe('gap');
    expect(engine.host.applyRemoteFrame('ch_nope', next(1))).toBe('unknown');
    expect(engine.host.position('ch_a')).toEqual({ frame: 101, fps: 25 });
  });

  it('answers the ops of a channel the store found deleted with not_found, and commits the others', async () => {
    const { engine, committer, frames, advance } = setup(null);
    engine.load([stored('ch_a'), stored('ch_b')]);
    engine.start();
    committer.deleted.add('ch_b');
    const a = settled(engine.submit('ch_a', patch(1)));
    const b = settled(engine.submit('ch_b', patch(1)));
    await advance();
    expect(a.value?.frame).toBeGreaterThan(0);
    expect(b.error).toMatchObject({ code: 'not_found', message: 'The channel was deleted.' });
    expect(frames.map((f) => f.channelId)).toEqual(['ch_a']);
    expect(engine.state('ch_b').inputs.score).toBe(0);
  });
});

describe('FrameEngine clock phase', () => {
  it("ticks half a frame into the frame with clockPhase 0.5, and numbers the frame as without (the frame's own)", async () => {
    const { engine, committer, frames, time, advance } = setup(null, { clockPhase: 0.5 });
    engine.load([stored('ch_a')]);
    engine.start();
    const rate = frameRate(25);
    const frame = frameAt(rate, time.now()) + 1;
    await advance(frameStart(rate, frame) + 5 - time.now());
    const answer = settled(engine.submit('ch_a', patch(3)));
    await advance(14);
    expect(committer.written).toEqual([]);
    await advance(2);
    expect(committer.written).toEqual([{ frame, channels: ['ch_a'], at: frameStart(rate, frame) + 20 }]);
    expect(answer.value?.frame).toBe(frame);
    expect(frames.map((f) => f.frame)).toEqual([frame]);
  });
});
