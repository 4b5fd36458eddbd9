/**
 * The Store on an embedded SQLite file (better-sqlite3, WAL). Statements are prepared once; each tick is
 * one transaction. Every write survives a process crash or kill -9 once written. With `synchronous: 'full'`
 * it also survives a power cut before it is acknowledged: other writes sync inside SQLite; a tick is
 * written without syncing and flushed by WalFlusher off the event loop (several ticks share a flush).
 * Checkpoints run on a worker thread (Checkpointer), never inside a tick. Every statement goes through
 * StorageFaults (./storage-faults.ts): a disk that is full, read-only or failing turns writes into 503
 * `unavailable` and reports the failure, while reads go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ChannelChange, ChannelRecord, SceneRecord, StoredChannel } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Actor, ClockState } from '@onair/protocol';
import type { OrgRecord } from '../account-store.js';
import type {
  ApiKeyRecord,
  EventPage,
  EventQuery,
  HistoryPage,
  HistoryQuery,
  Page,
  SceneVersionRecord,
  SceneVersionSummary,
  Store,
} from '../store.js';
import { Checkpointer } from './checkpointer.js';
import { DataDirLock } from './data-dir-lock.js';
import { createDataDir, makeDataDirPrivate, makePrivate, type ModeReport } from './data-dir-modes.js';
import { EventLog } from './event-log.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteIdempotency } from './sqlite-idempotency.js';
import { SqliteAccounts } from './sqlite-accounts.js';
import { SqliteAsRun } from './sqlite-as-run.js';
import { SqliteAssets } from './sqlite-assets.js';
import { SqliteGraphics } from './sqlite-graphics.js';
import { SqliteIncomingHooks } from './sqlite-incoming-hooks.js';
import { SqliteSources } from './sqlite-sources.js';
import { SqliteScenes } from './sqlite-scenes.js';
import { SqliteShow } from './sqlite-show.js';
import { SqliteWebhooks } from './sqlite-webhooks.js';
import { placeholders, RowBatch } from './row-batch.js';
import { prepareStatements, type Statements } from './statements.js';
import { guardDatabase, StorageFaults } from './storage-faults.js';
import { WalFlusher } from './wal-flush.js';
import {
  channelFromRow,
  channelParams,
  keyFromRow,
  keyParams,
  storedChannels,
  type ChannelRow,
  type ClockRow,
  type InputRow,
  type KeyRow,
  type SceneRow,
} from '../record-rows.js';

/** Page cache while channels load, in KiB (negative: SQLite's unit for "this many KiB"). */
const LOAD_CACHE_SIZE = -1024;

export interface SqliteStoreOptions {
  dataDir: string;
  synchronous: 'full' | 'normal';
  /** How often the worker checkpoints the WAL into the database file; default 500 ms. */
  checkpointIntervalMs?: number;
}

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly faults: StorageFaults;
  readonly accounts: SqliteAccounts;
  readonly webhooks: SqliteWebhooks;
  readonly incomingHooks: SqliteIncomingHooks;
  readonly sources: SqliteSources;
  readonly assets: SqliteAssets;
  readonly graphics: SqliteGraphics;
  readonly idempotency: SqliteIdempotency;
  readonly asRun: SqliteAsRun;
  private readonly st: Statements;
  private readonly commitTx: (changes: readonly ChannelChange[]) => void;
  private readonly tickWrites: ReturnType<typeof tickWriteBatches>;
  private readonly events: EventLog;
  private readonly scenes: SqliteScenes;
  private readonly show: SqliteShow;
  /** Present with synchronous 'full': ticks are written unsynced and flushed by it. */
  private readonly flusher: WalFlusher | null;
  private readonly checkpointer: Checkpointer;
  private closing: Promise<void> | undefined;
  private readonly lock: DataDirLock;
  /** The data directory's files and modes made private at start (./data-dir-modes.ts), for the log. */
  readonly modes: ModeReport;

  constructor(options: SqliteStoreOptions) {
    createDataDir(options.dataDir);
    // The store owns the data directory: a second onair on it is refused before it opens the database.
    this.lock = DataDirLock.acquire(options.dataDir);
    const file = path.join(options.dataDir, 'onair.db');
    const synchronous = options.synchronous === 'full' ? 'FULL' : 'NORMAL';
    let db: Database.Database | undefined;
    try {
      this.modes = makeDataDirPrivate(options.dataDir);
      const created = !fs.existsSync(file);
      this.db = db = new Database(file);
      // A new database file is 0644; its -wal and -shm, created next, take its mode.
      if (created) makePrivate(file);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${synchronous}`);
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('busy_timeout = 5000');
      // A WAL grown by a burst is cut back to this size when it is next reset.
      this.db.pragma('journal_size_limit = 67108864');
      migrate(this.db);
      this.faults = new StorageFaults(this.db, options.dataDir);
      // Everything below runs its statements through the faults' guard.
      const guarded = guardDatabase(this.db, this.faults);
      this.st = prepareStatements(guarded);
      this.accounts = new SqliteAccounts(guarded);
      this.tickWrites = tickWriteBatches(guarded);
      this.events = new EventLog(guarded);
      this.scenes = new SqliteScenes(guarded);
      this.show = new SqliteShow(guarded);
      this.webhooks = new SqliteWebhooks(guarded, this.events);
      this.incomingHooks = new SqliteIncomingHooks(guarded);
      this.sources = new SqliteSources(guarded, (write) => this.writeFlushed(write));
      this.assets = new SqliteAssets(guarded);
      this.graphics = new SqliteGraphics(guarded);
      this.idempotency = new SqliteIdempotency(guarded);
      this.asRun = new SqliteAsRun(guarded);
      this.commitTx = guarded.transaction((changes: readonly ChannelChange[]) => this.writeTick(changes));
      this.flusher = synchronous === 'FULL' ? WalFlusher.open(`${file}-wal`) : null;
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new Checkpointer({
        file,
        synchronous,
        intervalMs: options.checkpointIntervalMs,
        onFailure: () => {
          if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
        },
      });
    } catch (err) {
      if (db?.open) db.close();
      this.lock.release();
      throw err;
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.faults.close();
      await this.checkpointer.stop();
      await this.flusher?.close();
      this.db.close();
      this.lock.release();
    })();
    return this.closing;
  }

  failure(): string | null {
    return this.faults.failure() ?? this.flusher?.failure()?.message ?? null;
  }

  /** For metrics: the listener the tick-write and WAL-flush durations go to (the last one set). */
  private timings: StoreTimings | null = null;

  /** Reports how long each tick's write and each flush of the WAL take, from now on. */
  observe(timings: StoreTimings): void {
    this.timings = timings;
    this.flusher?.observe((ms) => timings.walFlush(ms));
  }

  /** One node deletes nothing under a tick: what it owes is at most the flush. */
  commitTick(_frame: number, changes: readonly ChannelChange[]): { durable: Promise<void> } | void {
    const started = performance.now();
    const written = this.faults.writeTick(() => this.writeAndFlush(changes));
    this.written(started);
    return written;
  }

  private writeAndFlush(changes: readonly ChannelChange[]): { durable: Promise<void> } | void {
    if (!this.flusher) {
      this.commitTx(changes);
      return;
    }
    this.st.unsynced.run();
    try {
      this.commitTx(changes);
    } finally {
      this.st.synced.run();
    }
    const durable = this.flusher.flush();
    void durable.catch((err: Error) => this.faults.unflushed(err.message));
    return { durable };
  }

  /**
   * A frequent small write written as a tick is (a data source's fetch, once a second per source): without a sync on
   * the event loop, then flushed by the WalFlusher with whatever else was written meanwhile; resolves once on disk.
   * It wakes the checkpointer as a tick does, or a server whose only writes are these would grow its WAL forever.
   */
  private async writeFlushed(write: () => void): Promise<void> {
    if (!this.flusher) {
      write();
    } else {
      this.st.unsynced.run();
      try {
        write();
      } finally {
        this.st.synced.run();
      }
    }
    this.checkpointer.written();
    const durable = this.flusher?.flush();
    void durable?.catch((err: Error) => this.faults.unflushed(err.message));
    await durable;
  }

  /** After a tick's transaction. A listener that throws must not turn a committed tick into a failed one. */
  private written(started: number): void {
    this.checkpointer.written();
    try {
      this.timings?.tickWrite(performance.now() - started);
    } catch {
      // metrics only
    }
  }

  async defaultOrg(): Promise<OrgRecord> {
    const row = this.st.firstOrg.get() as { id: string; name: string; created_at: string } | undefined;
    if (row) return { id: row.id, name: row.name, createdAt: row.created_at };
    const org = { id: newId('org'), name: 'Default workspace', createdAt: new Date().toISOString() };
    this.st.insertOrg.run(org.id, org.name, org.createdAt);
    return org;
  }

  async insertKey(k: ApiKeyRecord): Promise<void> {
    this.st.insertKey.run(...keyParams(k));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.st.keyByHash.get(hash) as KeyRow | undefined;
    return row ? keyFromRow(row) : undefined;
  }

  async countKeys(): Promise<number> {
    return (this.st.countKeys.get() as { n: number }).n;
  }

  async countActiveKeys(orgId: string): Promise<number> {
    return (this.st.countActiveKeys.get(orgId) as { n: number }).n;
  }

  /** lastUsedAt is a hint: a disk that refuses it must not refuse the request that used the key. */
  async touchKey(id: string, at: string): Promise<void> {
    try {
      this.st.touchKey.run(at, id);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'unavailable')) throw err;
    }
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.st.keyById.get(id) as KeyRow | undefined;
    return row ? keyFromRow(row) : undefined;
  }

  async listKeys(orgId: string, page: Page): Promise<ApiKeyRecord[]> {
    return (this.st.listKeys.all(orgId, page.after ?? '', page.limit) as KeyRow[]).map(keyFromRow);
  }

  async revokeKey(id: string, at: string): Promise<void> {
    this.st.revokeKey.run(at, id);
  }

  /**
   * Loading reads every page of the database once. With the connection's 16 MB page cache those pages
   * would stay in memory, although an idle channel is never read again: the load goes through a small
   * cache, and afterwards the cache grows only with the pages that work touches.
   */
  async loadChannels(): Promise<StoredChannel[]> {
    const cacheSize = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma(`cache_size = ${LOAD_CACHE_SIZE}`);
    try {
      return this.loadAll();
    } finally {
      this.db.pragma(`cache_size = ${cacheSize}`);
    }
  }

  private loadAll(): StoredChannel[] {
    return storedChannels({
      scenes: this.st.allScenes.all() as SceneRow[],
      inputs: this.st.allInputs.all() as InputRow[],
      clocks: this.st.allClocks.all() as ClockRow[],
      ...this.show.loadAll(),
      channels: this.st.allChannels.all() as ChannelRow[],
    });
  }

  async listChannels(orgId: string, page: Page): Promise<ChannelRecord[]> {
    const after = page.after ?? '';
    if (page.onlyIds) {
      const ids = JSON.stringify(page.onlyIds);
      return (this.st.listChannelsIn.all(orgId, after, ids, page.limit) as ChannelRow[]).map((row) =>
        channelFromRow(row),
      );
    }
    return (this.st.listChannels.all(orgId, after, page.limit) as ChannelRow[]).map((row) => channelFromRow(row));
  }

  async insertChannel(c: ChannelRecord): Promise<void> {
    this.st.insertChannel.run(...channelParams(c), c.createdAt);
  }

  async updateChannel(c: ChannelRecord): Promise<void> {
    this.st.updateChannel.run(c.name, c.fps, c.width, c.height, c.outputToken, c.updatedAt, c.id);
  }

  async deleteChannel(id: string): Promise<void> {
    this.st.deleteChannel.run(id);
  }

  async insertScene(s: SceneRecord, savedBy: Actor): Promise<void> {
    this.scenes.insert(s, savedBy);
  }

  async updateScene(s: SceneRecord, savedBy: Actor): Promise<void> {
    this.scenes.update(s, savedBy);
  }

  async deleteScene(id: string): Promise<void> {
    this.scenes.delete(id);
  }

  async listSceneVersions(sceneId: string): Promise<SceneVersionSummary[]> {
    return this.scenes.versions(sceneId);
  }

  async getSceneVersion(sceneId: string, version: number): Promise<SceneVersionRecord | undefined> {
    return this.scenes.version(sceneId, version);
  }

  async listHistory(channelId: string, query: HistoryQuery): Promise<HistoryPage> {
    return this.show.listHistory(channelId, query);
  }

  async listEvents(orgId: string, q: EventQuery): Promise<EventPage> {
    return this.events.list(orgId, q);
  }

  /** Deletes a few hundred batches at a time, letting ticks run in between. */
  async pruneEvents(olderThan: string): Promise<number> {
    let pruned = 0;
    while (this.db.open) {
      const step = this.events.pruneSome(olderThan);
      pruned += step.pruned;
      if (!step.more) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return pruned;
  }

  /**
   * One tick: every channel's new values, clocks, live state, prepared show, as-run lines and events, in one
   * multi-row statement per table (plus deletes and the as-run lines). A bus is written only when it changed.
   */
  private writeTick(changes: readonly ChannelChange[]): void {
    const inputs: unknown[] = [];
    const clocks: unknown[] = [];
    const live: unknown[] = [];
    for (const c of changes) {
      for (const [name, value] of c.setValues) {
        if (value === null) this.st.deleteInput.run(c.channelId, name);
        else inputs.push(c.channelId, name, JSON.stringify(value));
      }
      if (c.setClocks) this.clockRows(c.channelId, c.setClocks, clocks);
      const program = c.program !== undefined ? JSON.stringify(c.live.program) : null;
      const preview = c.preview !== undefined ? JSON.stringify(c.live.preview) : null;
      live.push(c.channelId, program, preview, c.live.frame, c.live.updatedAt);
    }
    this.tickWrites.inputs.run(inputs);
    this.tickWrites.clocks.run(clocks);
    this.tickWrites.live.run(live);
    this.show.write(changes);
    this.asRun.write(changes);
    this.events.write(changes);
  }

  private clockRows(channelId: string, states: ReadonlyMap<string, ClockState | null>, rows: unknown[]): void {
    for (const [name, state] of states) {
      if (state === null) this.st.deleteClock.run(channelId, name);
      else rows.push(channelId, name, state.running ? 1 : 0, state.ms, state.at, state.period ?? 0);
    }
  }
}

/** The tick's statements, one per table, for any number of channels (./row-batch.ts). */
function tickWriteBatches(db: Database.Database) {
  return {
    inputs: new RowBatch(
      db,
      3,
      (rows) => `INSERT INTO channel_inputs (channel_id, name, value) VALUES ${placeholders(rows, 3)}
        ON CONFLICT (channel_id, name) DO UPDATE SET value = excluded.value`,
    ),
    clocks: new RowBatch(
      db,
      6,
      (rows) => `INSERT INTO channel_clocks (channel_id, name, running, ms, at, period) VALUES ${placeholders(rows, 6)}
        ON CONFLICT (channel_id, name) DO UPDATE
          SET running = excluded.running, ms = excluded.ms, at = excluded.at, period = excluded.period`,
    ),
    // A NULL bus leaves the stored one as it is. A live state of NULL updatedAt is refused by the column's
    // NOT NULL, failing the whole tick.
    live: new RowBatch(
      db,
      5,
      (rows) => `UPDATE channels SET program = coalesce(v.column2, channels.program),
          preview = coalesce(v.column3, channels.preview), frame = v.column4, live_updated_at = v.column5
        FROM (VALUES ${placeholders(rows, 5)}) AS v WHERE channels.id = v.column1`,
    ),
  };
}

/** Durations of the store's work on the tick path, in milliseconds, for metrics; must be cheap. */
export interface StoreTimings {
  /** One tick's SQLite transaction, on the event loop. */
  tickWrite(ms: number): void;
  /** One fdatasync of the WAL, off the event loop (only with synchronous 'full'). */
  walFlush(ms: number): void;
}

function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.up?.(db);
      record.run(m.version, m.name, new Date().toISOString());
    })();
  }
}
