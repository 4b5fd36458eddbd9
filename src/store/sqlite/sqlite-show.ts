/**
 * The prepared show on SQLite (../show-rows.ts): written inside the tick's transaction, a multi-row statement per
 * table for upserts and one statement per table for deletes (the ids as a JSON array), so a tick that changes the
 * show of many channels still costs a few statement runs. Loaded whole at start; the history also read a page at a
 * time, newest first.
 */
import type Database from 'better-sqlite3';
import type { ChannelChange } from '../../engine/index.js';
import { HISTORY_LOADED, historyPage, ShowWrites, type ShowRow } from '../show-rows.js';
import type { HistoryPage, HistoryQuery } from '../store.js';
import { placeholders, RowBatch } from './row-batch.js';

const inJson = 'IN (SELECT value FROM json_each(?))';

export class SqliteShow {
  private readonly st: ReturnType<typeof prepare>;
  private readonly upsertRundowns: RowBatch;
  private readonly insertSchedule: RowBatch;
  private readonly upsertHistory: RowBatch;

  constructor(db: Database.Database) {
    this.st = prepare(db);
    this.upsertRundowns = new RowBatch(
      db,
      4,
      (rows) => `INSERT INTO rundowns (id, channel_id, created_at, doc) VALUES ${placeholders(rows, 4)}
        ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
    );
    this.insertSchedule = new RowBatch(
      db,
      5,
      (rows) => `INSERT INTO scheduled_ops (id, channel_id, frame, seq, doc) VALUES ${placeholders(rows, 5)}`,
    );
    this.upsertHistory = new RowBatch(
      db,
      3,
      (rows) => `INSERT INTO channel_history (id, channel_id, doc) VALUES ${placeholders(rows, 3)}
        ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
    );
  }

  /** A tick's changes to the show; the caller's transaction holds it. */
  write(changes: readonly ChannelChange[]): void {
    const w = ShowWrites.of(changes);
    if (w.empty) return;
    if (w.goneRundowns.length > 0) this.st.deleteRundowns.run(JSON.stringify(w.goneRundowns));
    const r = w.rundowns;
    this.upsertRundowns.run(interleave(r.ids, r.channels, r.createdAt, r.docs));
    if (w.rescheduled.length > 0) this.st.deleteSchedules.run(JSON.stringify(w.rescheduled));
    const s = w.schedule;
    this.insertSchedule.run(interleave(s.ids, s.channels, s.frames, s.seqs, s.docs));
    if (w.goneHistory.length > 0) this.st.deleteHistory.run(JSON.stringify(w.goneHistory));
    const h = w.history;
    this.upsertHistory.run(interleave(h.ids, h.channels, h.docs));
  }

  /** Every channel's rows, in the order the live state holds them. */
  loadAll(): { rundowns: ShowRow[]; schedule: ShowRow[]; history: ShowRow[] } {
    return {
      rundowns: this.st.allRundowns.all() as ShowRow[],
      schedule: this.st.allSchedules.all() as ShowRow[],
      history: this.st.allHistory.all(HISTORY_LOADED) as ShowRow[],
    };
  }

  listHistory(channelId: string, q: HistoryQuery): HistoryPage {
    const rows = this.st.historyPage.all({ channelId, cursor: q.cursor ?? null, limit: q.limit + 1 }) as ShowRow[];
    return historyPage(rows, q.limit);
  }
}

/** Columns side by side → rows flattened, as RowBatch takes them. */
function interleave(...columns: unknown[][]): unknown[] {
  const out: unknown[] = [];
  const n = columns[0]!.length;
  for (let i = 0; i < n; i++) for (const c of columns) out.push(c[i]);
  return out;
}

function prepare(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    deleteRundowns: p(`DELETE FROM rundowns WHERE id ${inJson}`),
    deleteSchedules: p(`DELETE FROM scheduled_ops WHERE channel_id ${inJson}`),
    deleteHistory: p(`DELETE FROM channel_history WHERE id ${inJson}`),
    allRundowns: p('SELECT id, channel_id, doc FROM rundowns ORDER BY channel_id, created_at, id'),
    allSchedules: p('SELECT id, channel_id, doc FROM scheduled_ops ORDER BY channel_id, frame, seq'),
    allHistory: p(`SELECT id, channel_id, doc FROM (
        SELECT id, channel_id, doc, row_number() OVER (PARTITION BY channel_id ORDER BY id DESC) AS n
        FROM channel_history)
      WHERE n <= ? ORDER BY channel_id, id`),
    historyPage: p(`SELECT id, doc FROM channel_history
      WHERE channel_id = @channelId AND (@cursor IS NULL OR id < @cursor) ORDER BY id DESC LIMIT @limit`),
  };
}
