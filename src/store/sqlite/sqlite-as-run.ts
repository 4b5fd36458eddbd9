/**
 * The as-run log on SQLite (../as-run-store.ts): a tick's lines are written inside the tick's transaction (`write`),
 * one statement run per line (takes and clears are few beside value changes); the rest are the AsRunStore's own
 * statements, prepared once.
 */
import type Database from 'better-sqlite3';
import type { ChannelChange } from '../../engine/index.js';
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
import type { AsRunStart } from '../../engine/index.js';

/** Intervals deleted per statement when pruning. */
const PRUNE_ROWS = 500;
/** How far back among a layer's intervals a painted frame is looked for. */
const PAINTED_WINDOW = 8;

export class SqliteAsRun implements AsRunStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly closeTx: (ends: readonly IntervalClose[], started: readonly StartOf[]) => void;

  constructor(private readonly db: Database.Database) {
    this.st = prepare(db);
    this.closeTx = db.transaction((ends: readonly IntervalClose[], started: readonly StartOf[]) => {
      for (const e of ends) this.st.close.run(e.endAt, e.endFrame, e.inferred ? 1 : 0, e.id);
      for (const s of started) this.st.start.run(...startRow(s.channelId, s.start));
    });
  }

  /** A tick's lines; the caller's transaction holds them. */
  write(changes: readonly ChannelChange[]): void {
    const w = AsRunWrites.of(changes);
    if (!w) return;
    const { ends, updates } = w;
    for (let i = 0; i < ends.channels.length; i++) {
      this.st.end.run(ends.at[i], ends.frames[i], ends.clearedBy[i], ends.channels[i], ends.layers[i]);
    }
    for (let i = 0; i < updates.channels.length; i++) {
      this.st.update.run(updates.values[i], updates.channels[i], updates.layers[i]);
    }
    for (const row of w.starts) this.st.start.run(...row);
  }

  async list(channelId: string, q: AsRunQuery): Promise<AsRunPage> {
    const params = { channel: channelId, after: q.after ?? '', from: q.from ?? null, to: q.to ?? null };
    return asRunPage(this.st.list.all({ ...params, limit: q.limit + 1 }) as AsRunRow[], q.limit);
  }

  async listOpen(): Promise<OpenInterval[]> {
    return (this.st.open.all() as OpenRow[]).map(openFromRow);
  }

  async close(ends: readonly IntervalClose[], started: readonly StartOf[]): Promise<void> {
    this.closeTx(ends, started);
  }

  async seen(at: string): Promise<void> {
    this.st.seen.run(at);
  }

  async confirm(id: string, outputId: string, at: string): Promise<boolean> {
    return this.st.confirm.run({ id, output: outputId, at, max: MAX_CONFIRMING_OUTPUTS }).changes > 0;
  }

  async findPainted(p: PaintedFrame): Promise<IntervalFrames | undefined> {
    const { channelId: channel, layer, sceneId: scene, itemId: item, frame } = p;
    const row = this.st.painted.get({ channel, layer, scene, item, frame, window: PAINTED_WINDOW }) as
      { id: string; start_frame: number; end_frame: number | null } | undefined;
    return row && { id: row.id, startFrame: row.start_frame, endFrame: row.end_frame };
  }

  /** A few hundred rows at a time, letting ticks run in between. */
  async prune(olderThan: string): Promise<number> {
    let pruned = 0;
    while (this.db.open) {
      const n = this.st.prune.run(olderThan, PRUNE_ROWS).changes;
      pruned += n;
      if (n < PRUNE_ROWS) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return pruned;
  }
}

type StartOf = { channelId: string; start: AsRunStart };

function prepare(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  const open = 'end_at IS NULL';
  return {
    end: p(
      `UPDATE as_run SET end_at = ?, end_frame = ?, cleared_by = ? WHERE channel_id = ? AND layer = ? AND ${open}`,
    ),
    update: p(`UPDATE as_run SET updated_values = ? WHERE channel_id = ? AND layer = ? AND ${open}`),
    start: p(`INSERT INTO as_run (${START_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    close: p(`UPDATE as_run SET end_at = ?, end_frame = ?, end_inferred = ? WHERE id = ? AND ${open}`),
    open: p(`SELECT id, channel_id, layer, start_at, start_frame, seen_at FROM as_run WHERE ${open} ORDER BY id`),
    seen: p(`UPDATE as_run SET seen_at = ? WHERE ${open}`),
    // The earliest time given, and each output once (up to @max of them).
    confirm: p(`UPDATE as_run SET
        confirmed_at = CASE WHEN confirmed_at IS NULL OR confirmed_at > @at THEN @at ELSE confirmed_at END,
        confirmed_by = CASE
          WHEN json_array_length(confirmed_by) >= @max
            OR EXISTS (SELECT 1 FROM json_each(as_run.confirmed_by) WHERE value = @output) THEN confirmed_by
          ELSE json_insert(confirmed_by, '$[#]', @output) END
      WHERE id = @id`),
    painted: p(`SELECT id, start_frame, end_frame FROM (
        SELECT * FROM as_run WHERE channel_id = @channel AND layer = @layer ORDER BY id DESC LIMIT @window)
      WHERE scene_id = @scene AND item_id IS @item AND start_frame <= @frame
        AND (end_frame IS NULL OR end_frame > @frame)
      ORDER BY id DESC LIMIT 1`),
    // `from` first finds where the channel's intervals that end after it begin, so a long log is not read from its
    // start (ids sort as the intervals began).
    list: p(`SELECT * FROM as_run WHERE channel_id = @channel AND id > @after
        AND (@from IS NULL OR ((end_at IS NULL OR end_at > @from) AND id >= coalesce((
          SELECT min(id) FROM as_run WHERE channel_id = @channel AND (end_at IS NULL OR end_at > @from)), '')))
        AND (@to IS NULL OR start_at < @to)
      ORDER BY id LIMIT @limit`),
    prune: p('DELETE FROM as_run WHERE id IN (SELECT id FROM as_run WHERE end_at < ? LIMIT ?)'),
  };
}
