/**
 * What the SQLite webhook store does beyond the contract: one process holds a SQLite database at a time, so the
 * claims a store finds at open were left by one that is gone, and they end at once (a crash's deliveries in
 * flight are sent again at restart, not when their claims would have run out). And a claim waits for the write
 * lock another connection holds for a moment (the checkpointer does), as every write does, instead of failing.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine/index.js';
import { change, channelRecord, event, newDelivery, subscriptionRecord } from '../store.fixtures.js';
import { SqliteStore } from './sqlite-store.js';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
const freshDir = tempDirs('onair-claims-');

/** Another connection, on another thread, holds the database's write lock for `ms`; resolves once it has it. */
async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const code = `const { parentPort } = require('node:worker_threads');
    const db = require('better-sqlite3')(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('held');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
  const worker = new Worker(code, { eval: true });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return { released: new Promise((resolve) => worker.once('exit', () => resolve())) };
}

function open(dataDir: string): SqliteStore {
  const store = new SqliteStore({ dataDir, synchronous: 'normal' });
  stores.push(store);
  return store;
}

/** A subscription `wh_1` with one delivery due at 1000 (of the event answered). */
async function oneDeliveryDue(store: SqliteStore): Promise<EngineEvent> {
  const orgId = (await store.defaultOrg()).id;
  const channel = channelRecord(orgId, 'hooks');
  await store.insertChannel(channel);
  await store.webhooks.insertSubscription(subscriptionRecord(orgId, { id: 'wh_1' }));
  const e = event(channel, 'channel.played');
  store.commitTick(1, [change(channel, { frame: 1, events: [e] })]);
  const [batch] = await store.webhooks.undispatched(10);
  await store.webhooks.fanOut(batch!.seq, [newDelivery('wh_1', e)], []);
  return e;
}

it('ends at open the claims a previous process left', async () => {
  const dataDir = freshDir();
  let store = open(dataDir);
  await oneDeliveryDue(store);
  const [claimed] = await store.webhooks.claimDue('wh_1', 1000, 1, { by: 'gone', untilMs: 60_000 });
  expect(await store.webhooks.claimDue('wh_1', 1000, 1, { by: 'other', untilMs: 60_000 })).toEqual([]);
  await store.close();
  stores.pop();

  store = open(dataDir);
  expect(await store.webhooks.nextDueAt(1000)).toBeNull();
  expect(await store.webhooks.claimDue('wh_1', 1000, 1, { by: 'restarted', untilMs: 60_000 })).toEqual([claimed]);
});

it('claims once a write lock held by another connection is let go, instead of failing at once', async () => {
  const dataDir = freshDir();
  const store = open(dataDir);
  const e = await oneDeliveryDue(store);

  const { released } = await holdWriteLock(path.join(dataDir, 'onair.db'), 300);
  const started = Date.now();
  const claimed = await store.webhooks.claimDue('wh_1', 1000, 1, { by: 'node', untilMs: 60_000 });
  expect(claimed.map((c) => c.eventId)).toEqual([e.id]);
  // It waited for the lock.
  expect(Date.now() - started).toBeGreaterThan(100);
  await released;
});
