/**
 * The guarantees of SourceStore (see source-store.ts), as one suite every implementation runs, on a Store harness
 * (sources belong to channels).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import type { SourceFetchRecord, SourceRecord, SourceStatusChanges } from './source-store.js';
import type { StoreHarness } from './store.contract.js';
import { channelRecord } from './store.fixtures.js';
import type { Store } from './store.js';

const AT = '2024-03-01T12:00:00.000Z';
const LATER = '2024-03-01T12:05:00.000Z';

function source(orgId: string, channelId: string, over: Partial<SourceRecord> = {}): SourceRecord {
  return {
    id: newId('src'),
    orgId,
    channelId,
    type: 'csv_url',
    name: 'Results',
    url: 'https://feeds.example.com/results.csv',
    intervalMs: 10_000,
    mapping: { Home_Score: 'scoreA', 'Team Ünï': 'title' },
    row: { by: 'match', column: 'Game', value: 'Final' },
    table: { input: 'standings' },
    paused: false,
    state: 'pending',
    cursor: 1,
    etag: null,
    lastModified: null,
    bodySha256: null,
    lastValues: {},
    lastFetchAt: null,
    lastChangeAt: null,
    lastError: null,
    failCount: 0,
    createdAt: AT,
    updatedAt: AT,
    ...over,
  };
}

const fetched = (i: number, changed = true): SourceFetchRecord => ({
  at: new Date(Date.parse(AT) + i * 1000).toISOString(),
  status: i % 3 === 2 ? null : 200,
  bytes: 100 + i,
  ms: 12.5,
  changed,
  error: i % 3 === 2 ? `timeout ${i}` : null,
});

const success: SourceStatusChanges = {
  state: 'ok',
  lastFetchAt: LATER,
  lastError: null,
  failCount: 0,
  etag: '"v2"',
  lastModified: 'Fri, 01 Mar 2024 12:04:00 GMT',
  bodySha256: 'ab'.repeat(32),
  lastValues: { scoreA: 3, title: 'Ünïcødé 😀', standings: [{ team: 'A', pts: 9 }] },
  lastChangeAt: LATER,
  cursor: 4,
};

export function sourceStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`SourceStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let orgId: string;
    const channelId = 'ch_sourced';

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
      orgId = (await store.defaultOrg()).id;
      await store.insertChannel({ ...channelRecord(orgId, 'sourced'), id: channelId });
    });
    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    it('keeps sources whole across a reopen, lists them per channel and all, in creation order', async () => {
      const other = { ...channelRecord(orgId, 'other'), id: 'ch_other' };
      await store.insertChannel(other);
      const a = source(orgId, channelId);
      const b = source(orgId, other.id, { type: 'json_url', row: null, table: null, mapping: {}, paused: true });
      const c = source(orgId, channelId, { row: { by: 'cursor' }, table: { input: 'ticker', path: 'items' } });
      for (const s of [a, b, c]) await store.sources.insertSource(s);
      await store.close();
      store = await harness.open();
      expect(await store.sources.getSource(b.id)).toEqual(b);
      expect(await store.sources.getSource('src_missing')).toBeUndefined();
      expect(await store.sources.listSources(channelId)).toEqual([a, c]);
      expect((await store.sources.listAllSources()).map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    });

    it('an edit replaces the configuration and forgets the last body, leaving the status', async () => {
      const s = source(orgId, channelId);
      await store.sources.insertSource(s);
      await store.sources.recordFetch(s.id, AT, success, fetched(0), 50);
      const config = {
        type: 'json_url' as const,
        name: 'Feed',
        url: 'https://feeds.example.com/game.json',
        intervalMs: 2_000,
        mapping: { 'home.score': 'scoreA' },
        row: null,
        table: null,
        paused: true,
      };
      await store.sources.updateSource(s.id, config, LATER);
      expect(await store.sources.getSource(s.id)).toEqual({
        ...s,
        ...config,
        state: 'ok',
        cursor: 4,
        etag: null,
        lastModified: null,
        bodySha256: null,
        lastValues: success.lastValues,
        lastFetchAt: LATER,
        lastChangeAt: LATER,
        updatedAt: LATER,
      });
    });

    it('a failed fetch keeps the values and validators; a fetch that raced an edit writes only its outcome', async () => {
      const s = source(orgId, channelId);
      await store.sources.insertSource(s);
      await store.sources.recordFetch(s.id, AT, success, fetched(0), 50);
      const failed = { state: 'failing' as const, lastFetchAt: LATER, lastError: 'HTTP 500', failCount: 3 };
      await store.sources.recordFetch(s.id, AT, failed, fetched(1, false), 50);
      expect(await store.sources.getSource(s.id)).toMatchObject({
        ...failed,
        etag: success.etag,
        bodySha256: success.bodySha256,
        lastValues: success.lastValues,
        lastChangeAt: LATER,
        cursor: 4,
      });
      await store.sources.updateSource(s.id, { ...s, name: 'Edited' }, LATER);
      const raced = { ...success, lastFetchAt: AT, lastValues: { scoreA: 99 }, cursor: 9, lastChangeAt: AT };
      await store.sources.recordFetch(s.id, AT, raced, fetched(2), 50);
      expect(await store.sources.getSource(s.id)).toMatchObject({
        state: 'ok',
        lastFetchAt: AT,
        lastError: null,
        failCount: 0,
        etag: null,
        bodySha256: null,
        lastValues: success.lastValues,
        cursor: 4,
        lastChangeAt: AT,
      });
      // Null validators are values: a feed that stopped sending an ETag.
      await store.sources.recordFetch(s.id, LATER, { ...success, etag: null }, fetched(3), 50);
      expect(await store.sources.getSource(s.id)).toMatchObject({ etag: null, bodySha256: success.bodySha256 });
    });

    it('keeps the newest lines of the log, newest first, and drops them with the source or its channel', async () => {
      const s = source(orgId, channelId);
      const t = source(orgId, channelId);
      await store.sources.insertSource(s);
      await store.sources.insertSource(t);
      for (let i = 0; i < 7; i++) await store.sources.recordFetch(s.id, AT, success, fetched(i, i % 2 === 0), 5);
      await store.sources.recordFetch(t.id, AT, success, fetched(9), 5);
      const log = await store.sources.listFetches(s.id);
      expect(log).toEqual([6, 5, 4, 3, 2].map((i) => fetched(i, i % 2 === 0)));
      await store.sources.deleteSource(s.id);
      expect(await store.sources.getSource(s.id)).toBeUndefined();
      expect(await store.sources.listFetches(s.id)).toEqual([]);
      // A fetch that ends after its source was deleted leaves nothing behind.
      await store.sources.recordFetch(s.id, AT, success, fetched(8), 5);
      expect(await store.sources.listFetches(s.id)).toEqual([]);
      await store.deleteChannel(channelId);
      expect(await store.sources.getSource(t.id)).toBeUndefined();
      expect(await store.sources.listFetches(t.id)).toEqual([]);
      expect(await store.sources.listAllSources()).toEqual([]);
    });
  });
}
