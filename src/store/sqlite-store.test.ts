import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelChange } from '../engine/index.js';
import { CHECKPOINT_NICE } from './sqlite/checkpointer.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { storeContracts } from './store.contract.js';
import { tempDirs } from '../../test/helpers/temp-dirs.js';

const sqliteHarness = () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-store-'));
  return {
    open: async () => new SqliteStore({ dataDir, synchronous: 'full' as const }),
    dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
};
storeContracts('SqliteStore', sqliteHarness);

describe('SqliteStore: ticks off the event loop', () => {
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  const tempDir = tempDirs('onair-store-');

  async function openStore(synchronous: 'full' | 'normal', checkpointIntervalMs?: number) {
    const dataDir = tempDir();
    const store = new SqliteStore({ dataDir, synchronous, checkpointIntervalMs });
    stores.push(store);
    const org = await store.defaultOrg();
    const id = 'ch_test';
    const at = new Date().toISOString();
    await store.insertChannel({
      id,
      orgId: org.id,
      name: 'c',
      fps: 60,
      width: 1920,
      height: 1080,
      outputToken: 't',
      createdAt: at,
      updatedAt: at,
    });
    const tick = (score: number): ChannelChange => ({
      channelId: id,
      orgId: org.id,
      frame: score,
      prev: score - 1,
      inputs: new Map([['score', score]]),
      setValues: new Map([['score', score]]),
      live: {
        values: new Map([['score', score]]),
        clocks: new Map(),
        program: [],
        preview: [],
        rundowns: new Map(),
        schedule: [],
        history: [],
        frame: score,
        updatedAt: at,
      },
      events: [],
      acks: [],
    });
    return { store, dataDir, tick };
  }

  const readScore = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const row = db.prepare("SELECT value FROM channel_inputs WHERE name = 'score'").get() as { value: string };
      return row ? Number(row.value) : undefined;
    } finally {
      db.close();
    }
  };

  /** Before the first checkpoint the main file may not even hold the schema yet. */
  const readScoreIfAny = (file: string) => {
    try {
      return readScore(file);
    } catch {
      return undefined;
    }
  };

  it("synchronous 'full': a tick is written at once and reports a flush that settles; other readers see it", async () => {
    const { store, dataDir, tick } = await openStore('full');
    const writes = [1, 2, 3].map((n) => store.commitTick(n, [tick(n)]));
    expect(writes.every((w) => w && w.durable instanceof Promise)).toBe(true);
    expect(readScore(path.join(dataDir, 'onair.db'))).toBe(3);
    await Promise.all(writes.map((w) => w!.durable));
  });

  it("synchronous 'normal': nothing is owed after the write, and the tick survives a kill -9 right after it", async () => {
    const { store, tick } = await openStore('normal');
    expect(store.commitTick(1, [tick(1)])).toBeUndefined();

    // Another process commits a tick and is killed the moment commitTick returns: the tick is on disk.
    const dataDir = tempDir();
    const script = `
      import { SqliteStore } from ${JSON.stringify(new URL('./sqlite/sqlite-store.ts', import.meta.url).href)};
      const store = new SqliteStore({ dataDir: ${JSON.stringify(dataDir)}, synchronous: 'normal' });
      const org = await store.defaultOrg();
      const at = new Date().toISOString();
      await store.insertChannel({ id: 'ch_test', orgId: org.id, name: 'c', fps: 60, width: 1920, height: 1080,
        outputToken: 't', createdAt: at, updatedAt: at });
      const values = new Map([['score', 7]]);
      store.commitTick(1, [{ channelId: 'ch_test', orgId: org.id, frame: 1, prev: 0, inputs: values,
        setValues: values, live: { values, clocks: new Map(), program: [], preview: [], frame: 1, updatedAt: at },
        events: [], acks: [] }]);
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const reopened = new SqliteStore({ dataDir, synchronous: 'normal' });
    stores.push(reopened);
    const [channel] = await reopened.loadChannels();
    expect(channel?.live.values.get('score')).toBe(7);
  });

  it('the worker checkpoints ticks into the database file; the main connection never does', async () => {
    const { store, dataDir, tick } = await openStore('full', 20);
    await store.commitTick(1, [tick(42)])!.durable;
    const dbFile = path.join(dataDir, 'onair.db');
    // A copy of the main file alone (no -wal next to it) holds only what was checkpointed.
    const copy = path.join(dataDir, 'copy.db');
    let seen: number | undefined;
    // The worker runs at a lower priority: on a busy machine it may get its turn only after seconds.
    const deadline = Date.now() + 15_000;
    while (seen !== 42 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      fs.copyFileSync(dbFile, copy);
      seen = fs.statSync(copy).size > 0 ? readScoreIfAny(copy) : undefined;
    }
    expect(seen).toBe(42);
  });

  it.runIf(process.platform === 'linux')(
    'the checkpoint worker runs at a lower CPU priority; the thread that opened the store keeps its own',
    async () => {
      const nice = (task: string) => {
        const stat = fs.readFileSync(`${task}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const lowered = () =>
        fs.readdirSync('/proc/self/task').filter((tid) => nice(`/proc/self/task/${tid}`) === CHECKPOINT_NICE);
      const before = lowered().length;
      const mine = nice('/proc/thread-self');
      await openStore('full');
      const deadline = Date.now() + 15_000;
      while (lowered().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(lowered().length).toBe(before + 1);
      expect(nice('/proc/thread-self')).toBe(mine);
      expect(mine).not.toBe(CHECKPOINT_NICE);
    },
  );
});
