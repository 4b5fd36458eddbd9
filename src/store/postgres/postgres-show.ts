/**
 * The prepared show on Postgres (../show-rows.ts): written inside the tick's transaction as one statement per kind of
 * write whatever the number of channels (the rows go as arrays, unnested by Postgres), loaded with the channels, and
 * the history read a page at a time, newest first.
 */
import type { ChannelChange } from '../../engine/index.js';
import { HISTORY_LOADED, historyPage, ShowWrites, type ShowRow } from '../show-rows.js';
import type { HistoryPage, HistoryQuery } from '../store.js';
import type { Sql } from './database.js';

const SQL = {
  deleteRundowns: 'DELETE FROM rundowns WHERE id = ANY($1::text[])',
  upsertRundowns: `INSERT INTO rundowns (id, channel_id, created_at, doc)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
    ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
  deleteSchedules: 'DELETE FROM scheduled_ops WHERE channel_id = ANY($1::text[])',
  insertSchedule: `INSERT INTO scheduled_ops (id, channel_id, frame, seq, doc)
    SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::text[])`,
  deleteHistory: 'DELETE FROM channel_history WHERE id = ANY($1::text[])',
  upsertHistory: `INSERT INTO channel_history (id, channel_id, doc)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
    ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
  rundowns: (where: string) => `SELECT id, channel_id, doc FROM rundowns ${where} ORDER BY channel_id, created_at, id`,
  schedule: (where: string) => `SELECT id, channel_id, doc FROM scheduled_ops ${where} ORDER BY channel_id, frame, seq`,
  history: (where: string) => `SELECT id, channel_id, doc FROM (
      SELECT id, channel_id, doc, row_number() OVER (PARTITION BY channel_id ORDER BY id DESC) AS n
      FROM channel_history ${where}) AS h
    WHERE n <= ${HISTORY_LOADED} ORDER BY channel_id, id`,
  historyPage: `SELECT id, doc FROM channel_history
    WHERE channel_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
};

/** A tick's changes to the show, inside `tx`. */
export async function writeShow(tx: Sql, changes: readonly ChannelChange[]): Promise<void> {
  const w = ShowWrites.of(changes);
  if (w.empty) return;
  const { rundowns: r, schedule: s, history: h } = w;
  if (w.goneRundowns.length > 0) await tx.run(SQL.deleteRundowns, [w.goneRundowns]);
  if (r.ids.length > 0) await tx.run(SQL.upsertRundowns, [r.ids, r.channels, r.createdAt, r.docs]);
  if (w.rescheduled.length > 0) await tx.run(SQL.deleteSchedules, [w.rescheduled]);
  if (s.ids.length > 0) await tx.run(SQL.insertSchedule, [s.ids, s.channels, s.frames, s.seqs, s.docs]);
  if (w.goneHistory.length > 0) await tx.run(SQL.deleteHistory, [w.goneHistory]);
  if (h.ids.length > 0) await tx.run(SQL.upsertHistory, [h.ids, h.channels, h.docs]);
}

/** The show's rows of every channel, or of one (`channelId`), in the order the live state holds them. */
export async function loadShow(
  tx: Sql,
  channelId?: string,
): Promise<{ rundowns: ShowRow[]; schedule: ShowRow[]; history: ShowRow[] }> {
  const where = channelId === undefined ? '' : 'WHERE channel_id = $1';
  const params = channelId === undefined ? [] : [channelId];
  return {
    rundowns: await tx.rows<ShowRow>(SQL.rundowns(where), params),
    schedule: await tx.rows<ShowRow>(SQL.schedule(where), params),
    history: await tx.rows<ShowRow>(SQL.history(where), params),
  };
}

export async function listHistory(db: Sql, channelId: string, q: HistoryQuery): Promise<HistoryPage> {
  const rows = await db.rows<ShowRow>(SQL.historyPage, [channelId, q.cursor ?? null, q.limit + 1]);
  return historyPage(rows, q.limit);
}
