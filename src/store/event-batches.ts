/**
 * What both event logs (sqlite/event-log.ts, postgres/postgres-event-log.ts) share: a batch's layout (one row per
 * workspace and tick, its events as one JSON array, its channels named when few, its event types as bits), the
 * limits of one list request, and how a list decides which batches it may skip unread (event-scan.ts walks them).
 */
import { ENGINE_EVENT_TYPES, type ChannelChange, type EngineEvent } from '../engine/index.js';
import type { EventQuery } from './store.js';
import type { EventBatch } from './webhook-store.js';

export const TYPE_BITS = new Map<string, number>(ENGINE_EVENT_TYPES.map((t, i) => [t, 1 << i]));
export const ALL_TYPES = (1 << ENGINE_EVENT_TYPES.length) - 1;
/** A batch lists its channels (comma-separated: ids never hold one) when it has at most this many. */
export const NAMED_CHANNELS = 16;
/** JSON parsed per list request at most (a few milliseconds)... */
export const SCAN_BYTES = 2 * 1024 * 1024;
/** ...and batches looked at, skipped or not. */
export const SCAN_ROWS = 20_000;
export const ROWS_PER_READ = 256;
/** Batches deleted per statement when pruning. */
export const PRUNE_ROWS = 500;

/** `[id, channelId, type, data]`, plus `createdAt` when it differs from the batch's. */
export type Entry = [string, string, EngineEvent['type'], EngineEvent['data'], string?];

/** What a list needs to know of a batch to skip it unread. */
export interface BatchHead {
  seq: number;
  last_id: string;
  types: number;
  channels: string | null;
}

/** A batch as the webhook outbox reads it. */
export interface BatchRow {
  seq: number;
  org_id: string;
  created_at: string;
  body: string;
}

/** A batch's columns, from the workspace's events of one tick (oldest first). */
export interface EncodedBatch {
  lastId: string;
  firstId: string;
  createdAt: string;
  count: number;
  types: number;
  channels: string | null;
  body: string;
}

export function encodeBatch(events: EngineEvent[]): EncodedBatch {
  const last = events[events.length - 1]!;
  const channels = new Set<string>();
  let types = 0;
  const body: Entry[] = events.map((e) => {
    channels.add(e.channelId);
    types |= TYPE_BITS.get(e.type) ?? 0;
    return e.createdAt === last.createdAt
      ? [e.id, e.channelId, e.type, e.data]
      : [e.id, e.channelId, e.type, e.data, e.createdAt];
  });
  return {
    lastId: last.id,
    firstId: events[0]!.id,
    createdAt: last.createdAt,
    count: events.length,
    types,
    channels: channels.size <= NAMED_CHANNELS ? [...channels].join(',') : null,
    body: JSON.stringify(body),
  };
}

/** A tick's events by workspace, oldest first, or null when the tick has none. */
export function eventsByOrg(changes: readonly ChannelChange[]): Map<string, EngineEvent[]> | null {
  let byOrg: Map<string, EngineEvent[]> | null = null;
  for (const c of changes) {
    if (c.events.length === 0) continue;
    byOrg ??= new Map();
    const list = byOrg.get(c.orgId);
    if (list) list.push(...c.events);
    else byOrg.set(c.orgId, [...c.events]);
  }
  return byOrg;
}

/** The event of a batch's entry; `createdAt` is the batch's. */
export function entryEvent(e: Entry, orgId: string, createdAt: string): EngineEvent {
  return { id: e[0], type: e[2], orgId, channelId: e[1], createdAt: e[4] ?? createdAt, data: e[3] };
}

/** A batch read by `seq` for the webhook outbox. */
export function outboxBatch(row: BatchRow): EventBatch {
  const events = (JSON.parse(row.body) as Entry[]).map((e) => entryEvent(e, row.org_id, row.created_at));
  return { seq: row.seq, orgId: row.org_id, events };
}

/** Whether a batch's named channels include one the query wants. */
export function names(channels: string, wanted: ReadonlySet<string>): boolean {
  return channels.split(',').some((c) => wanted.has(c));
}

/** The channels a query may see, or null for all of the workspace's. */
export function wantedChannels(q: EventQuery): ReadonlySet<string> | null {
  if (q.channelId !== undefined) {
    return q.onlyChannelIds && !q.onlyChannelIds.includes(q.channelId) ? new Set() : new Set([q.channelId]);
  }
  return q.onlyChannelIds ? new Set(q.onlyChannelIds) : null;
}
