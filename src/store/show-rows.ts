/**
 * A channel's prepared show as both stores keep it (docs/rundowns.md): one row per rundown, per scheduled op and per
 * history entry, each a JSON document of the record, beside the columns that order and find it. Rows both ways, and
 * what a tick's change writes of them.
 */
import { historyAction, type ChannelChange, type HistoryRecord } from '../engine/index.js';
import type { Rundown, ScheduledOp } from '@onair/protocol';
import type { HistoryPage } from './store.js';

/**
 * History entries of a channel loaded at start, the newest ones: the engine keeps no more (its history depth), so
 * what is stored beyond would only come back to be dropped again.
 */
export const HISTORY_LOADED = 200;

/** A row of the rundowns, scheduled_ops or channel_history table, as loaded: a JSON document of the record. */
export interface ShowRow {
  id: string;
  channel_id: string;
  /** JSON: a Rundown, a ScheduledOp, or a HistoryRecord with what the action touched before and after. */
  doc: string;
}

/** A channel's rows of the three tables, each list in its load order. */
export interface ShowRows {
  rundowns?: ShowRow[] | undefined;
  schedule?: ShowRow[] | undefined;
  history?: ShowRow[] | undefined;
}

/** The rundowns, schedule and history of a channel's live state, from its rows (empty ones shared). */
export function showFromRows(rows: ShowRows): {
  rundowns: ReadonlyMap<string, Rundown>;
  schedule: readonly ScheduledOp[];
  history: readonly HistoryRecord[];
} {
  return {
    rundowns: rows.rundowns?.length ? new Map(rows.rundowns.map((r) => [r.id, parse<Rundown>(r.doc)])) : NO_RUNDOWNS,
    schedule: rows.schedule?.length ? rows.schedule.map((r) => parse<ScheduledOp>(r.doc)) : NO_SCHEDULE,
    history: rows.history?.length ? rows.history.map((r) => parse<HistoryRecord>(r.doc)) : NO_HISTORY,
  };
}

/** The engine replaces these, never changes them in place: channels without a show share them. */
const NO_RUNDOWNS: ReadonlyMap<string, Rundown> = new Map();
const NO_SCHEDULE: readonly ScheduledOp[] = Object.freeze([]);
const NO_HISTORY: readonly HistoryRecord[] = Object.freeze([]);

/** A page newest first, from up to `limit + 1` rows: the extra one says that more follow. */
export function historyPage(rows: { id: string; doc: string }[], limit: number): HistoryPage {
  const data = rows.slice(0, limit).map((r) => historyAction(parse<HistoryRecord>(r.doc)));
  const last = data[data.length - 1];
  return { data, nextCursor: rows.length > limit && last ? last.id : null };
}

function parse<T>(json: string): T {
  return JSON.parse(json) as T;
}

/** What a tick writes of the prepared show, one array per column, for any number of channels. */
export class ShowWrites {
  readonly rundowns = {
    ids: [] as string[],
    channels: [] as string[],
    createdAt: [] as string[],
    docs: [] as string[],
  };
  readonly goneRundowns: string[] = [];
  /** Channels whose whole schedule is replaced by `schedule`'s rows. */
  readonly rescheduled: string[] = [];
  readonly schedule = {
    ids: [] as string[],
    channels: [] as string[],
    frames: [] as number[],
    seqs: [] as number[],
    docs: [] as string[],
  };
  readonly history = { ids: [] as string[], channels: [] as string[], docs: [] as string[] };
  readonly goneHistory: string[] = [];

  add(c: ChannelChange): void {
    for (const r of c.rundowns?.values() ?? []) {
      this.rundowns.ids.push(r.id);
      this.rundowns.channels.push(c.channelId);
      this.rundowns.createdAt.push(r.createdAt);
      this.rundowns.docs.push(JSON.stringify(r));
    }
    if (c.removedRundowns) this.goneRundowns.push(...c.removedRundowns);
    if (c.schedule) {
      this.rescheduled.push(c.channelId);
      c.schedule.forEach((op, seq) => {
        this.schedule.ids.push(op.id);
        this.schedule.channels.push(c.channelId);
        this.schedule.frames.push(op.frame);
        this.schedule.seqs.push(seq);
        this.schedule.docs.push(JSON.stringify(op));
      });
    }
    for (const [id, record] of c.historyAdded ?? []) {
      this.history.ids.push(id);
      this.history.channels.push(c.channelId);
      this.history.docs.push(JSON.stringify(record));
    }
    if (c.historyRemoved) this.goneHistory.push(...c.historyRemoved);
  }

  /** Nothing of the show changed in the tick (most ticks): the stores skip every statement. */
  get empty(): boolean {
    return (
      this.rundowns.ids.length === 0 &&
      this.goneRundowns.length === 0 &&
      this.rescheduled.length === 0 &&
      this.history.ids.length === 0 &&
      this.goneHistory.length === 0
    );
  }

  static of(changes: readonly ChannelChange[]): ShowWrites {
    const w = new ShowWrites();
    for (const c of changes) {
      if (c.rundowns || c.removedRundowns || c.schedule || c.historyAdded || c.historyRemoved) w.add(c);
    }
    return w;
  }
}
