/**
 * What SqliteSources does beyond the SourceStore contract: a fetch's record, written once a second per source, is
 * written as a tick is — no sync on the event loop, flushed off it with whatever else was written meanwhile — and
 * wakes the checkpointer, so that a server whose only writes are fetches does not grow its WAL forever.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';
import { newId } from '../../ids.js';
import type { SourceRecord } from '../source-store.js';
import { channelRecord } from '../store.fixtures.js';
import { SqliteStore } from './sqlite-store.js';

const AT = '2024-03-01T12:00:00.000Z';
const at = (i: number) => new Date(Date.parse(AT) + (i + 1) * 1000).toISOString();

function source(orgId: string, channelId: string): SourceRecord {
  return {
    id: newId('src'),
    orgId,
    channelId,
    type: 'json_url',
    name: 'Feed',
    url: 'https://feeds.example.com/game.json',
    intervalMs: 1_000,
    mapping: {},
    row: null,
    table: null,
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
  };
}

describe('SqliteSources: fetch records', () => {
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  const tempDir = tempDirs('onair-sources-');

  it("synchronous 'full': many records share a flush off the event loop, and are checkpointed with no tick", async () => {
    const dataDir = tempDir();
    const store = new SqliteStore({ dataDir, synchronous: 'full', checkpointIntervalMs: 20 });
    stores.push(store);
    const flushes: number[] = [];
    store.observe({ tickWrite: () => {}, walFlush: (ms) => flushes.push(ms) });
    const org = await store.defaultOrg();
    const channel = channelRecord(org.id, 'c');
    await store.insertChannel(channel);
    const src = source(org.id, channel.id);
    await store.sources.insertSource(src);

    const records = Array.from({ length: 20 }, (_, i) =>
      store.sources.recordFetch(
        src.id,
        src.updatedAt,
        { state: 'ok', lastFetchAt: at(i), lastError: null, failCount: 0, etag: '"v1"' },
        { at: at(i), status: 304, bytes: 0, ms: 1.5, changed: false, error: null },
        50,
      ),
    );
    await Promise.all(records);
    // Durable through the WAL flusher (its flushes are reported), not a sync inside SQLite for each.
    expect(flushes.length).toBeGreaterThan(0);
    expect(flushes.length).toBeLessThan(records.length);

    // A copy of the main file alone (no -wal next to it) holds only what was checkpointed.
    const copy = path.join(dataDir, 'copy.db');
    const lastFetchAt = () => {
      fs.copyFileSync(path.join(dataDir, 'onair.db'), copy);
      const db = new Database(copy, { readonly: true });
      try {
        return (db.prepare('SELECT last_fetch_at FROM sources').get() as { last_fetch_at: string }).last_fetch_at;
      } catch {
        return undefined; // the main file may not hold the table yet
      } finally {
        db.close();
      }
    };
    // The checkpoint worker runs at a lower priority: on a busy machine it may get its turn only after seconds.
    await expect.poll(lastFetchAt, { timeout: 15_000, interval: 50 }).toBe(at(19));
  });
});
