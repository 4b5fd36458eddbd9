/**
 * What both as-run stores (sqlite/sqlite-as-run.ts, postgres/postgres-as-run.ts) share: a row's columns and how they
 * become a record, and a tick's writes gathered by kind (ends, then updates, then starts), one array per column.
 * JSON columns hold values and actors as text.
 */
import type { AsRunStart, ChannelChange } from '../engine/index.js';
import type { Actor, InputValue } from '@onair/protocol';
import type { AsRunPage, AsRunRecord, OpenInterval } from './as-run-store.js';

export interface AsRunRow {
  id: string;
  channel_id: string;
  layer: number;
  scene_id: string;
  scene_name: string;
  item_id: string | null;
  label: string;
  start_values: string;
  updated_values: string | null;
  start_at: string;
  start_frame: number;
  end_at: string | null;
  end_frame: number | null;
  taken_by: string;
  cleared_by: string | null;
  confirmed_at: string | null;
  confirmed_by: string;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  end_inferred: number | boolean;
}

/** What listOpen() reads of a row. */
export type OpenRow = Pick<AsRunRow, 'id' | 'channel_id' | 'layer' | 'start_at' | 'start_frame'> & {
  seen_at: string | null;
};

export function openFromRow(r: OpenRow): OpenInterval {
  const { id, channel_id: channelId, layer, start_at: startAt, start_frame: startFrame, seen_at: seenAt } = r;
  return { id, channelId, layer, startAt, startFrame, seenAt };
}

/** The columns an interval starts with, in the order startRow() gives them. */
export const START_COLUMNS =
  'id, channel_id, layer, scene_id, scene_name, item_id, label, start_values, start_at, start_frame, taken_by';

export function startRow(channelId: string, s: AsRunStart): unknown[] {
  const { id, layer, sceneId, sceneName, itemId, label, values, startAt, startFrame, takenBy } = s;
  return [
    id,
    channelId,
    layer,
    sceneId,
    sceneName,
    itemId,
    label,
    JSON.stringify(values),
    startAt,
    startFrame,
    actor(takenBy),
  ];
}

export function asRunFromRow(r: AsRunRow): AsRunRecord {
  return {
    id: r.id,
    channelId: r.channel_id,
    layer: r.layer,
    sceneId: r.scene_id,
    sceneName: r.scene_name,
    itemId: r.item_id,
    label: r.label,
    values: JSON.parse(r.start_values) as Record<string, InputValue>,
    updatedValues: r.updated_values === null ? null : (JSON.parse(r.updated_values) as Record<string, InputValue>),
    startAt: r.start_at,
    startFrame: r.start_frame,
    endAt: r.end_at,
    endFrame: r.end_frame,
    takenBy: JSON.parse(r.taken_by) as Actor,
    clearedBy: r.cleared_by === null ? null : (JSON.parse(r.cleared_by) as Actor),
    confirmedAt: r.confirmed_at,
    confirmedBy: JSON.parse(r.confirmed_by) as string[],
    endInferred: r.end_inferred === true || r.end_inferred === 1,
  };
}

/** A page from up to `limit + 1` rows in id order: the extra one says that more follow. */
export function asRunPage(rows: AsRunRow[], limit: number): AsRunPage {
  const records = rows.slice(0, limit).map(asRunFromRow);
  const last = records[records.length - 1];
  return { records, nextCursor: rows.length > limit && last ? last.id : null };
}

export function actor(a: Actor | null): string | null {
  return a === null ? null : JSON.stringify({ type: a.type, id: a.id, name: a.name });
}

/** A tick's as-run writes, one array per column. */
export class AsRunWrites {
  readonly ends = {
    channels: [] as string[],
    layers: [] as number[],
    at: [] as string[],
    frames: [] as number[],
    clearedBy: [] as (string | null)[],
  };
  readonly updates = { channels: [] as string[], layers: [] as number[], values: [] as string[] };
  /** Each start's columns, in START_COLUMNS order. */
  readonly starts: unknown[][] = [];

  static of(changes: readonly ChannelChange[]): AsRunWrites | null {
    let w: AsRunWrites | null = null;
    for (const c of changes) {
      if (!c.asRun) continue;
      w ??= new AsRunWrites();
      for (const e of c.asRun.ended) {
        w.ends.channels.push(c.channelId);
        w.ends.layers.push(e.layer);
        w.ends.at.push(e.endAt);
        w.ends.frames.push(e.endFrame);
        w.ends.clearedBy.push(actor(e.clearedBy));
      }
      for (const u of c.asRun.updated) {
        w.updates.channels.push(c.channelId);
        w.updates.layers.push(u.layer);
        w.updates.values.push(JSON.stringify(u.values));
      }
      for (const s of c.asRun.started) w.starts.push(startRow(c.channelId, s));
    }
    return w;
  }
}
