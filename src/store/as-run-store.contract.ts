/**
 * The guarantees of AsRunStore (see as-run-store.ts), as one suite every implementation runs, on a Store harness:
 * the lines come in with ticks (commitTick), the rest through the AsRunStore's own methods.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AsRunChange, AsRunStart, ChannelRecord } from '../engine/index.js';
import { newId } from '../ids.js';
import type { Actor } from '@onair/protocol';
import { MAX_CONFIRMING_OUTPUTS, type AsRunRecord } from './as-run-store.js';
import type { StoreHarness } from './store.contract.js';
import { change, channelRecord, KEY_ACTOR } from './store.fixtures.js';
import type { Store } from './store.js';

const USER: Actor = { type: 'user', id: 'usr_1', name: 'op@example.com' };
/** Frame `f` at 25 fps, as a time: 40 ms a frame from a round minute. */
const T = (f: number) => new Date(Date.parse('2024-03-01T12:00:00.000Z') + f * 40).toISOString();

function start(frame: number, over: Partial<AsRunStart> = {}): AsRunStart {
  return {
    id: `asr_${newId('evt').slice(4)}`,
    layer: 2,
    sceneId: 'sc_lower',
    sceneName: 'Lower third',
    itemId: null,
    label: 'Lower third',
    values: { name: 'Ünïcødé — 日本語', score: 3, live: true, rows: [{ team: 'A, "B"', pts: 1 }] },
    startAt: T(frame),
    startFrame: frame,
    takenBy: KEY_ACTOR,
    ...over,
  };
}

const lines = (over: Partial<AsRunChange>): AsRunChange => ({ ended: [], updated: [], started: [], ...over });
const ended = (layer: number, frame: number, clearedBy: Actor | null = USER) => ({
  layer,
  endAt: T(frame),
  endFrame: frame,
  clearedBy,
});

export function asRunStoreContract(name: string, factory: () => StoreHarness): void {
  describe(`AsRunStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let channel: ChannelRecord;

    beforeEach(async () => {
      harness = factory();
      store = await harness.open();
      channel = channelRecord((await store.defaultOrg()).id, 'as-run', 25);
      await store.insertChannel(channel);
    });

    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    /** Commits a tick of `channel` at `frame` carrying `asRun`. */
    async function tick(frame: number, asRun: AsRunChange, on: ChannelRecord = channel): Promise<void> {
      await store.commitTick(frame, [{ ...change(on, { frame }), asRun }]);
    }

    const all = async (on: ChannelRecord = channel) => (await store.asRun.list(on.id, { limit: 100 })).records;

    it('opens an interval with its take, keeps the update and closes it with the clear, after a reopen', async () => {
      const a = start(10);
      await tick(10, lines({ started: [a] }));
      await tick(20, lines({ updated: [{ layer: 2, values: { name: 'Bo' } }] }));
      const [open] = await all();
      expect(open).toEqual<AsRunRecord>({
        ...a,
        channelId: channel.id,
        updatedValues: { name: 'Bo' },
        endAt: null,
        endFrame: null,
        clearedBy: null,
        confirmedAt: null,
        confirmedBy: [],
        endInferred: false,
      });
      await tick(35, lines({ ended: [ended(2, 35)] }));
      store = await reopen();
      expect(await all()).toEqual([{ ...open, endAt: T(35), endFrame: 35, clearedBy: USER }]);
    });

    it('applies a tick’s ends before its starts: one open interval per layer, others untouched', async () => {
      const bug = start(1, { layer: 5, sceneId: 'sc_bug' });
      const a = start(10);
      await tick(10, lines({ started: [bug, a] }));
      const b = start(20, { itemId: 'it_1', label: 'Guest' });
      await tick(20, lines({ ended: [ended(2, 20, KEY_ACTOR)], started: [b] }));
      // An end for a layer with nothing open changes nothing.
      await tick(21, lines({ ended: [ended(7, 21)] }));
      const byId = new Map((await all()).map((r) => [r.id, r]));
      expect([...byId.keys()]).toEqual([bug.id, a.id, b.id].sort());
      expect(byId.get(a.id)).toMatchObject({ endFrame: 20, clearedBy: KEY_ACTOR });
      expect(byId.get(b.id)).toMatchObject({ endAt: null, itemId: 'it_1', label: 'Guest' });
      expect(byId.get(bug.id)).toMatchObject({ endAt: null });
      expect((await store.asRun.listOpen()).map((o) => o.id).sort()).toEqual([bug.id, b.id].sort());
    });

    it('writes a tick’s lines all or none: a failing tick leaves the log as it was', async () => {
      await tick(10, lines({ started: [start(10)] }));
      const before = await all();
      const gone = { ...channel, id: 'ch_missing' };
      const bad = [
        { ...change(channel, { frame: 20 }), asRun: lines({ ended: [ended(2, 20)], started: [start(20)] }) },
        { ...change(gone, { frame: 20, set: { score: 1 } }), asRun: lines({ started: [start(20)] }) },
      ];
      await expect(Promise.resolve().then(() => store.commitTick(20, bad))).rejects.toThrow();
      expect(await all()).toEqual(before);
    });

    it('lists the intervals that overlap [from, to), an open one reaching to now, a page at a time', async () => {
      const made: AsRunStart[] = [];
      for (let i = 0; i < 5; i++) {
        made.push(start(i * 100));
        const end = i === 0 ? [] : [ended(2, i * 100)];
        await tick(i * 100, lines({ ended: end, started: [made[i]!] }));
      }
      const ids = (records: AsRunRecord[]) => records.map((r) => r.id);
      // [0,100) [100,200) [200,300) [300,400) [400, open)
      const q = (from?: number, to?: number) =>
        store.asRun.list(channel.id, {
          limit: 100,
          from: from === undefined ? undefined : T(from),
          to: to === undefined ? undefined : T(to),
        });
      expect(ids((await q(150, 250)).records)).toEqual([made[1]!.id, made[2]!.id]);
      expect(ids((await q(100, 200)).records)).toEqual([made[1]!.id]);
      expect(ids((await q(5000)).records)).toEqual([made[4]!.id]);
      expect(ids((await q(undefined, 100)).records)).toEqual([made[0]!.id]);

      const first = await store.asRun.list(channel.id, { limit: 2, from: T(50) });
      expect(ids(first.records)).toEqual([made[0]!.id, made[1]!.id]);
      expect(first.nextCursor).toBe(made[1]!.id);
      const second = await store.asRun.list(channel.id, { limit: 2, from: T(50), after: first.nextCursor! });
      expect(ids(second.records)).toEqual([made[2]!.id, made[3]!.id]);
      const last = await store.asRun.list(channel.id, { limit: 2, from: T(50), after: second.nextCursor! });
      expect(last).toEqual({ records: [expect.objectContaining({ id: made[4]!.id })], nextCursor: null });
    });

    it('closes open intervals by id and opens others in one go; a closed one stays as it was', async () => {
      const a = start(10);
      const bug = start(10, { layer: 5, sceneId: 'sc_bug' });
      await tick(10, lines({ started: [a, bug] }));
      await tick(30, lines({ ended: [ended(5, 30)] }));
      await store.asRun.seen(T(40));
      expect(await store.asRun.listOpen()).toEqual([
        { id: a.id, channelId: channel.id, layer: 2, startAt: T(10), startFrame: 10, seenAt: T(40) },
      ]);
      const again = start(90, { takenBy: { type: 'system', id: 'restart', name: 'restart' } });
      await store.asRun.close(
        [
          { id: a.id, endAt: T(40), endFrame: 40, inferred: true },
          { id: bug.id, endAt: T(90), endFrame: 90, inferred: true },
        ],
        [{ channelId: channel.id, start: again }],
      );
      const byId = new Map((await all()).map((r) => [r.id, r]));
      expect(byId.get(a.id)).toMatchObject({ endAt: T(40), endFrame: 40, endInferred: true, clearedBy: null });
      expect(byId.get(bug.id)).toMatchObject({ endFrame: 30, endInferred: false, clearedBy: USER });
      expect(byId.get(again.id)).toMatchObject({ endAt: null, takenBy: again.takenBy });
      expect((await store.asRun.listOpen()).map((o) => o.id)).toEqual([again.id]);
    });

    it('keeps the first confirmation time and each output once, up to the cap; false for no interval', async () => {
      const a = start(10);
      await tick(10, lines({ started: [a] }));
      expect(await store.asRun.confirm(a.id, 'out_b', T(12))).toBe(true);
      expect(await store.asRun.confirm(a.id, 'out_a', T(11))).toBe(true);
      expect(await store.asRun.confirm(a.id, 'out_b', T(13))).toBe(true);
      expect(await store.asRun.confirm('asr_none', 'out_a', T(13))).toBe(false);
      expect((await all())[0]).toMatchObject({ confirmedAt: T(11), confirmedBy: ['out_b', 'out_a'] });
      for (let i = 0; i < MAX_CONFIRMING_OUTPUTS + 3; i++) await store.asRun.confirm(a.id, `out_${i}`, T(20));
      expect((await all())[0]!.confirmedBy).toHaveLength(MAX_CONFIRMING_OUTPUTS);
    });

    it('finds the interval a painted frame belongs to by layer, scene, item and frame', async () => {
      const a = start(10);
      const again = start(50);
      const item = start(80, { itemId: 'it_1' });
      await tick(10, lines({ started: [a] }));
      await tick(50, lines({ ended: [ended(2, 50)], started: [again] }));
      await tick(80, lines({ ended: [ended(2, 80)], started: [item] }));
      const find = (frame: number, itemId: string | null = null, sceneId = 'sc_lower') =>
        store.asRun.findPainted({ channelId: channel.id, layer: 2, sceneId, itemId, frame });
      expect(await find(49)).toEqual({ id: a.id, startFrame: 10, endFrame: 50 });
      expect(await find(50)).toEqual({ id: again.id, startFrame: 50, endFrame: 80 });
      expect(await find(9000, 'it_1')).toEqual({ id: item.id, startFrame: 80, endFrame: null });
      expect(await find(90)).toBeUndefined();
      expect(await find(60, null, 'sc_other')).toBeUndefined();
    });

    it('prunes intervals that ended before the cut-off, never an open one; deleting the channel deletes its log', async () => {
      const old = start(0, { layer: 1 });
      const recent = start(0, { layer: 3 });
      const open = start(0);
      await tick(0, lines({ started: [old, recent, open] }));
      await tick(100, lines({ ended: [ended(1, 100)] }));
      await tick(300, lines({ ended: [ended(3, 300)] }));
      expect(await store.asRun.prune(T(200))).toBe(1);
      expect((await all()).map((r) => r.id).sort()).toEqual([recent.id, open.id].sort());
      const other = channelRecord(channel.orgId, 'other', 25);
      await store.insertChannel(other);
      await tick(5, lines({ started: [start(5)] }), other);
      await store.deleteChannel(channel.id);
      expect(await all()).toEqual([]);
      expect(await store.asRun.listOpen()).toEqual([expect.objectContaining({ channelId: other.id })]);
    });

    async function reopen(): Promise<Store> {
      await store.close();
      return harness.open();
    }
  });
}
