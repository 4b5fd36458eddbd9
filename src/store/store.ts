/**
 * Durable storage, shaped by the domain's operations rather than by one database's commands.
 *
 * Guarantees every implementation keeps (the contract suite in store.contract.ts runs against each):
 * - Every method's effect is durable when its promise resolves; a crash afterwards loses nothing.
 * - commitTick is atomic: all of a tick's changes or none, events included, and it rejects when nothing was
 *   written. So an acknowledged change always has its events in the log, and a refused one has none.
 * - Lists are in creation order (ids sort by creation time); `after` is an exclusive id cursor.
 * - Deleting a channel deletes its scenes (and their versions), inputs, clocks, rundowns, schedule, history and as-run
 *   log; its events stay in the log until they expire.
 * Today: SqliteStore. Several nodes will want a Postgres one behind the same interface.
 */
import type { AccountStore, OrgRecord } from './account-store.js';
import type { AsRunStore } from './as-run-store.js';
import type { AssetStore } from './asset-store.js';
import type { GraphicStore } from './graphic-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { IncomingHookStore } from './incoming-hook-store.js';
import type { SourceStore } from './source-store.js';
import type { WebhookStore } from './webhook-store.js';
import type {
  ChannelRecord,
  EngineEvent,
  EngineEventType,
  SceneRecord,
  StoredChannel,
  TickCommitter,
} from '../engine/index.js';
import type { Actor, HistoryAction, SceneDefinition } from '@onair/protocol';

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  hash: string;
  /** The first characters of the secret, to recognise a key in lists. */
  prefix: string;
  permissions: string[];
  /** null: every channel of the workspace. */
  channelIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Page {
  limit: number;
  after?: string | undefined;
  /** Restrict to these ids (channel-locked keys). */
  onlyIds?: readonly string[] | undefined;
}

export interface EventQuery {
  limit: number;
  /** Exclusive id cursor. */
  after?: string | undefined;
  channelId?: string | undefined;
  type?: EngineEventType | undefined;
  /** Restrict to these channels (channel-locked keys). */
  onlyChannelIds?: readonly string[] | undefined;
}

export interface EventPage {
  /** At most `limit`, oldest first. */
  events: EngineEvent[];
  /**
   * Where the next page starts (pass it as `after`), or null at the end of the log. A filtered page may hold
   * fewer than `limit` events, even none, while this is set: the store bounds the work of one call.
   */
  nextCursor: string | null;
}

export interface HistoryQuery {
  limit: number;
  /** Exclusive id cursor: entries older than this one. */
  cursor?: string | undefined;
}

export interface HistoryPage {
  /** At most `limit`, newest first, without what each action touched. */
  data: HistoryAction[];
  /** The id to pass as `cursor` for older entries, or null when there are none. */
  nextCursor: string | null;
}

/** A scene's definition as one save left it (docs/scenes.md, "Versions"). */
export interface SceneVersionRecord {
  sceneId: string;
  /** 1 for the scene's creation, one more for each save after it. */
  version: number;
  name: string;
  definition: SceneDefinition;
  savedAt: string;
  savedBy: Actor;
}

export type SceneVersionSummary = Omit<SceneVersionRecord, 'sceneId' | 'definition'>;

/** The versions a scene keeps: its last saves, the older ones deleted with the save that passes this count. */
export const SCENE_VERSIONS_KEPT = 50;

export interface Store extends TickCommitter {
  close(): Promise<void>;
  /**
   * Why the store refuses writes, or null: the disk is full, read-only or failing, or a flush could not be
   * confirmed. Meanwhile every write rejects with AppError `unavailable` and reads go on. Health checks report it.
   * A full disk ends by itself once space is freed; anything else lasts until a restart, which recovers from
   * what is on disk.
   */
  failure(): string | null;
  readonly accounts: AccountStore;
  readonly webhooks: WebhookStore;
  readonly incomingHooks: IncomingHookStore;
  readonly sources: SourceStore;
  readonly assets: AssetStore;
  /** Imported OGraf graphics and their files. */
  readonly graphics: GraphicStore;
  readonly idempotency: IdempotencyStore;
  /** The as-run log; commitTick writes each tick's lines (ChannelChange.asRun) in the tick's transaction. */
  readonly asRun: AsRunStore;

  defaultOrg(): Promise<OrgRecord>;

  insertKey(key: ApiKeyRecord): Promise<void>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  countKeys(): Promise<number>;
  /** A workspace's keys that are not revoked. */
  countActiveKeys(orgId: string): Promise<number>;
  touchKey(id: string, at: string): Promise<void>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** Keys of a workspace, revoked ones included, in creation order. */
  listKeys(orgId: string, page: Page): Promise<ApiKeyRecord[]>;
  revokeKey(id: string, at: string): Promise<void>;

  /** Every channel with its scenes and live state, to restore the engine at start. */
  loadChannels(): Promise<StoredChannel[]>;
  listChannels(orgId: string, page: Page): Promise<ChannelRecord[]>;
  insertChannel(channel: ChannelRecord): Promise<void>;
  updateChannel(channel: ChannelRecord): Promise<void>;
  deleteChannel(id: string): Promise<void>;

  /**
   * Each save of a scene also records a version (`savedAt` its updatedAt, `savedBy` who saved it), in the same
   * transaction: version 1 at creation, the next number at each update, the last SCENE_VERSIONS_KEPT kept. An update
   * of a scene that is not there (deleted meanwhile) changes nothing.
   */
  insertScene(scene: SceneRecord, savedBy: Actor): Promise<void>;
  updateScene(scene: SceneRecord, savedBy: Actor): Promise<void>;
  /** Its versions go with it. */
  deleteScene(id: string): Promise<void>;
  /** A scene's versions, newest first; none for an unknown scene. */
  listSceneVersions(sceneId: string): Promise<SceneVersionSummary[]>;
  getSceneVersion(sceneId: string, version: number): Promise<SceneVersionRecord | undefined>;

  /**
   * A channel's on-air history as its ticks wrote it (docs/rundowns.md, "Undo"), newest first: the entries the engine
   * still holds (it prunes the oldest, and the store with it).
   */
  listHistory(channelId: string, query: HistoryQuery): Promise<HistoryPage>;

  /** A workspace's events, oldest first (ids sort by creation), as the ticks that caused them wrote them. */
  listEvents(orgId: string, query: EventQuery): Promise<EventPage>;
  /** Deletes events created before `olderThan` (ISO 8601); returns how many. */
  pruneEvents(olderThan: string): Promise<number>;
}
