import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import type { InputValue } from '@onair/protocol';
import { MemoryBroker } from './broker.js';
import type { TickCommitter } from './engine.js';
import { FrameEngine } from './frame-engine.js';
import {
  API_BY,
  API_EVENT,
  channelRecord,
  emptyLive,
  engineHarness,
  eventIds,
  sceneRecord,
  T0,
} from './engine.fixtures.js';
import { frameAt, frameRate } from './frame-rate.js';
import type { ChannelRecord } from './model.js';
import { ManualTime } from './time-source.js';

const F60 = frameAt(frameRate(60), T0);

const channel = channelRecord;
const scene = sceneRecord;

const scoreboard = (ch: string) =>
  scene('sc_board', ch, [
    { name: 'score', type: 'number', label: 'Score', default: 0 },
    { name: 'team', type: 'text', label: 'Team', default: 'HOME' },
  ]);
const lowerThird = (ch: string) =>
  scene('sc_lower', ch, [{ name: 'title', type: 'text', label: 'Title', default: '' }]);

function setup(channels: ChannelRecord[] = [channel('ch_a')]) {
  return engineHarness(
    channels.map((c) => ({ channel: c, scenes: [scoreboard(c.id), lowerThird(c.id)], live: emptyLive(7) })),
  );
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves the manual clock on and lets the tick's commit (a promise) finish. */
async function advance(h: { time: ManualTime }, ms: number): Promise<void> {
  h.time.advance(ms);
  await flush();
}

const patch = (values: Record<string, InputValue>) => ({
  kind: 'patch' as const,
  values: new Map(Object.entries(values)),
  by: API_BY,
});

function settled<T>(p: Promise<T>) {
  const s: { status: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { status: 'pending' };
  p.then(
    (value) => Object.assign(s, { status: 'resolved', value }),
    (error: unknown) => Object.assign(s, { status: 'rejected', error }),
  );
  return s;
}

function codeOf(err: unknown): string | undefined {
  return err instanceof AppError ? err.code : undefined;
}

describe('Engine: ordering and coalescing', () => {
  it('two patches in one tick: one frame, the later value wins, both acked with that frame', async () => {
    const h = setup();
    const first = h.engine.submit('ch_a', patch({ score: 1 }));
    const second = h.engine.submit('ch_a', patch({ score: 2, team: 'AWAY' }));
    await advance(h, 17);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual({ frame: F60 + 1, applied: { score: 1 } });
    expect(b).toEqual({ frame: F60 + 1, applied: { score: 2, team: 'AWAY' } });
    expect(h.frames).toHaveLength(1);
    expect(h.frames[0]).toMatchObject({ frame: F60 + 1, prev: 7, inputs: { score: 2, team: 'AWAY' } });
    const binds = h.events.filter((e) => e.type === 'channel.bind_updated').map((e) => e.data);
    expect(binds).toEqual([
      { inputs: { score: 1 }, previous: { score: 0 }, frame: F60 + 1, ...API_EVENT },
      { inputs: { score: 2, team: 'AWAY' }, previous: { score: 1, team: 'HOME' }, frame: F60 + 1, ...API_EVENT },
    ]);
    expect(h.engine.state('ch_a').inputs).toEqual({ score: 2, team: 'AWAY', title: '' });
  });

  it('applies ops of one tick in arrival order', async () => {
    const h = setup();
    const takeFirst = settled(h.engine.submit('ch_a', { kind: 'take', by: API_BY }));
    const cue = h.engine.submit('ch_a', { kind: 'cue', sceneId: 'sc_board', by: API_BY });
    const take = h.engine.submit('ch_a', { kind: 'take', by: API_BY });
    const cut = h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_lower', by: API_BY });
    await advance(h, 17);
    await Promise.all([cue, take, cut]);
    expect(takeFirst.status).toBe('rejected');
    expect(codeOf(takeFirst.error)).toBe('preview_empty');
    expect(h.engine.state('ch_a').program.map((e) => e.sceneId)).toEqual(['sc_lower']);
    const played = h.events.filter((e) => e.type === 'channel.played').map((e) => e.data);
    expect(played).toEqual([
      { sceneId: 'sc_board', previousSceneId: null, layer: 0, itemId: null, ...API_EVENT },
      { sceneId: 'sc_lower', previousSceneId: 'sc_board', layer: 0, itemId: null, ...API_EVENT },
    ]);
  });

  it('coalesces a tick: one commit, one change and one frame message per changed channel', async () => {
    const h = setup([channel('ch_a'), channel('ch_b'), channel('ch_idle')]);
    const ops = [
      h.engine.submit('ch_a', patch({ score: 1 })),
      h.engine.submit('ch_b', patch({ title: 'Hello' })),
      h.engine.submit('ch_a', patch({ team: 'X' })),
      h.engine.submit('ch_b', { kind: 'cut', sceneId: 'sc_lower', by: API_BY }),
    ];
    await advance(h, 17);
    await Promise.all(ops);
    expect(h.committer.ticks).toHaveLength(1);
    expect(h.committer.ticks[0]!.changes.map((c) => c.channelId).sort()).toEqual(['ch_a', 'ch_b']);
    expect(h.frames.map((f) => f.channelId).sort()).toEqual(['ch_a', 'ch_b']);
    expect(h.frames.find((f) => f.channelId === 'ch_b')).toMatchObject({ inputs: { title: 'Hello' } });
    expect(h.ticks).toEqual([{ fps: 60, frame: F60 + 1, changed: 2 }]);
  });

  it('each frame message has prev = the previous frame sent and the snapshot frame', async () => {
    const h = setup();
    const before = h.engine.snapshot('ch_a').frame;
    await Promise.all([h.engine.submit('ch_a', patch({ score: 1 })), advance(h, 17)]);
    await advance(h, 100); // idle frames in between
    const snap = h.engine.snapshot('ch_a');
    await Promise.all([h.engine.submit('ch_a', patch({ score: 2 })), advance(h, 17)]);
    expect(h.frames.map((f) => [f.prev, f.frame])).toEqual([
      [before, F60 + 1],
      [F60 + 1, h.frames[1]!.frame],
    ]);
    expect(snap.frame).toBe(F60 + 1);
    expect(snap.inputs).toMatchObject({ score: 1 });
    // Submitted at T0 + 117 ms, when frame F60 + 7 was current: applied in that frame or a later one.
    expect(h.frames[1]!.frame).toBeGreaterThanOrEqual(F60 + 7);
  });

  it('idle ticks publish and commit nothing, and the clock stops', async () => {
    const h = setup();
    await Promise.all([h.engine.submit('ch_a', patch({ score: 1 })), advance(h, 17)]);
    await advance(h, 1000);
    expect(h.frames).toHaveLength(1);
    expect(h.committer.ticks).toHaveLength(1);
    expect(h.time.pendingTimers()).toBe(0);
  });
});

describe('Engine: failures', () => {
  it('a committer that throws rejects the tick with unavailable and leaves the state as it was', async () => {
    const h = setup();
    await Promise.all([h.engine.submit('ch_a', patch({ score: 1 })), advance(h, 17)]);
    const before = { ...h.engine.state('ch_a'), serverTime: '' };
    h.committer.failNext = 1;
    const refused = settled(h.engine.submit('ch_a', patch({ score: 9 })));
    const cut = settled(h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_board', by: API_BY }));
    await advance(h, 17);
    expect([refused.status, cut.status]).toEqual(['rejected', 'rejected']);
    expect(codeOf(refused.error)).toBe('unavailable');
    expect(codeOf(cut.error)).toBe('unavailable');
    expect({ ...h.engine.state('ch_a'), serverTime: '' }).toEqual(before);
    expect(h.frames).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'channel.played')).toEqual([]);

    const retry = h.engine.submit('ch_a', patch({ score: 3 }));
    await advance(h, 17);
    expect((await retry).applied).toEqual({ score: 3 });
    expect(h.frames[1]).toMatchObject({ prev: before.frame, inputs: { score: 3 } });
  });

  it('a scene removal whose tick failed to commit still reaches program and renderers later', async () => {
    const h = setup();
    await Promise.all([h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_board', by: API_BY }), advance(h, 17)]);
    h.committer.failNext = 1;
    h.engine.removeScene('ch_a', 'sc_board');
    await advance(h, 17);
    await advance(h, 100);
    expect(h.engine.state('ch_a').program).toEqual([]);
    expect(h.frames.at(-1)).toMatchObject({ program: [], cutLayers: [0], removedScenes: ['sc_board'] });
  });

  it('rejects a bad op alone: the other ops of the tick apply', async () => {
    const h = setup();
    const stale = settled(h.engine.submit('ch_a', patch({ title: 'gone' })));
    const good = h.engine.submit('ch_a', patch({ score: 5 }));
    h.engine.removeScene('ch_a', 'sc_lower'); // after queueing: "title" no longer exists at the tick
    await advance(h, 17);
    expect(await good).toEqual({ frame: F60 + 1, applied: { score: 5 } });
    expect(stale.status).toBe('rejected');
    expect(codeOf(stale.error)).toBe('unknown_input');
    const change = h.committer.ticks[0]!.changes[0]!;
    expect([...change.setValues]).toEqual([['score', 5]]);
  });

  it('take with an empty preview rejects preview_empty', async () => {
    const h = setup();
    const take = settled(h.engine.submit('ch_a', { kind: 'take', by: API_BY }));
    await advance(h, 17);
    expect(codeOf(take.error)).toBe('preview_empty');
    expect(h.engine.state('ch_a').program).toEqual([]);
  });

  it('removing the on-air scene clears program', async () => {
    const h = setup();
    await Promise.all([h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_board', by: API_BY }), advance(h, 17)]);
    h.engine.removeScene('ch_a', 'sc_board');
    await advance(h, 17);
    expect(h.engine.state('ch_a').program).toEqual([]);
    expect(h.frames.at(-1)).toMatchObject({ program: [], cutLayers: [0], removedScenes: ['sc_board'] });
    expect(h.frames.at(-1)!.removedInputs).toEqual(['score', 'team']);
    expect(h.events.at(-1)).toMatchObject({ type: 'channel.cleared', data: { sceneId: 'sc_board', layer: 0 } });
    expect(h.committer.ticks.at(-1)!.changes[0]!.live.program).toEqual([]);
  });
});

describe('Engine: written, then durable', () => {
  it('publishes a frame when the tick is written; acknowledges and emits events only once it is durable', async () => {
    const h = setup();
    h.committer.deferFlush = true;
    const op = settled(h.engine.submit('ch_a', patch({ score: 5 })));
    await advance(h, 17);
    expect(h.frames).toHaveLength(1);
    expect(h.engine.state('ch_a').inputs).toMatchObject({ score: 5 });
    expect(op.status).toBe('pending');
    expect(h.events).toEqual([]);
    // The next tick is not held up by the flush still under way.
    const next = settled(h.engine.submit('ch_a', patch({ score: 6 })));
    await advance(h, 17);
    expect(h.frames.map((f) => f.inputs)).toEqual([{ score: 5 }, { score: 6 }]);
    h.committer.flushes[0]!.resolve();
    await flush();
    expect(op).toMatchObject({ status: 'resolved', value: { frame: F60 + 1, applied: { score: 5 } } });
    expect(next.status).toBe('pending');
    expect(h.events.map((e) => e.type)).toContain('channel.bind_updated');
    h.committer.flushes[1]!.resolve();
    await flush();
    expect(next.status).toBe('resolved');
  });

  it('a flush that fails refuses the ops as unavailable (safe to retry) and keeps what is on air', async () => {
    const h = setup();
    h.committer.deferFlush = true;
    const op = settled(h.engine.submit('ch_a', patch({ score: 9 })));
    await advance(h, 17);
    h.committer.flushes[0]!.reject(new Error('EIO: i/o error, fdatasync'));
    await flush();
    expect(op.status).toBe('rejected');
    expect(codeOf(op.error)).toBe('unavailable');
    expect(h.events).toEqual([]);
    expect(h.engine.state('ch_a').inputs).toMatchObject({ score: 9 });
  });

  it('stop() waits for writes still being flushed, so their callers are answered', async () => {
    const h = setup();
    h.committer.deferFlush = true;
    const op = settled(h.engine.submit('ch_a', patch({ score: 1 })));
    await advance(h, 17);
    const stopped = settled(h.engine.stop());
    await flush();
    expect(stopped.status).toBe('pending');
    h.committer.flushes[0]!.resolve();
    await flush();
    expect(stopped.status).toBe('resolved');
    expect(op.status).toBe('resolved');
  });
});

describe('Engine: stop', () => {
  it('stop() runs a last tick that answers queued ops; submit afterwards rejects unavailable', async () => {
    const h = setup();
    const queued = h.engine.submit('ch_a', patch({ score: 4 }));
    await h.engine.stop();
    expect(await queued).toEqual({ frame: F60 + 1, applied: { score: 4 } });
    expect(h.committer.ticks).toHaveLength(1);
    await expect(h.engine.submit('ch_a', patch({ score: 5 }))).rejects.toMatchObject({ code: 'unavailable' });
    expect(h.time.pendingTimers()).toBe(0);
  });

  it('stop() during an in-flight commit leaves no op unanswered', async () => {
    const time = new ManualTime(T0);
    // The first commit is held until release(); commits after that complete at once.
    let released = false;
    let release = () => {};
    const held: TickCommitter = {
      commitTick: () =>
        released ? undefined : new Promise<void>((resolve) => (release = () => ((released = true), resolve()))),
    };
    const engine = new FrameEngine({ time, committer: held, broker: new MemoryBroker(), newEventId: eventIds() });
    engine.load([
      {
        channel: channel('ch_a'),
        scenes: [scoreboard('ch_a')],
        live: emptyLive(),
      },
    ]);
    engine.start();
    const first = settled(engine.submit('ch_a', patch({ score: 1 })));
    time.advance(17); // the tick's commit is now in flight
    const second = settled(engine.submit('ch_a', patch({ score: 2 })));
    const stopped = engine.stop();
    release();
    await stopped;
    await flush();
    expect(first.status).toBe('resolved');
    // Queued while the first commit was in flight: applied by stop()'s last tick.
    expect(second.status).toBe('resolved');
  });
});
