/**
 * The as-run log on Postgres (../as-run-store.ts): a tick's lines are written inside the tick's transaction
 * (`writeAsRun`), one statement per kind of write whatever the number of channels (the rows go as arrays, unnested by
 * Postgres); the rest are the AsRunStore's own statements.
 */
import type { AsRunStart, ChannelChange } from '../../engine/index.js';
import {
  AsRunWrites,
  asRunPage,
  openFromRow,
  START_COLUMNS,
  startRow,
  type AsRunRow,
  type OpenRow,
} from '../as-run-rows.js';
import {
  MAX_CONFIRMING_OUTPUTS,
  type AsRunPage,
  type AsRunQuery,
  type AsRunStore,
  type IntervalClose,
  type IntervalFrames,
  type OpenInterval,
  type PaintedFrame,
} from '../as-run-store.js';
import type { Database, Sql } from './database.js';

const PRUNE_ROWS = 500;
const PAINTED_WINDOW = 8;
const OPEN = 'end_at IS NULL';

const SQL = {
  // A tick ends at most one interval per channel and layer: the pairs are distinct.
  end: `UPDATE as_run AS r SET end_at = v.end_at, end_frame = v.end_frame, cleared_by = v.cleared_by
    FROM unnest($1::text[], $2::integer[], $3::text[], $4::bigint[], $5::text[])
      AS v(channel_id, layer, end_at, end_frame, cleared_by)
    WHERE r.channel_id = v.channel_id AND r.layer = v.layer AND r.${OPEN}`,
  update: `UPDATE as_run AS r SET updated_values = v.updated_values
    FROM unnest($1::text[], $2::integer[], $3::text[]) AS v(channel_id, layer, updated_values)
    WHERE r.channel_id = v.channel_id AND r.layer = v.layer AND r.${OPEN}`,
  start: `INSERT INTO as_run (${START_COLUMNS})
    SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::text[], $9::text[], $10::bigint[], $11::text[])`,
  close: `UPDATE as_run SET end_at = $2, end_frame = $3, end_inferred = $4 WHERE id = $1 AND ${OPEN}`,
  open: `SELECT id, channel_id, layer, start_at, start_frame, seen_at FROM as_run WHERE ${OPEN} ORDER BY id`,
  seen: `UPDATE as_run SET seen_at = $1 WHERE ${OPEN}`,
  confirm: `UPDATE as_run SET
      confirmed_at = CASE WHEN confirmed_at IS NULL OR confirmed_at > $3 THEN $3 ELSE confirmed_at END,
      confirmed_by = CASE
        WHEN jsonb_array_length(confirmed_by::jsonb) >= $4 OR confirmed_by::jsonb ? $2 THEN confirmed_by
        ELSE (confirmed_by::jsonb || to_jsonb($2::text))::text END
    WHERE id = $1`,
  painted: `SELECT id, start_frame, end_frame FROM (
      SELECT * FROM as_run WHERE channel_id = $1 AND layer = $2 ORDER BY id DESC LIMIT $6) AS r
    WHERE scene_id = $3 AND item_id IS NOT DISTINCT FROM $4 AND start_frame <= $5
      AND (end_frame IS NULL OR end_frame > $5)
    ORDER BY id DESC LIMIT 1`,
  // As in SQLite: `from` first finds where the intervals that end after it begin.
  list: `SELECT * FROM as_run WHERE channel_id = $1 AND id > $2
      AND ($3::text IS NULL OR ((end_at IS NULL OR end_at > $3) AND id >= coalesce((
        SELECT min(id) FROM as_run WHERE channel_id = $1 AND (end_at IS NULL OR end_at > $3)), '')))
      AND ($4::text IS NULL OR start_at < $4)
    ORDER BY id LIMIT $5`,
  prune: 'DELETE FROM as_run WHERE id IN (SELECT id FROM as_run WHERE end_at < $1 LIMIT $2)',
};

/** A tick's lines inside `tx`: ends, then updates, then starts. */
export async function writeAsRun(tx: Sql, changes: readonly ChannelChange[]): Promise<void> {
  const w = AsRunWrites.of(changes);
  if (!w) return;
  const { ends: e, updates: u } = w;
  if (e.channels.length > 0) await tx.run(SQL.end, [e.channels, e.layers, e.at, e.frames, e.clearedBy]);
  if (u.channels.length > 0) await tx.run(SQL.update, [u.channels, u.layers, u.values]);
  if (w.starts.length > 0) await tx.run(SQL.start, columns(w.starts));
}

export class PostgresAsRun implements AsRunStore {
  constructor(private readonly db: Database) {}

  async list(channelId: string, q: AsRunQuery): Promise<AsRunPage> {
    const params = [channelId, q.after ?? '', q.from ?? null, q.to ?? null, q.limit + 1];
    return asRunPage(await this.db.rows<AsRunRow>(SQL.list, params), q.limit);
  }

  async listOpen(): Promise<OpenInterval[]> {
    return (await this.db.rows<OpenRow>(SQL.open)).map(openFromRow);
  }

  async close(ends: readonly IntervalClose[], started: readonly { channelId: string; start: AsRunStart }[]) {
    await this.db.transaction(async (tx) => {
      for (const e of ends) await tx.run(SQL.close, [e.id, e.endAt, e.endFrame, e.inferred]);
      if (started.length > 0) await tx.run(SQL.start, columns(started.map((s) => startRow(s.channelId, s.start))));
    });
  }

  async seen(at: string): Promise<void> {
    await this.db.run(SQL.seen, [at]);
  }

  async confirm(id: string, outputId: string, at: string): Promise<boolean> {
    return (await this.db.run(SQL.confirm, [id, outputId, at, MAX_CONFIRMING_OUTPUTS])) > 0;
  }

  async findPainted(p: PaintedFrame): Promise<IntervalFrames | undefined> {
    const params = [p.channelId, p.layer, p.sceneId, p.itemId, p.frame, PAINTED_WINDOW];
    const row = await this.db.row<{ id: string; start_frame: number; end_frame: number | null }>(SQL.painted, params);
    return row && { id: row.id, startFrame: row.start_frame, endFrame: row.end_frame };
  }

  async prune(olderThan: string): Promise<number> {
    let pruned = 0;
    while (!this.db.closed) {
      const n = await this.db.run(SQL.prune, [olderThan, PRUNE_ROWS]);
      pruned += n;
      if (n < PRUNE_ROWS) break;
    }
    return pruned;
  }
}

/** Rows → one array per column, as unnest() takes them. */
function columns(rows: readonly unknown[][]): unknown[][] {
  return rows[0]!.map((_, i) => rows.map((r) => r[i]));
}
