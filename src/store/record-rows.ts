/**
 * Row shapes both stores share (SQLite and Postgres keep channels, scenes and keys in the same columns) and their
 * mapping to domain records. Each store's rows.ts adds what differs: clocks (a flag is 0/1 in SQLite, a boolean in
 * Postgres) and input values.
 */
import { EMPTY_BUS, type ChannelRecord, type FrameRate, type SceneRecord } from '../engine/index.js';
import type { SceneDefinition } from '@onair/protocol';
import type { ApiKeyRecord } from './store.js';

export interface ChannelRow {
  id: string;
  org_id: string;
  name: string;
  fps: number;
  width: number;
  height: number;
  output_token: string;
  created_at: string;
  updated_at: string;
  /** JSON: ProgramEntry[] */
  program: string;
  /** JSON: PreviewEntry[] */
  preview: string;
  frame: number;
  live_updated_at: string;
}

export interface SceneRow {
  id: string;
  channel_id: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  hash: string;
  prefix: string;
  permissions: string;
  channel_ids: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * How a mapping keeps the strings of a row. Rows loaded together repeat many of them (the org id, scene
 * names, a channel's id in its scenes, the timestamps of one creation): a loader passes `sharedText()`
 * to keep one copy of each.
 */
export type Text = (s: string) => string;
export const asIs: Text = (s) => s;

export function sharedText(): Text {
  const seen = new Map<string, string>();
  return (s) => {
    const kept = seen.get(s);
    if (kept !== undefined) return kept;
    seen.set(s, s);
    return s;
  };
}

export function channelFromRow(r: ChannelRow, text: Text = asIs): ChannelRecord {
  return {
    id: text(r.id),
    orgId: text(r.org_id),
    name: r.name,
    fps: r.fps as FrameRate,
    width: r.width,
    height: r.height,
    outputToken: r.output_token,
    createdAt: text(r.created_at),
    updatedAt: text(r.updated_at),
  };
}

export function busFromJson<E extends { sceneId: string }>(json: string, text: Text): E[] {
  if (json === '[]') return EMPTY_BUS;
  const bus = JSON.parse(json) as E[];
  for (const e of bus) {
    e.sceneId = text(e.sceneId);
    if ('since' in e && typeof e.since === 'string') e.since = text(e.since);
  }
  return bus;
}

/**
 * `parse` lets a caller share one parsed definition between identical rows (many channels built from
 * the same template); definitions are never mutated in place, only replaced.
 */
export function sceneFromRow(
  r: SceneRow,
  parse: (json: string) => SceneDefinition = (json) => JSON.parse(json) as SceneDefinition,
  text: Text = asIs,
): SceneRecord {
  return {
    id: text(r.id),
    channelId: text(r.channel_id),
    name: text(r.name),
    definition: parse(r.definition),
    createdAt: text(r.created_at),
    updatedAt: text(r.updated_at),
  };
}

export function keyFromRow(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    hash: r.hash,
    prefix: r.prefix,
    permissions: JSON.parse(r.permissions) as string[],
    channelIds: r.channel_ids ? (JSON.parse(r.channel_ids) as string[]) : null,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}
