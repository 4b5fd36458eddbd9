/**
 * The Store's guarantees for a channel's prepared show (rundowns, schedule, on-air history: written by its ticks) and
 * for scene versions (written with each save of a scene), run against every implementation by storeContracts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../engine/index.js';
import { historyAction } from '../engine/index.js';
import type { StoreHarness } from './store.contract.js';
import {
  change,
  channelRecord,
  event,
  historyRecord,
  ISO,
  KEY_ACTOR,
  LATER,
  rundownRecord,
  scheduledOp,
  sceneRecord,
} from './store.fixtures.js';
import { HISTORY_LOADED } from './show-rows.js';
import { SCENE_VERSIONS_KEPT, type Store } from './store.js';

export function showStoreContract(name: string, factory: () => StoreHarness | Promise<StoreHarness>): void {
  describe(`Store contract, prepared show and scene versions: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let channels: ChannelRecord[];

    beforeEach(async () => {
      harness = await factory();
      store = await harness.open();
      const orgId = (await store.defaultOrg()).id;
      channels = [channelRecord(orgId, 'main'), channelRecord(orgId, 'side')];
      for (const c of channels) await store.insertChannel(c);
    });

    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    async function reopen(): Promise<Store> {
      await store.close();
      store = await harness.open();
      return store;
    }

    /** The live state of each channel, as a restart loads it. */
    async function loadedLive() {
      const loaded = await (await reopen()).loadChannels();
      return channels.map((c) => loaded.find((s) => s.channel.id === c.id)!.live);
    }

    it('a tick writes rundowns, the schedule and history; they load after a reopen, in order', async () => {
      const [c, d] = channels as [ChannelRecord, ChannelRecord];
      // Created in this order; ids alone would sort them the other way.
      const late = { ...rundownRecord(c.id, 'Late'), createdAt: LATER };
      const early = rundownRecord(c.id, 'Early', ISO);
      const schedule = [scheduledOp(100), scheduledOp(250, LATER), scheduledOp(250, ISO)];
      const history = [historyRecord(10), historyRecord(11)];
      await store.commitTick(12, [
        change(c, { rundowns: [late, early], schedule, history, frame: 12 }),
        change(d, { rundowns: [rundownRecord(d.id, 'Other')], frame: 12 }),
      ]);
      const [main, side] = await loadedLive();
      expect([...main!.rundowns.values()]).toEqual([early, late]);
      expect([...main!.rundowns.keys()]).toEqual([early.id, late.id]);
      // As the engine held it: soonest first, ties in the order it had them.
      expect(main!.schedule).toEqual(schedule);
      expect(main!.history).toEqual(history);
      expect([...side!.rundowns.values()].map((r) => r.name)).toEqual(['Other']);
      expect(side).toMatchObject({ schedule: [], history: [] });
    });

    it('later ticks replace, delete and leave alone what they do not carry', async () => {
      const [c] = channels as [ChannelRecord];
      const [a, b] = [rundownRecord(c.id, 'A'), rundownRecord(c.id, 'B')];
      const [h1, h2, h3] = [historyRecord(1), historyRecord(2), historyRecord(3)];
      const ops = [scheduledOp(50), scheduledOp(60)];
      await store.commitTick(3, [change(c, { rundowns: [a, b], schedule: ops, history: [h1, h2, h3], frame: 3 })]);
      // A tick that carries none of the show keeps it as it was.
      await store.commitTick(4, [change(c, { set: { score: 1 }, frame: 4 })]);
      expect((await loadedLive())[0]).toMatchObject({ schedule: ops, history: [h1, h2, h3] });

      const renamed = { ...a, name: 'A2', version: 2, updatedAt: LATER, focus: a.items[0]!.id };
      // Two value changes coalesced: the entry keeps its id, its after is the later one's.
      const coalesced = { ...h3, after: { ...h3.after!, values: { score: 3 } } };
      await store.commitTick(5, [
        change(c, {
          rundowns: [renamed],
          removedRundowns: [b.id],
          schedule: [ops[1]!],
          history: [coalesced],
          removedHistory: [h1.id],
          frame: 5,
        }),
      ]);
      const [live] = await loadedLive();
      expect([...live!.rundowns.values()]).toEqual([renamed]);
      expect(live!.schedule).toEqual([ops[1]]);
      expect(live!.history).toEqual([h2, coalesced]);
      await store.commitTick(6, [change(c, { schedule: [], frame: 6 })]);
      expect((await loadedLive())[0]!.schedule).toEqual([]);
    });

    it(`loads each channel's last ${HISTORY_LOADED} history entries, oldest first`, async () => {
      const [c, d] = channels as [ChannelRecord, ChannelRecord];
      const history = Array.from({ length: HISTORY_LOADED + 5 }, (_, i) => historyRecord(i));
      await store.commitTick(1, [
        change(c, { history: history.slice(0, 100), frame: 1 }),
        change(d, { history: [historyRecord(1)], frame: 1 }),
      ]);
      await store.commitTick(2, [change(c, { history: history.slice(100), frame: 2 })]);
      const [main, side] = await loadedLive();
      expect(main!.history).toEqual(history.slice(5));
      expect(side!.history).toHaveLength(1);
    });

    it('listHistory pages newest first, without what the actions touched', async () => {
      const [c, d] = channels as [ChannelRecord, ChannelRecord];
      const history = Array.from({ length: 5 }, (_, i) => historyRecord(i));
      const undo = { ...historyRecord(5), kind: 'undo' as const, of: history[4]!.id };
      delete undo.before;
      delete undo.after;
      await store.commitTick(6, [
        change(c, { history: [...history, undo], frame: 6 }),
        change(d, { history: [historyRecord(6)], frame: 6 }),
      ]);
      const newest = [undo, ...history.reverse()].map(historyAction);
      expect(newest[0]).toEqual({
        id: undo.id,
        kind: 'undo',
        actor: KEY_ACTOR,
        frame: 5,
        at: LATER,
        of: history[0]!.id,
      });
      expect(await store.listHistory(c.id, { limit: 4 })).toEqual({
        data: newest.slice(0, 4),
        nextCursor: newest[3]!.id,
      });
      expect(await store.listHistory(c.id, { limit: 4, cursor: newest[3]!.id })).toEqual({
        data: newest.slice(4),
        nextCursor: null,
      });
      expect(await (await reopen()).listHistory(c.id, { limit: 6 })).toEqual({ data: newest, nextCursor: null });
      expect(await store.listHistory('ch_missing', { limit: 6 })).toEqual({ data: [], nextCursor: null });
    });

    it('a tick that fails writes none of the show', async () => {
      const [c] = channels as [ChannelRecord];
      const tick = [
        change(c, {
          rundowns: [rundownRecord(c.id, 'A')],
          schedule: [scheduledOp(9)],
          history: [historyRecord(9)],
          events: [event(c, 'channel.played')],
          frame: 9,
        }),
        change({ ...c, id: 'ch_missing' }, { set: { score: 9 }, frame: 9 }),
      ];
      await expect(Promise.resolve().then(() => store.commitTick(9, tick))).rejects.toThrow();
      expect((await loadedLive())[0]).toMatchObject({ rundowns: new Map(), schedule: [], history: [] });
      expect(await store.listHistory(c.id, { limit: 10 })).toEqual({ data: [], nextCursor: null });
    });

    it("deleting a channel deletes its rundowns, schedule, history and scenes' versions", async () => {
      const [c, d] = channels as [ChannelRecord, ChannelRecord];
      const scene = sceneRecord(c.id, 'board');
      await store.insertScene(scene, KEY_ACTOR);
      const show = (ch: ChannelRecord) => ({
        rundowns: [rundownRecord(ch.id, 'A')],
        schedule: [scheduledOp(9)],
        history: [historyRecord(9)],
      });
      const kept = show(d);
      await store.commitTick(9, [change(c, { ...show(c), frame: 9 }), change(d, { ...kept, frame: 9 })]);
      await store.deleteChannel(c.id);
      await store.insertChannel(c);
      const [main, side] = await loadedLive();
      expect(main).toMatchObject({ rundowns: new Map(), schedule: [], history: [] });
      expect(await store.listHistory(c.id, { limit: 10 })).toEqual({ data: [], nextCursor: null });
      expect(await store.listSceneVersions(scene.id)).toEqual([]);
      expect(side).toMatchObject({ schedule: kept.schedule, history: kept.history });
    });

    describe('scene versions', () => {
      const USER = { type: 'user' as const, id: 'usr_1', name: 'op@example.com' };

      it('each save is a version, newest first, with who saved it; each one reads back whole', async () => {
        const [c] = channels as [ChannelRecord];
        const v1 = sceneRecord(c.id, 'board');
        const v2 = { ...v1, name: 'board 2', definition: { ...v1.definition, layer: 4 }, updatedAt: LATER };
        const v3 = { ...v2, definition: { ...v2.definition, triggers: [] }, updatedAt: '2024-03-01T12:09:00.000Z' };
        await store.insertScene(v1, KEY_ACTOR);
        await store.updateScene(v2, USER);
        await store.updateScene(v3, KEY_ACTOR);
        await reopen();
        expect(await store.listSceneVersions(v1.id)).toEqual([
          { version: 3, name: 'board 2', savedAt: v3.updatedAt, savedBy: KEY_ACTOR },
          { version: 2, name: 'board 2', savedAt: LATER, savedBy: USER },
          { version: 1, name: 'board', savedAt: ISO, savedBy: KEY_ACTOR },
        ]);
        expect(await store.getSceneVersion(v1.id, 2)).toEqual({
          sceneId: v1.id,
          version: 2,
          name: 'board 2',
          definition: v2.definition,
          savedAt: LATER,
          savedBy: USER,
        });
        expect((await store.getSceneVersion(v1.id, 1))!.definition).toEqual(v1.definition);
        expect(await store.getSceneVersion(v1.id, 4)).toBeUndefined();
        expect(await store.listSceneVersions('sc_missing')).toEqual([]);
      });

      it(`keeps the last ${SCENE_VERSIONS_KEPT}; a deleted scene takes its versions with it`, async () => {
        const [c] = channels as [ChannelRecord];
        const scene = sceneRecord(c.id, 'board');
        await store.insertScene(scene, KEY_ACTOR);
        for (let i = 2; i <= SCENE_VERSIONS_KEPT + 5; i++) await store.updateScene({ ...scene, name: `v${i}` }, USER);
        const versions = await store.listSceneVersions(scene.id);
        expect(versions.map((v) => v.version)).toEqual(
          Array.from({ length: SCENE_VERSIONS_KEPT }, (_, i) => SCENE_VERSIONS_KEPT + 5 - i),
        );
        expect(await store.getSceneVersion(scene.id, 5)).toBeUndefined();
        expect((await store.getSceneVersion(scene.id, 6))!.name).toBe('v6');
        await store.deleteScene(scene.id);
        expect(await store.listSceneVersions(scene.id)).toEqual([]);
        // Saving a scene that is gone (deleted meanwhile) saves nothing, versions included.
        await store.updateScene(scene, USER);
        expect(await store.listSceneVersions(scene.id)).toEqual([]);
        expect((await store.loadChannels())[0]!.scenes).toEqual([]);
      });
    });
  });
}
