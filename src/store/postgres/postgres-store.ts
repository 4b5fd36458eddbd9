/**
 * The Store on PostgreSQL (docs/architecture/several-nodes.md, step 1): the same interface and contract as
 * SqliteStore, for several onair nodes sharing one database. Every method's promise resolves after Postgres
 * committed its statement (synchronous_commit on: the commit is in the server's WAL on disk); a tick is one
 * transaction, events included. A statement that cannot reach Postgres rejects with 503 `unavailable` and
 * `failure()` reports it until Postgres answers again (./database.ts). A commit whose connection is lost before
 * Postgres answers is reported as failed, though it may have been applied: the engine retries what it requeues.
 *
 * Open with `PostgresStore.open({ url })`: it migrates the schema first (./migrations.ts). The URL may carry
 * `options=-c search_path=<schema>` to keep the tables in a schema of their own.
 */
import type { ChannelChange, ChannelRecord, SceneRecord, StoredChannel, TickWrite } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Actor, SceneDefinition } from '@onair/protocol';
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
import { Database, LOCKS, type Sql } from './database.js';
import { migrate } from './migrations.js';
import { PostgresAccounts } from './postgres-accounts.js';
import { PostgresAsRun } from './postgres-as-run.js';
import { PostgresEventLog } from './postgres-event-log.js';
import { PostgresIdempotency } from './postgres-idempotency.js';
import { PostgresAssets } from './postgres-assets.js';
import { PostgresGraphics } from './postgres-graphics.js';
import { PostgresIncomingHooks } from './postgres-incoming-hooks.js';
import { PostgresSources } from './postgres-sources.js';
import { PostgresScenes } from './postgres-scenes.js';
import { listHistory, loadShow } from './postgres-show.js';
import { PostgresWebhooks } from './postgres-webhooks.js';
import {
  CHANNEL_COLUMNS,
  channelFromRow,
  channelParams,
  keyFromRow,
  keyParams,
  liveFromRow,
  sceneFromRow,
  sharedText,
  storedChannels,
  type ChannelRow,
  type ClockRow,
  type InputRow,
  type KeyRow,
  type SceneRow,
} from './rows.js';
import { writeTick } from './tick-write.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database, optionally with `options=-c search_path=<schema>`. */
  url: string;
  /** Connections at most; default 10. */
  poolSize?: number;
  /**
   * Several nodes (cluster/channel-leases.ts): runs first inside every tick's transaction with the ticked channels,
   * and refuses the tick (by throwing) when this node no longer owns one of them. Resolves with the channels that
   * were deleted meanwhile (by another node): the tick leaves them out (TickCommitter, engine/engine.ts).
   */
  fence?: (tx: Sql, channelIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /** An idle connection of the pool died: for logs. */
  onPoolError?: (err: unknown) => void;
}

const SQL = {
  firstOrg: 'SELECT id, name, created_at FROM orgs ORDER BY id LIMIT 1',
  insertOrg: 'INSERT INTO orgs (id, name, created_at) VALUES ($1, $2, $3)',
  insertKey: `INSERT INTO api_keys (id, org_id, name, hash, prefix, permissions, channel_ids, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  listKeys: 'SELECT * FROM api_keys WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3',
  revokeKey: 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2',
  listChannels: `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  listChannelsIn: `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE org_id = $1 AND id > $2 AND id = ANY($4::text[])
    ORDER BY id LIMIT $3`,
  insertChannel: `INSERT INTO channels (id, org_id, name, fps, width, height, output_token, created_at, updated_at,
    live_updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8)`,
  updateChannel: `UPDATE channels SET name = $2, fps = $3, width = $4, height = $5, output_token = $6, updated_at = $7
    WHERE id = $1`,
  allChannels: `SELECT ${CHANNEL_COLUMNS} FROM channels ORDER BY id`,
  allScenes: 'SELECT * FROM scenes ORDER BY id',
  // In key order, as SQLite reads its tables without rowid: a channel's values load in the same order.
  allInputs: 'SELECT channel_id, name, value FROM channel_inputs ORDER BY channel_id, name',
  allClocks: 'SELECT channel_id, name, running, ms, at, period FROM channel_clocks ORDER BY channel_id, name',
  oneChannel: `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE id = $1`,
  oneChannelScenes: 'SELECT * FROM scenes WHERE channel_id = $1 ORDER BY id',
  oneChannelInputs: 'SELECT channel_id, name, value FROM channel_inputs WHERE channel_id = $1 ORDER BY name',
  oneChannelClocks:
    'SELECT channel_id, name, running, ms, at, period FROM channel_clocks WHERE channel_id = $1 ORDER BY name',
};

type OrgRow = { id: string; name: string; created_at: string };
const org = (r: OrgRow): OrgRecord => ({ id: r.id, name: r.name, createdAt: r.created_at });

export class PostgresStore implements Store {
  readonly accounts: PostgresAccounts;
  readonly webhooks: PostgresWebhooks;
  readonly incomingHooks: PostgresIncomingHooks;
  readonly sources: PostgresSources;
  readonly assets: PostgresAssets;
  readonly graphics: PostgresGraphics;
  readonly idempotency: PostgresIdempotency;
  readonly asRun: PostgresAsRun;
  private readonly events = new PostgresEventLog();
  private readonly scenes: PostgresScenes;

  private constructor(
    private readonly db: Database,
    private readonly fence: PostgresStoreOptions['fence'],
  ) {
    this.accounts = new PostgresAccounts(db);
    this.webhooks = new PostgresWebhooks(db, this.events);
    this.incomingHooks = new PostgresIncomingHooks(db);
    this.sources = new PostgresSources(db);
    this.assets = new PostgresAssets(db);
    this.graphics = new PostgresGraphics(db);
    this.idempotency = new PostgresIdempotency(db);
    this.asRun = new PostgresAsRun(db);
    this.scenes = new PostgresScenes(db);
  }

  /** Connects and brings the schema up to date; rejects (closing the pool) when either fails. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const db = new Database(options.url, { poolSize: options.poolSize, onError: options.onPoolError });
    try {
      await migrate(db);
    } catch (err) {
      await db.close();
      throw err;
    }
    return new PostgresStore(db, options.fence);
  }

  close(): Promise<void> {
    return this.db.close();
  }

  failure(): string | null {
    return this.db.failure();
  }

  async commitTick(_frame: number, changes: readonly ChannelChange[]): Promise<TickWrite> {
    const fence = this.fence;
    return this.db.transaction(async (tx) => {
      const gone = fence ? await fence(tx, [...new Set(changes.map((c) => c.channelId))]) : new Set<string>();
      await writeTick(
        tx,
        changes.filter((c) => !gone.has(c.channelId)),
        this.events,
      );
      return gone.size > 0 ? { deleted: [...gone] } : undefined;
    });
  }

  /** The first workspace, created when there is none; two nodes starting at once create one between them. */
  async defaultOrg(): Promise<OrgRecord> {
    const row = await this.db.row<OrgRow>(SQL.firstOrg);
    if (row) return org(row);
    return this.db.transaction(async (tx) => {
      await tx.lock(LOCKS.defaultOrg);
      const existing = await tx.row<OrgRow>(SQL.firstOrg);
      if (existing) return org(existing);
      const created = { id: newId('org'), name: 'Default workspace', createdAt: new Date().toISOString() };
      await tx.run(SQL.insertOrg, [created.id, created.name, created.createdAt]);
      return created;
    });
  }

  async insertKey(k: ApiKeyRecord): Promise<void> {
    await this.db.run(SQL.insertKey, keyParams(k));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.row<KeyRow>('SELECT * FROM api_keys WHERE hash = $1', [hash]);
    return row ? keyFromRow(row) : undefined;
  }

  async countKeys(): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM api_keys'))!.n;
  }

  async countActiveKeys(orgId: string): Promise<number> {
    const sql = 'SELECT count(*) AS n FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL';
    return (await this.db.row<{ n: number }>(sql, [orgId]))!.n;
  }

  /** lastUsedAt is a hint: a database that refuses it must not refuse the request that used the key. */
  async touchKey(id: string, at: string): Promise<void> {
    try {
      await this.db.run('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'unavailable')) throw err;
    }
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.row<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return row ? keyFromRow(row) : undefined;
  }

  async listKeys(orgId: string, page: Page): Promise<ApiKeyRecord[]> {
    return (await this.db.rows<KeyRow>(SQL.listKeys, [orgId, page.after ?? '', page.limit])).map(keyFromRow);
  }

  async revokeKey(id: string, at: string): Promise<void> {
    await this.db.run(SQL.revokeKey, [at, id]);
  }

  /** Every channel as of one snapshot: a tick committed meanwhile is either wholly in it or not at all. */
  async loadChannels(): Promise<StoredChannel[]> {
    return this.db.snapshot((tx) => loadAll(tx));
  }

  /** One channel as loadChannels() would give it, or undefined: what a node loads when it takes a channel over. */
  async loadChannel(id: string): Promise<StoredChannel | undefined> {
    return this.db.snapshot(async (tx) => {
      const row = await tx.row<ChannelRow>(SQL.oneChannel, [id]);
      if (!row) return undefined;
      const text = sharedText();
      const scenes = await tx.rows<SceneRow>(SQL.oneChannelScenes, [id]);
      const values = await tx.rows<InputRow>(SQL.oneChannelInputs, [id]);
      const clocks = await tx.rows<ClockRow>(SQL.oneChannelClocks, [id]);
      const show = await loadShow(tx, id);
      const parse = (json: string) => JSON.parse(json) as SceneDefinition;
      return {
        channel: channelFromRow(row, text),
        scenes: scenes.map((s) => sceneFromRow(s, parse, text)),
        live: liveFromRow(row, values, clocks, text, show),
      };
    });
  }

  async listChannels(orgId: string, page: Page): Promise<ChannelRecord[]> {
    const after = page.after ?? '';
    const rows = page.onlyIds
      ? await this.db.rows<ChannelRow>(SQL.listChannelsIn, [orgId, after, page.limit, page.onlyIds])
      : await this.db.rows<ChannelRow>(SQL.listChannels, [orgId, after, page.limit]);
    return rows.map((row) => channelFromRow(row));
  }

  async insertChannel(c: ChannelRecord): Promise<void> {
    await this.db.run(SQL.insertChannel, channelParams(c));
  }

  async updateChannel(c: ChannelRecord): Promise<void> {
    await this.db.run(SQL.updateChannel, [c.id, c.name, c.fps, c.width, c.height, c.outputToken, c.updatedAt]);
  }

  /** Its scenes, inputs, clocks and incoming hooks go with it (foreign keys); its events stay. */
  async deleteChannel(id: string): Promise<void> {
    await this.db.run('DELETE FROM channels WHERE id = $1', [id]);
  }

  async insertScene(s: SceneRecord, savedBy: Actor): Promise<void> {
    await this.scenes.insert(s, savedBy);
  }

  async updateScene(s: SceneRecord, savedBy: Actor): Promise<void> {
    await this.scenes.update(s, savedBy);
  }

  async deleteScene(id: string): Promise<void> {
    await this.scenes.delete(id);
  }

  async listSceneVersions(sceneId: string): Promise<SceneVersionSummary[]> {
    return this.scenes.versions(sceneId);
  }

  async getSceneVersion(sceneId: string, version: number): Promise<SceneVersionRecord | undefined> {
    return this.scenes.version(sceneId, version);
  }

  async listHistory(channelId: string, query: HistoryQuery): Promise<HistoryPage> {
    return listHistory(this.db, channelId, query);
  }

  async listEvents(orgId: string, q: EventQuery): Promise<EventPage> {
    return this.db.snapshot((tx) => this.events.list(tx, orgId, q));
  }

  /** Deletes a few hundred batches per workspace at a time, each step its own statement. */
  async pruneEvents(olderThan: string): Promise<number> {
    let pruned = 0;
    while (!this.db.closed) {
      const step = await this.events.pruneSome(this.db, olderThan);
      pruned += step.pruned;
      if (!step.more) break;
    }
    return pruned;
  }
}

/** Channels with their scenes, values, clocks and prepared show, read in seven statements (on one snapshot). */
async function loadAll(tx: Sql): Promise<StoredChannel[]> {
  const scenes = await tx.rows<SceneRow>(SQL.allScenes);
  const inputs = await tx.rows<InputRow>(SQL.allInputs);
  const clocks = await tx.rows<ClockRow>(SQL.allClocks);
  const show = await loadShow(tx);
  const channels = await tx.rows<ChannelRow>(SQL.allChannels);
  return storedChannels({ channels, scenes, inputs, clocks, ...show });
}
