/**
 * The guarantees of Store (see store.ts), as one suite every implementation runs:
 * `storeContract('SqliteStore', () => harness)`. A harness opens stores on one backing storage, so a
 * test can close a store and open a new one on the same data, as a restart would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelChange, ChannelRecord, EngineEvent } from '../engine/index.js';
import type { InputValue } from '@onair/protocol';
import { accountStoreContract } from './account-store.contract.js';
import { idempotencyStoreContract } from './idempotency-store.contract.js';
import { assetStoreContract } from './asset-store.contract.js';
import { graphicStoreContract } from './graphic-store.contract.js';
import { incomingHookStoreContract } from './incoming-hook-store.contract.js';
import { showStoreContract } from './show-store.contract.js';
import { sourceStoreContract } from './source-store.contract.js';
import type { Store } from './store.js';
import {
  change,
  channelRecord,
  event,
  ISO,
  KEY_ACTOR,
  keyRecord,
  LATER,
  onBus,
  sceneRecord,
} from './store.fixtures.js';
import { webhookStoreContract } from './webhook-store.contract.js';
import { asRunStoreContract } from './as-run-store.contract.js';

/** The prepared show of a channel that has none. */
const EMPTY_SHOW = { rundowns: new Map(), schedule: [], history: [] };

export interface StoreHarness {
  /** A store on the harness's storage; after close(), the next open() sees everything committed. */
  open(): Promise<Store>;
  /** Removes the storage. */
  dispose(): Promise<void>;
}

/**
 * Every suite a Store implementation runs on one harness: the Store's own and those of its parts (accounts,
 * webhooks, incoming hooks, data sources, idempotency keys, the as-run log).
 */
export function storeContracts(name: string, harness: () => StoreHarness): void {
  storeContract(name, harness);
  showStoreContract(name, harness);
  accountStoreContract(name, harness);
  webhookStoreContract(name, harness);
  incomingHookStoreContract(name, harness);
  sourceStoreContract(name, harness);
  assetStoreContract(name, harness);
  graphicStoreContract(name, harness);
  idempotencyStoreContract(name, harness);
  asRunStoreContract(name, harness);
}

export function storeContract(name: string, factory: () => StoreHarness | Promise<StoreHarness>): void {
  describe(`Store contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let orgId: string;

    beforeEach(async () => {
      harness = await factory();
      store = await harness.open();
      orgId = (await store.defaultOrg()).id;
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

    async function insertChannels(n: number): Promise<ChannelRecord[]> {
      const out: ChannelRecord[] = [];
      for (let i = 0; i < n; i++) out.push(channelRecord(orgId, `c${i}`));
      for (const c of out) await store.insertChannel(c);
      return out;
    }

    const ids = (list: { id: string }[]) => list.map((c) => c.id);

    it('defaultOrg is created once and survives a reopen', async () => {
      const again = await store.defaultOrg();
      expect(again.id).toBe(orgId);
      expect((await (await reopen()).defaultOrg()).id).toBe(orgId);
    });

    it('lists channels in creation order, with an exclusive after cursor and a limit', async () => {
      const chans = await insertChannels(5);
      expect(await store.listChannels(orgId, { limit: 50 })).toEqual(chans);
      expect(ids(await store.listChannels(orgId, { limit: 2 }))).toEqual(ids(chans.slice(0, 2)));
      expect(ids(await store.listChannels(orgId, { limit: 50, after: chans[1]!.id }))).toEqual(ids(chans.slice(2)));
      expect(await store.listChannels(orgId, { limit: 50, after: chans[4]!.id })).toEqual([]);
      const paged: string[] = [];
      for (let after: string | undefined; ;) {
        const page = await store.listChannels(orgId, { limit: 2, after });
        if (page.length === 0) break;
        paged.push(...ids(page));
        after = page.at(-1)!.id;
      }
      expect(paged).toEqual(ids(chans));
      expect(await store.listChannels('org_other', { limit: 50 })).toEqual([]);
    });

    it('onlyIds restricts the list, keeps creation order and combines with after and limit', async () => {
      const chans = await insertChannels(5);
      const only = [chans[3]!.id, chans[0]!.id, chans[4]!.id, 'ch_missing'];
      expect(ids(await store.listChannels(orgId, { limit: 50, onlyIds: only }))).toEqual(
        ids([chans[0]!, chans[3]!, chans[4]!]),
      );
      expect(ids(await store.listChannels(orgId, { limit: 1, onlyIds: only, after: chans[0]!.id }))).toEqual([
        chans[3]!.id,
      ]);
      expect(await store.listChannels(orgId, { limit: 50, onlyIds: [] })).toEqual([]);
    });

    it('updates a channel record without touching its live state', async () => {
      const [c] = await insertChannels(1);
      await store.commitTick(10, [change(c!, { set: { score: 3 }, frame: 10 })]);
      const updated: ChannelRecord = { ...c!, name: 'renamed', fps: 59.94, outputToken: 'rotated', updatedAt: LATER };
      await store.updateChannel(updated);
      expect(await store.listChannels(orgId, { limit: 50 })).toEqual([updated]);
      const [loaded] = await (await reopen()).loadChannels();
      expect(loaded!.channel).toEqual(updated);
      expect(loaded!.live).toMatchObject({ values: new Map([['score', 3]]), frame: 10 });
    });

    it('inserts, updates and deletes scenes', async () => {
      const [c] = await insertChannels(1);
      const a = sceneRecord(c!.id, 'a');
      const b = sceneRecord(c!.id, 'b');
      await store.insertScene(a, KEY_ACTOR);
      await store.insertScene(b, KEY_ACTOR);
      const a2 = {
        ...a,
        name: 'a2',
        definition: { ...a.definition, layer: 3, triggers: [{ name: 'out', animation: 'pulse' as const }] },
        updatedAt: LATER,
      };
      await store.updateScene(a2, KEY_ACTOR);
      expect((await store.loadChannels())[0]!.scenes).toEqual([a2, b]);
      await store.deleteScene(b.id);
      expect((await (await reopen()).loadChannels())[0]!.scenes).toEqual([a2]);
    });

    it('deleting a channel deletes its scenes and inputs', async () => {
      const [c, other] = await insertChannels(2);
      await store.insertScene(sceneRecord(c!.id, 's'), KEY_ACTOR);
      const kept = sceneRecord(other!.id, 'kept');
      await store.insertScene(kept, KEY_ACTOR);
      await store.commitTick(5, [
        change(c!, { set: { score: 1 }, frame: 5 }),
        change(other!, { set: { score: 2 }, frame: 5 }),
      ]);
      await store.deleteChannel(c!.id);
      expect(ids(await store.listChannels(orgId, { limit: 50 }))).toEqual([other!.id]);
      // The same id again must start empty: no orphan scenes or values come back with it.
      await store.insertChannel(c!);
      const loaded = await (await reopen()).loadChannels();
      const back = loaded.find((s) => s.channel.id === c!.id)!;
      expect(back.scenes).toEqual([]);
      expect(back.live).toMatchObject({ values: new Map(), clocks: new Map(), program: [], preview: [], frame: 0 });
      const survivor = loaded.find((s) => s.channel.id === other!.id)!;
      expect(survivor.scenes).toEqual([kept]);
      expect(survivor.live.values).toEqual(new Map([['score', 2]]));
    });

    it('stores keys: findKeyByHash, countKeys, touchKey', async () => {
      expect(await store.countKeys()).toBe(0);
      const all = keyRecord(orgId, 'a'.repeat(64), null);
      const locked = keyRecord(orgId, 'b'.repeat(64), ['ch_1', 'ch_2']);
      await store.insertKey(all);
      await store.insertKey(locked);
      expect(await store.countKeys()).toBe(2);
      expect(await store.findKeyByHash(all.hash)).toEqual(all);
      expect(await store.findKeyByHash(locked.hash)).toEqual(locked);
      expect(await store.findKeyByHash('c'.repeat(64))).toBeUndefined();
      await store.touchKey(locked.id, LATER);
      await reopen();
      expect(await store.findKeyByHash(locked.hash)).toEqual({ ...locked, lastUsedAt: LATER });
      expect((await store.findKeyByHash(all.hash))!.lastUsedAt).toBeNull();
      expect(await store.countKeys()).toBe(2);
    });

    it('getKey, listKeys (creation order, after exclusive, revoked included), revokeKey', async () => {
      const keys = ['a', 'b', 'c'].map((h) => keyRecord(orgId, h.repeat(64), null));
      for (const k of keys) await store.insertKey(k);
      expect(await store.getKey(keys[1]!.id)).toEqual(keys[1]);
      expect(await store.getKey('key_missing')).toBeUndefined();
      expect(await store.listKeys(orgId, { limit: 50 })).toEqual(keys);
      expect(ids(await store.listKeys(orgId, { limit: 1, after: keys[0]!.id }))).toEqual([keys[1]!.id]);
      expect(await store.listKeys('org_other', { limit: 50 })).toEqual([]);
      expect(await store.countActiveKeys(orgId)).toBe(3);
      await store.revokeKey(keys[2]!.id, ISO);
      await store.revokeKey(keys[2]!.id, LATER); // the first revocation time stands
      await reopen();
      expect(await store.countActiveKeys(orgId)).toBe(2);
      expect(await store.countActiveKeys('org_other')).toBe(0);
      expect(await store.getKey(keys[2]!.id)).toEqual({ ...keys[2], revokedAt: ISO });
      expect(ids(await store.listKeys(orgId, { limit: 50 }))).toEqual(ids(keys));
    });

    it('a new channel loads with an empty live state', async () => {
      const [c] = await insertChannels(1);
      expect(await store.loadChannels()).toEqual([
        {
          channel: c,
          scenes: [],
          live: {
            ...EMPTY_SHOW,
            values: new Map(),
            clocks: new Map(),
            program: [],
            preview: [],
            frame: 0,
            updatedAt: ISO,
          },
        },
      ]);
    });

    it('loadChannels after a reopen returns channels, scenes and live state as committed', async () => {
      const c = channelRecord(orgId, 'main', 29.97);
      const d = channelRecord(orgId, 'side', 59.94);
      await store.insertChannel(c);
      await store.insertChannel(d);
      const board = sceneRecord(c.id, 'board');
      const lower = sceneRecord(c.id, 'lower');
      await store.insertScene(board, KEY_ACTOR);
      await store.insertScene(lower, KEY_ACTOR);
      const program = [onBus(board.id, 0, LATER), onBus(lower.id, 7, ISO)];
      const values = { score: 2.5, title: 'Ünïcødé — 日本語 😀', live: true, off: false, accent: '#ff8800cc' };
      await store.commitTick(101_898_101_898, [
        change(c, { set: values, program, preview: [onBus(lower.id, 7)], frame: 101_898_101_898 }),
      ]);
      await store.commitTick(101_898_101_905, [
        change(
          c,
          { set: { off: null, score: 3 }, preview: [], frame: 101_898_101_905 },
          new Map(Object.entries(values)),
        ),
      ]);
      const loaded = await (await reopen()).loadChannels();
      expect(loaded.map((s) => s.channel)).toEqual([c, d]);
      const main = loaded[0]!;
      expect(main.scenes).toEqual([board, lower]);
      const expected = new Map<string, InputValue>(Object.entries({ ...values, score: 3 }));
      expected.delete('off');
      expect(main.live).toEqual({
        ...EMPTY_SHOW,
        values: expected,
        clocks: new Map(),
        program,
        preview: [],
        frame: 101_898_101_905,
        updatedAt: LATER,
      });
      expect(loaded[1]!.live).toMatchObject({ values: new Map(), program: [], frame: 0 });
    });

    it('commitTick writes a tick of hundreds of channels whole: every value, every live state', async () => {
      const chans = await insertChannels(301);
      await store.commitTick(
        42,
        chans.map((c, i) => change(c, { set: { score: i, team: `t${i}` }, frame: 42 + i })),
      );
      const loaded = new Map((await (await reopen()).loadChannels()).map((s) => [s.channel.id, s.live]));
      chans.forEach((c, i) => {
        expect(loaded.get(c.id), c.name).toMatchObject({
          values: new Map<string, InputValue>([
            ['score', i],
            ['team', `t${i}`],
          ]),
          frame: 42 + i,
        });
      });
    });

    it('commitTick writes a bus only when the change carries it, and clears it when it is empty', async () => {
      const [c] = await insertChannels(1);
      const s = sceneRecord(c!.id, 's');
      await store.insertScene(s, KEY_ACTOR);
      const program = [onBus(s.id, 0, LATER)];
      await store.commitTick(1, [change(c!, { program, preview: [onBus(s.id, 0)], frame: 1 })]);
      await store.commitTick(2, [change(c!, { set: { score: 1 }, frame: 2 })]);
      expect((await store.loadChannels())[0]!.live).toMatchObject({ program, preview: [{ sceneId: s.id }], frame: 2 });
      await store.commitTick(3, [change(c!, { program: [], frame: 3 })]);
      expect((await (await reopen()).loadChannels())[0]!.live).toMatchObject({
        program: [],
        preview: [{ sceneId: s.id, layer: 0 }],
        frame: 3,
      });
    });

    it('commitTick writes clock states, replaces them and forgets them; they load with the channel', async () => {
      const [c, d] = await insertChannels(2);
      const running = { running: true, ms: 600_000, at: 1_700_000_000_123 };
      const stopped = { running: false, ms: 12_345.5, at: 1_700_000_009_000 };
      await store.commitTick(1, [
        change(c!, { clocks: { game: running, shot: stopped }, frame: 1 }),
        change(d!, { clocks: { game: stopped }, frame: 1 }),
      ]);
      await store.commitTick(2, [change(c!, { clocks: { game: stopped, shot: null }, frame: 2 })]);
      const loaded = await (await reopen()).loadChannels();
      expect(loaded.map((s) => s.live.clocks)).toEqual([new Map([['game', stopped]]), new Map([['game', stopped]])]);
      await store.deleteChannel(d!.id);
      await store.insertChannel(d!);
      expect((await store.loadChannels())[1]!.live.clocks).toEqual(new Map());
    });

    it('commitTick keeps the period of a clock with periods, and loads a first-period clock without one', async () => {
      const [c] = await insertChannels(1);
      const second = { running: true, ms: 2_700_000, at: 1_700_000_000_000, period: 1 };
      const first = { running: false, ms: 0, at: 1_700_000_000_500 };
      await store.commitTick(1, [change(c!, { clocks: { match: second, game: first }, frame: 1 })]);
      const [loaded] = await (await reopen()).loadChannels();
      expect(loaded!.live.clocks).toEqual(
        new Map([
          ['game', first],
          ['match', second],
        ]),
      );
      expect(loaded!.live.clocks.get('game')).not.toHaveProperty('period');
    });

    const failing: [string, (c: ChannelRecord) => ChannelChange][] = [
      [
        'inputs of a channel that does not exist',
        (c) => change({ ...c, id: 'ch_missing' }, { set: { score: 9 }, frame: 9 }),
      ],
      ['a live state missing its updatedAt', (c) => change(c, { frame: 9, updatedAt: null as unknown as string })],
    ];

    it.each(failing)('commitTick is atomic: a tick with a failing write (%s) persists none of it', async (_, bad) => {
      const [a, b] = await insertChannels(2);
      await store.commitTick(1, [change(a!, { set: { score: 1 }, frame: 1 })]);
      const before = await store.loadChannels();
      const tick = [
        change(a!, {
          set: { score: 2, title: 'x' },
          clocks: { game: { running: true, ms: 1, at: 2 } },
          program: [],
          preview: [onBus('sc_x', 1)],
          events: [event(a!, 'channel.bind_updated'), event(a!, 'channel.scene_loaded')],
          frame: 9,
        }),
        bad(b!),
      ];
      await expect(Promise.resolve().then(() => store.commitTick(9, tick))).rejects.toThrow();
      expect(await store.loadChannels()).toEqual(before);
      expect((await store.listEvents(orgId, { limit: 100 })).events).toEqual([]);
      expect(await (await reopen()).loadChannels()).toEqual(before);
      expect((await store.listEvents(orgId, { limit: 100 })).events).toEqual([]);
      // The store is still usable afterwards.
      await store.commitTick(10, [change(a!, { set: { score: 3 }, frame: 10 })]);
      expect((await store.loadChannels())[0]!.live.values).toEqual(new Map([['score', 3]]));
    });

    describe('events', () => {
      const typesOf = (list: EngineEvent[]) => list.map((e) => e.type);

      it('are written with their tick and listed oldest first, as written, after a reopen', async () => {
        const [a, b] = await insertChannels(2);
        const first = [event(a!, 'channel.scene_loaded', LATER, { sceneId: 'sc_1', bus: 'program', layer: 0 })];
        const second = [
          event(b!, 'channel.bind_updated', LATER, { inputs: { t: 'ünï 😀' }, previous: { t: '' }, frame: 2 }),
          event(a!, 'channel.played', LATER, { sceneId: 'sc_1', previousSceneId: null, layer: 0 }),
        ];
        await store.commitTick(1, [change(a!, { frame: 1, events: first })]);
        await store.commitTick(2, [
          change(b!, { frame: 2, events: [second[0]!] }),
          change(a!, { frame: 2, events: [second[1]!] }),
        ]);
        expect(await (await reopen()).listEvents(orgId, { limit: 50 })).toEqual({
          events: [...first, ...second],
          nextCursor: null,
        });
        expect(await store.listEvents('org_other', { limit: 50 })).toEqual({ events: [], nextCursor: null });
      });

      it('filter by channel and type, page with an exclusive cursor, and keep to a channel lock', async () => {
        const [a, b, c] = await insertChannels(3);
        const all: EngineEvent[] = [];
        for (let i = 0; i < 4; i++) {
          const tick = [a!, b!, c!].map((ch) => {
            const e = event(ch, i % 2 === 0 ? 'channel.bind_updated' : 'channel.trigger_fired');
            all.push(e);
            return change(ch, { frame: i, events: [e] });
          });
          await store.commitTick(i, tick);
        }
        const list = (q: Omit<Parameters<Store['listEvents']>[1], 'limit'> & { limit?: number }) =>
          store.listEvents(orgId, { limit: 50, ...q }).then((p) => ids(p.events));
        expect(await list({})).toEqual(ids(all));
        expect(await list({ channelId: b!.id })).toEqual(ids(all.filter((e) => e.channelId === b!.id)));
        expect(await list({ type: 'channel.trigger_fired' })).toEqual(
          ids(all.filter((e) => e.type === 'channel.trigger_fired')),
        );
        expect(await list({ channelId: c!.id, type: 'channel.bind_updated' })).toEqual(
          ids(all.filter((e) => e.channelId === c!.id && e.type === 'channel.bind_updated')),
        );
        expect(await list({ limit: 5, after: all[3]!.id })).toEqual(ids(all.slice(4, 9)));
        const locked = [c!.id, a!.id, 'ch_missing'];
        const visible = all.filter((e) => e.channelId !== b!.id);
        expect(await list({ onlyChannelIds: locked })).toEqual(ids(visible));
        expect(await list({ onlyChannelIds: locked, limit: 3, after: visible[1]!.id })).toEqual(
          ids(visible.slice(2, 5)),
        );
        expect(await list({ onlyChannelIds: locked, channelId: b!.id })).toEqual([]);
        expect(await list({ onlyChannelIds: [] })).toEqual([]);
        expect(
          typesOf(
            (await store.listEvents(orgId, { limit: 2, channelId: a!.id, type: 'channel.trigger_fired' })).events,
          ),
        ).toEqual(['channel.trigger_fired', 'channel.trigger_fired']);
      });

      it('a full page names where the next starts; the last page says null', async () => {
        const [a] = await insertChannels(1);
        const events = Array.from({ length: 5 }, () => event(a!, 'channel.bind_updated'));
        await store.commitTick(1, [change(a!, { frame: 1, events: events.slice(0, 3) })]);
        await store.commitTick(2, [change(a!, { frame: 2, events: events.slice(3) })]);
        expect(await store.listEvents(orgId, { limit: 2 })).toEqual({
          events: events.slice(0, 2),
          nextCursor: events[1]!.id,
        });
        expect(await store.listEvents(orgId, { limit: 2, after: events[1]!.id })).toEqual({
          events: events.slice(2, 4),
          nextCursor: events[3]!.id,
        });
        expect(await store.listEvents(orgId, { limit: 2, after: events[3]!.id })).toEqual({
          events: events.slice(4),
          nextCursor: null,
        });
        expect(await store.listEvents(orgId, { limit: 5 })).toEqual({ events, nextCursor: null });
      });

      it('a filter that matches little may answer short pages, but following nextCursor finds every event', async () => {
        const [a, b] = await insertChannels(2);
        // Megabytes of other channels' events (many channels per tick), then one of b's.
        const crowd = Array.from({ length: 20 }, (_, i) => ({ id: `ch_crowd${i}`, orgId }));
        for (let t = 0; t < 12; t++) {
          const events = Array.from({ length: 600 }, (_, i) =>
            event(crowd[i % 20]!, 'channel.bind_updated', LATER, { inputs: { title: 'x'.repeat(300) } }),
          );
          await store.commitTick(t, [change(a!, { frame: t, events })]);
        }
        const mine = event(b!, 'channel.cleared');
        await store.commitTick(99, [change(b!, { frame: 99, events: [mine] })]);
        const found: EngineEvent[] = [];
        let pages = 0;
        for (let after: string | undefined; ; pages++) {
          const page = await store.listEvents(orgId, { limit: 10, channelId: b!.id, after });
          found.push(...page.events);
          if (page.nextCursor === null) break;
          after = page.nextCursor;
        }
        expect(found).toEqual([mine]);
        expect(pages).toBeGreaterThan(0);
      });

      it('outlive a deleted channel; pruning deletes those older than the cutoff only', async () => {
        const [a] = await insertChannels(1);
        const old = [event(a!, 'channel.cleared', '2024-02-20T00:00:00.000Z'), event(a!, 'channel.cleared', ISO)];
        const kept = event(a!, 'channel.played', LATER);
        await store.commitTick(1, [change(a!, { frame: 1, events: old })]);
        await store.commitTick(2, [change(a!, { frame: 2, events: [kept] })]);
        await store.deleteChannel(a!.id);
        expect((await store.listEvents(orgId, { limit: 50 })).events).toHaveLength(3);
        expect(await store.pruneEvents('2024-03-01T12:01:00.000Z')).toBe(2);
        expect(await store.pruneEvents('2024-03-01T12:01:00.000Z')).toBe(0);
        expect((await (await reopen()).listEvents(orgId, { limit: 50 })).events).toEqual([kept]);
      });

      it('pruning works through a long log in batches', async () => {
        const [a] = await insertChannels(1);
        for (let i = 0; i < 5; i++) {
          const events = Array.from({ length: 500 }, () => event(a!, 'channel.bind_updated', ISO));
          await store.commitTick(i, [change(a!, { frame: i, events })]);
        }
        await store.commitTick(9, [change(a!, { frame: 9, events: [event(a!, 'channel.played', LATER)] })]);
        expect(await store.pruneEvents(LATER)).toBe(2500);
        expect(typesOf((await store.listEvents(orgId, { limit: 50 })).events)).toEqual(['channel.played']);
      });
    });
  });
}
