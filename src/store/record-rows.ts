/**
 * Row shapes both stores share (SQLite and Postgres keep channels, scenes, input values, clocks and keys in the same
 * columns) and their mapping to domain records, both ways.
 */
import {
  EMPTY_BUS,
  type ChannelRecord,
  type FrameRate,
  type LiveState,
  type SceneRecord,
  type StoredChannel,
} from '../engine/index.js';
import type { ClockState, InputValue, PreviewEntry, ProgramEntry, SceneDefinition } from '@onair/protocol';
import { showFromRows, type ShowRows } from './show-rows.js';
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

export interface InputRow {
  channel_id: string;
  name: string;
  /** JSON */
  value: string;
}

export interface ClockRow {
  channel_id: string;
  name: string;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  running: number | boolean;
  ms: number;
  at: number;
  /** The period of a clock with periods; 0 for every other clock. */
  period: number;
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
  const bus = JSON.parse(json) as (E & { itemId?: string | null; values?: Record<string, InputValue> })[];
  for (const e of bus) {
    e.sceneId = text(e.sceneId);
    // Entries written before instances carried their own values.
    e.itemId ??= null;
    e.values ??= {};
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

/** A key's columns as both stores' INSERT takes them. */
export function keyParams(k: ApiKeyRecord): unknown[] {
  const channels = k.channelIds ? JSON.stringify(k.channelIds) : null;
  return [k.id, k.orgId, k.name, k.hash, k.prefix, JSON.stringify(k.permissions), channels, k.createdAt];
}

/** A channel's columns as both stores' INSERT takes them (SQLite's adds when its live state was last written). */
export function channelParams(c: ChannelRecord): unknown[] {
  return [c.id, c.orgId, c.name, c.fps, c.width, c.height, c.outputToken, c.createdAt, c.updatedAt];
}

/** A scene's columns as both stores' INSERT takes them. */
export function sceneParams(s: SceneRecord): unknown[] {
  return [s.id, s.channelId, s.name, JSON.stringify(s.definition), s.createdAt, s.updatedAt];
}

/**
 * Clocks and buses are never changed in place, only replaced (the engine copies before writing), so the channels
 * that have none (most, when thousands are loaded) share one empty map and one empty bus.
 */
const NO_CLOCKS: ReadonlyMap<string, ClockState> = new Map();

export function liveFromRow(
  r: ChannelRow,
  values: InputRow[] = [],
  clocks: ClockRow[] = [],
  text = asIs,
  show: ShowRows = {},
): LiveState {
  return {
    values: new Map(values.map((v) => [text(v.name), JSON.parse(v.value) as Exclude<InputValue, null>])),
    clocks:
      clocks.length === 0
        ? (NO_CLOCKS as Map<string, ClockState>)
        : new Map(clocks.map((c) => [text(c.name), clockFromRow(c)])),
    program: busFromJson<ProgramEntry>(r.program, text),
    preview: busFromJson<PreviewEntry>(r.preview, text),
    ...showFromRows(show),
    frame: r.frame,
    updatedAt: text(r.live_updated_at),
  };
}

/**
 * Every channel with its scenes and live state, from the whole of the tables (as loaded at start); the rows of the
 * prepared show in their load order (rundowns by creation, schedule soonest first, history oldest first).
 */
export function storedChannels(
  rows: {
    channels: ChannelRow[];
    scenes: SceneRow[];
    inputs: InputRow[];
    clocks: ClockRow[];
  } & ShowRows,
): StoredChannel[] {
  // 10,000 channels made from one template hold one parsed definition, not 10,000 copies.
  const parsed = new Map<string, SceneDefinition>();
  const parseShared = (json: string) => {
    let def = parsed.get(json);
    if (!def) parsed.set(json, (def = JSON.parse(json) as SceneDefinition));
    return def;
  };
  const text = sharedText();
  const scenes = byChannel(rows.scenes);
  const values = byChannel(rows.inputs);
  const clocks = byChannel(rows.clocks);
  const rundowns = byChannel(rows.rundowns ?? []);
  const schedule = byChannel(rows.schedule ?? []);
  const history = byChannel(rows.history ?? []);
  return rows.channels.map((row) => ({
    channel: channelFromRow(row, text),
    scenes: (scenes.get(row.id) ?? []).map((s) => sceneFromRow(s, parseShared, text)),
    live: liveFromRow(row, values.get(row.id), clocks.get(row.id), text, {
      rundowns: rundowns.get(row.id),
      schedule: schedule.get(row.id),
      history: history.get(row.id),
    }),
  }));
}

/** Groups rows by their channel, keeping their order. */
function byChannel<R extends { channel_id: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const row of rows) {
    const list = out.get(row.channel_id);
    if (list) list.push(row);
    else out.set(row.channel_id, [row]);
  }
  return out;
}

/** A clock's state; `period` only when past the first, as the engine writes it (protocol ClockState). */
function clockFromRow(c: ClockRow): ClockState {
  const state: ClockState = { running: Boolean(c.running), ms: c.ms, at: c.at };
  return c.period ? { ...state, period: Number(c.period) } : state;
}
