/**
 * The as-run side of a tick (./as-run.ts, docs/as-run.md): each committed change says which instances went on program
 * and which left it, at which frame and by whom, so the store writes the log in the tick's own transaction.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@onair/protocol';
import type { AsRunChange } from './as-run.js';
import { API_BY } from './engine.fixtures.js';
import { CH, HOOK_BY, patch, RATE, setup, USER_BY, withRundown, type Harness } from './engine-show.fixtures.js';
import { frameStart } from './frame-rate.js';

/** The as-run part of every committed change of the channel, in order (ticks without one left out). */
function runs(h: Harness): AsRunChange[] {
  return h.committer.ticks.flatMap((t) => t.changes.filter((c) => c.channelId === CH).flatMap((c) => c.asRun ?? []));
}

const at = (frame: number) => new Date(Math.round(frameStart(RATE, frame))).toISOString();

describe('as-run of a tick', () => {
  it('take, update, take another, clear: two intervals, the frames and actors of the ops that bounded them', async () => {
    const h = setup();
    await h.run(CH, patch('score', 3));
    await h.run(CH, { kind: 'cue', sceneId: 'sc_lower', values: { name: 'Ada', title: 'Coach' } });
    const a = await h.run(CH, { kind: 'take' }, USER_BY);
    await h.run(CH, { kind: 'update', layer: 2, values: { title: 'Head coach' } }, HOOK_BY);
    const b = await h.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'Bo' } });
    const end = await h.run(CH, { kind: 'clear' }, HOOK_BY);
    const [started, updated, replaced, cleared] = runs(h);
    expect(runs(h)).toHaveLength(4);
    expect(started).toEqual({
      ended: [],
      updated: [],
      started: [
        {
          id: expect.stringMatching(/^asr_/) as string,
          layer: 2,
          sceneId: 'sc_lower',
          sceneName: 'sc_lower',
          itemId: null,
          label: 'sc_lower',
          // What the frame drew: the instance's own values, and the channel's for the others.
          values: { name: 'Ada', title: 'Coach', score: 3 },
          startAt: at(a.frame),
          startFrame: a.frame,
          takenBy: USER_BY.actor,
        },
      ],
    });
    expect(updated).toEqual({
      ended: [],
      updated: [{ layer: 2, values: { name: 'Ada', title: 'Head coach' } }],
      started: [],
    });
    expect(replaced!.ended).toEqual([{ layer: 2, endAt: at(b.frame), endFrame: b.frame, clearedBy: API_BY.actor }]);
    expect(replaced!.started).toMatchObject([
      { sceneId: 'sc_lower', values: { name: 'Bo', title: '' }, takenBy: API_BY.actor },
    ]);
    // An interval's id repeats the digits of the `channel.played` event of its take.
    const played = h.events.filter((e) => e.type === 'channel.played').map((e) => `asr_${e.id.slice(4)}`);
    expect([started!.started[0]!.id, replaced!.started[0]!.id]).toEqual(played);
    expect(cleared).toEqual({
      ended: [{ layer: 2, endAt: at(end.frame), endFrame: end.frame, clearedBy: HOOK_BY.actor }],
      updated: [],
      started: [],
    });
  });

  it('labels an item by its label (or its scene when it has none) and records its values as taken', async () => {
    const h = setup();
    await withRundown(h);
    await h.run(CH, { kind: 'item.edit', rundownId: 'rd_1', itemId: 'it_1', version: 1, fields: { label: 'Guest' } });
    await h.run(CH, { kind: 'cut', itemId: 'it_1' });
    await h.run(CH, { kind: 'cut', itemId: 'it_3' });
    const started = runs(h).flatMap((r) => r.started);
    expect(started).toMatchObject([
      { itemId: 'it_1', label: 'Guest', sceneName: 'sc_lower', values: { name: 'A', title: '', score: 0 } },
      { itemId: 'it_3', label: 'sc_board', layer: 0, values: { score: 0 } },
    ]);
  });

  it('an instance replaced within the tick it went on never aired; a clear then a take splits the actors', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_board', by: API_BY }).catch(() => undefined);
    h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_board', values: {}, by: USER_BY }).catch(() => undefined);
    h.engine.submit(CH, { kind: 'clear', layer: 5, by: HOOK_BY }).catch(() => undefined);
    const last = h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_bug', by: USER_BY });
    await h.advance();
    const { frame } = await last;
    const tick = runs(h).at(-1)!;
    expect(tick.ended).toEqual([{ layer: 5, endAt: at(frame), endFrame: frame, clearedBy: HOOK_BY.actor }]);
    expect(tick.started.map((s) => [s.sceneId, s.takenBy])).toEqual([
      ['sc_board', USER_BY.actor],
      ['sc_bug', USER_BY.actor],
    ]);
  });

  it('a scene moved to another layer leaves program by the server’s own hand; a tick off the buses has none', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    await h.run(CH, patch('score', 1));
    expect(runs(h)).toHaveLength(1);
    const bug = h.engine.scenes(CH).find((s) => s.id === 'sc_bug')!;
    h.engine.upsertScene({ ...bug, definition: { ...bug.definition, layer: 6 } });
    await h.advance();
    expect(runs(h).at(-1)!.ended).toMatchObject([{ layer: 5, clearedBy: SYSTEM_ACTOR }]);
  });

  it('hands each committed as-run change to onAsRun, before the tick is durable', async () => {
    const h = setup();
    h.committer.deferFlush = true;
    const pending = h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_bug', by: API_BY });
    await h.advance();
    expect(h.asRun).toHaveLength(1);
    expect(h.asRun[0]).toMatchObject({ channelId: CH, asRun: { started: [{ sceneId: 'sc_bug' }] } });
    h.committer.flushes[0]!.resolve();
    await pending;
  });
});
