/** The engine's frame-rate groups and its cost model: one clock per rate, idle channels never visited. */
import { describe, expect, it } from 'vitest';
import { API_BY, channelRecord, definition, emptyLive, engineHarness, ISO, T0 } from './engine.fixtures.js';
import { frameAt, frameRate, type FrameRate } from './frame-rate.js';
import type { StoredChannel } from './model.js';
import type { OpResult } from './ops.js';

const first = (fps: FrameRate) => frameAt(frameRate(fps), T0);

function stored(id: string, fps: FrameRate): StoredChannel {
  const channel = channelRecord(id, fps);
  const inputs = [{ name: 'score', type: 'number' as const, label: 'Score', default: 0 }];
  const scene = {
    id: `sc_${id}`,
    channelId: id,
    name: 's',
    definition: definition(inputs),
    createdAt: ISO,
    updatedAt: ISO,
  };
  return {
    channel,
    scenes: [scene],
    live: emptyLive(),
  };
}

function setup(channels: StoredChannel[]) {
  const h = engineHarness(channels);
  const patch = (id: string, score: number) => {
    const result: { value?: OpResult } = {};
    void h.engine
      .submit(id, { kind: 'patch', values: new Map([['score', score]]), by: API_BY })
      .then((v) => (result.value = v));
    return result;
  };
  return { ...h, patch };
}

describe('Engine frame-rate groups', () => {
  it('channels at 25, 50 and 60 fps tick on their own clocks, numbered in their own rate', async () => {
    const h = setup([stored('ch_25', 25), stored('ch_50', 50), stored('ch_60', 60)]);
    const [a25, a50, a60] = [h.patch('ch_25', 1), h.patch('ch_50', 1), h.patch('ch_60', 1)];
    await h.advance(17); // 60 fps frame 1 began at 16.7 ms
    expect([a25.value, a50.value, a60.value?.frame]).toEqual([undefined, undefined, first(60) + 1]);
    await h.advance(3); // 20 ms: 50 fps frame 1
    expect([a25.value, a50.value?.frame]).toEqual([undefined, first(50) + 1]);
    await h.advance(20); // 40 ms: 25 fps frame 1
    expect(a25.value?.frame).toBe(first(25) + 1);
    expect(h.ticks.filter((t) => t.changed > 0)).toEqual([
      { fps: 60, frame: first(60) + 1, changed: 1 },
      { fps: 50, frame: first(50) + 1, changed: 1 },
      { fps: 25, frame: first(25) + 1, changed: 1 },
    ]);

    // Second round, submitted at 40 ms: each result is a frame of its own rate current at its tick.
    const [b25, b50, b60] = [h.patch('ch_25', 2), h.patch('ch_50', 2), h.patch('ch_60', 2)];
    await h.advance(200);
    expect(b60.value?.frame).toBe(first(60) + 3); // 50 ms
    expect(b50.value?.frame).toBe(first(50) + 3); // 60 ms
    expect(b25.value?.frame).toBe(first(25) + 2); // 80 ms
    for (const f of h.frames) {
      const fps = Number(f.channelId.slice(3)) as FrameRate;
      expect(f.frame - first(fps)).toBeLessThan(10); // never a frame number of another rate
    }
    expect(
      h.engine
        .clockStats()
        .map((s) => s.fps)
        .sort(),
    ).toEqual([25, 50, 60]);
  });

  it('a channel whose fps changes moves to the new group, queued ops with it', async () => {
    const h = setup([stored('ch_a', 60)]);
    const queued = h.patch('ch_a', 1);
    h.engine.updateChannel({ ...h.engine.channelRecord('ch_a'), fps: 25 });
    await h.advance(17);
    expect(queued.value).toBeUndefined(); // the 60 fps clock no longer serves it
    await h.advance(23);
    expect(queued.value?.frame).toBe(first(25) + 1);
    expect(h.frames).toHaveLength(1);
    expect(h.frames[0]).toMatchObject({ frame: first(25) + 1, fps: 25, inputs: { score: 1 } });
    expect(h.engine.state('ch_a').fps).toBe(25);

    const later = h.patch('ch_a', 2);
    await h.advance(40);
    expect(later.value?.frame).toBe(first(25) + 2);
    const stats = Object.fromEntries(h.engine.clockStats().map((s) => [s.fps, s.ticks]));
    expect(stats[25]).toBe(2);
    expect(h.ticks.filter((t) => t.fps === 60 && t.changed > 0)).toEqual([]);
  });

  it('10,000 idle channels and 1 active: the tick changes one channel and commits one change', async () => {
    const channels = Array.from({ length: 10_001 }, (_, i) => stored(`ch_${String(i).padStart(5, '0')}`, 60));
    const h = setup(channels);
    const result = h.patch('ch_05000', 42);
    await h.advance(17);
    expect(result.value).toEqual({ frame: first(60) + 1, applied: { score: 42 } });
    expect(h.ticks).toEqual([{ fps: 60, frame: first(60) + 1, changed: 1 }]);
    expect(h.committer.ticks).toHaveLength(1);
    expect(h.committer.ticks[0]!.changes.map((c) => c.channelId)).toEqual(['ch_05000']);
    expect(h.frames.map((f) => f.channelId)).toEqual(['ch_05000']);
    await h.advance(1000);
    expect(h.committer.ticks).toHaveLength(1);
    expect(h.engine.channelCount()).toBe(10_001);
  });
});
