/**
 * The guarantees of Store (see store.ts), as one suite every implementation runs:
 * `storeContract('SqliteStore', () => harness)`. A harness opens stores on one backing storage, so a
 * test can close a store and open a new one on the same data, as a restart would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelChange, ChannelRecord, FrameRate, SceneRecord } from '../engine/index.js';
import { newId } from '../ids.js';
import type { InputValue, ProgramBus } from '../protocol/index.js';
import type { ApiKeyRecord, Store } from './store.js';

export interface StoreHarness {
  /** A store on the harness's storage; after close(), the next open() sees everything committed. */
  open(): Promise<Store>;
  /** Removes the storage. */
  dispose(): Promise<void>;
}

const ISO = '2024-03-01T12:00:00.000Z';
const LATER = '2024-03-01T12:05:00.000Z';

const STAMPS = { createdAt: ISO, updatedAt: ISO };

function channelRecord(orgId: string, name: string, fps: FrameRate = 60): ChannelRecord {
  return { id: newId('ch'), orgId, name, fps, width: 1920, height: 1080, outputToken: `tok_${name}`, ...STAMPS };
}

function sceneRecord(channelId: string, name: string): SceneRecord {
  const definition = {
    inputs: [{ name: 'score', type: 'number' as const, label: 'Score', default: 0 }],
    triggers: ['in'],
    layers: [{ type: 'text' as const, text: '{score} ünïcødé', fontSize: 40, x: 0, y: 0, width: 100, height: 50 }],
  };
  return { id: newId('sc'), channelId, name, definition, ...STAMPS };
}

interface LiveChange {
  set?: Record<string, InputValue>;
  program?: ProgramBus | null;
  preview?: { sceneId: string } | null;
  frame: number;
  updatedAt?: string;
}

/** A ChannelChange as the engine hands it over: explicit values to persist plus the whole new live state. */
function change(
  channel: { id: string; orgId: string },
  c: LiveChange,
  kept = new Map<string, InputValue>(),
): ChannelChange {
  const setValues = new Map(Object.entries(c.set ?? {}));
  const values = new Map(
    [...kept, ...setValues].filter((e): e is [string, string | number | boolean] => e[1] !== null),
  );
  const live = {
    values,
    program: c.program ?? null,
    preview: c.preview ?? null,
    frame: c.frame,
    updatedAt: c.updatedAt === undefined ? LATER : c.updatedAt,
  };
  const inputs = new Map(setValues);
  return {
    channelId: channel.id,
    orgId: channel.orgId,
    frame: c.frame,
    prev: 0,
    inputs,
    setValues,
    live,
    events: [],
    acks: [],
  };
}

function keyRecord(orgId: string, hash: string, channelIds: string[] | null): ApiKeyRecord {
  return {
    id: newId('key'),
    orgId,
    name: `key ${hash}`,
    hash,
    prefix: 'onair_sk_ab',
    permissions: ['channels:read', 'inputs:write'],
    channelIds,
    createdAt: ISO,
    lastUsedAt: null,
    revokedAt: null,
  };
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
      await store.insertScene(a);
      await store.insertScene(b);
      const a2 = { ...a, name: 'a2', definition: { ...a.definition, triggers: ['out'] }, updatedAt: LATER };
      await store.updateScene(a2);
      expect((await store.loadChannels())[0]!.scenes).toEqual([a2, b]);
      await store.deleteScene(b.id);
      expect((await (await reopen()).loadChannels())[0]!.scenes).toEqual([a2]);
    });

    it('deleting a channel deletes its scenes and inputs', async () => {
      const [c, other] = await insertChannels(2);
      await store.insertScene(sceneRecord(c!.id, 's'));
      const kept = sceneRecord(other!.id, 'kept');
      await store.insertScene(kept);
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
      expect(back.live).toMatchObject({ values: new Map(), program: null, preview: null, frame: 0 });
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
      await store.revokeKey(keys[2]!.id, ISO);
      await store.revokeKey(keys[2]!.id, LATER); // the first revocation time stands
      await reopen();
      expect(await store.getKey(keys[2]!.id)).toEqual({ ...keys[2], revokedAt: ISO });
      expect(ids(await store.listKeys(orgId, { limit: 50 }))).toEqual(ids(keys));
    });

    it('a new channel loads with an empty live state', async () => {
      const [c] = await insertChannels(1);
      expect(await store.loadChannels()).toEqual([
        { channel: c, scenes: [], live: { values: new Map(), program: null, preview: null, frame: 0, updatedAt: ISO } },
      ]);
    });

    it('loadChannels after a reopen returns channels, scenes and live state as committed', async () => {
      const c = channelRecord(orgId, 'main', 29.97);
      const d = channelRecord(orgId, 'side', 59.94);
      await store.insertChannel(c);
      await store.insertChannel(d);
      const board = sceneRecord(c.id, 'board');
      const lower = sceneRecord(c.id, 'lower');
      await store.insertScene(board);
      await store.insertScene(lower);
      const program = { sceneId: board.id, since: LATER };
      const values = { score: 2.5, title: 'Ünïcødé — 日本語 😀', live: true, off: false, accent: '#ff8800cc' };
      await store.commitTick(101_898_101_898, [
        change(c, { set: values, program, preview: { sceneId: lower.id }, frame: 101_898_101_898 }),
      ]);
      await store.commitTick(101_898_101_905, [
        change(
          c,
          { set: { off: null, score: 3 }, program, preview: null, frame: 101_898_101_905 },
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
        values: expected,
        program,
        preview: null,
        frame: 101_898_101_905,
        updatedAt: LATER,
      });
      expect(loaded[1]!.live).toMatchObject({ values: new Map(), program: null, frame: 0 });
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

    it('commitTick clears program when the change says so', async () => {
      const [c] = await insertChannels(1);
      const s = sceneRecord(c!.id, 's');
      await store.insertScene(s);
      await store.commitTick(1, [change(c!, { program: { sceneId: s.id, since: LATER }, frame: 1 })]);
      await store.commitTick(2, [change(c!, { program: null, frame: 2 })]);
      expect((await (await reopen()).loadChannels())[0]!.live).toMatchObject({ program: null, frame: 2 });
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
        change(a!, { set: { score: 2, title: 'x' }, program: null, preview: { sceneId: 'sc_x' }, frame: 9 }),
        bad(b!),
      ];
      await expect(Promise.resolve().then(() => store.commitTick(9, tick))).rejects.toThrow();
      expect(await store.loadChannels()).toEqual(before);
      expect(await (await reopen()).loadChannels()).toEqual(before);
      // The store is still usable afterwards.
      await store.commitTick(10, [change(a!, { set: { score: 3 }, frame: 10 })]);
      expect((await store.loadChannels())[0]!.live.values).toEqual(new Map([['score', 3]]));
    });
  });
}
