/**
 * The event log on SQLite. A tick writes its events in its own transaction, as one row per workspace (a
 * batch): the tick's events of that workspace as one JSON array. One row per event would cost a tick about
 * half again as much when many channels change together (a row, its index entries and six bound values per
 * event; a per-channel index touches one page per channel), where one batch costs the JSON of the events and
 * little else (bench/events.ts).
 *
 * Reading walks a workspace's batches in id order. A batch names its channels when it has few, and flags the
 * event types it holds, so a filtered list skips most batches without parsing them; and a list looks at most
 * at SCAN_ROWS batches and parses at most SCAN_BYTES of JSON per request, answering a short page (its
 * nextCursor the last id examined) rather than holding the event loop.
 */
import type Database from 'better-sqlite3';
import type { ChannelChange, EngineEvent } from '../../engine/index.js';
import type { EventPage, EventQuery } from '../store.js';
import type { EventBatch } from '../webhook-store.js';
import { placeholders, RowBatch } from './row-batch.js';
import {
  encodeBatch,
  eventsByOrg,
  outboxBatch,
  PRUNE_ROWS,
  ROWS_PER_READ,
  type BatchHead,
  type BatchRow,
} from '../event-batches.js';
import { EventScan } from '../event-scan.js';

const WIDTH = 8;

export class EventLog {
  private readonly insert: RowBatch;
  private readonly heads: Database.Statement;
  private readonly body: Database.Statement;
  private readonly orgs: Database.Statement;
  private readonly prune: Database.Statement;
  private readonly after: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = new RowBatch(
      db,
      WIDTH,
      (rows) => `INSERT INTO event_batches (org_id, last_id, first_id, created_at, count, types, channels, body)
        VALUES ${placeholders(rows, WIDTH)}`,
    );
    this.heads = db.prepare(`SELECT seq, last_id, types, channels FROM event_batches
      WHERE org_id = @org AND last_id > @after ORDER BY last_id LIMIT ${ROWS_PER_READ}`);
    this.body = db.prepare('SELECT created_at, body FROM event_batches WHERE seq = ?');
    this.orgs = db.prepare('SELECT id FROM orgs ORDER BY id');
    this.after = db.prepare(
      'SELECT seq, org_id, created_at, body FROM event_batches WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    // The newest batch is never deleted: seq (a rowid) then never goes back below the webhook dispatcher's
    // cursor, which a table emptied by pruning would let SQLite do.
    this.prune = db.prepare(`DELETE FROM event_batches WHERE org_id = @org AND created_at < @before
      AND seq < (SELECT max(seq) FROM event_batches) AND last_id IN (SELECT last_id FROM event_batches WHERE org_id = @org ORDER BY last_id LIMIT ${PRUNE_ROWS})
      RETURNING count`);
  }

  /** Writes the tick's events, inside the tick's transaction. */
  write(changes: readonly ChannelChange[]): void {
    const byOrg = eventsByOrg(changes);
    if (!byOrg) return;
    const rows: unknown[] = [];
    for (const [orgId, events] of byOrg) batchRow(orgId, events, rows);
    this.insert.run(rows);
  }

  list(orgId: string, q: EventQuery): EventPage {
    const scan = new EventScan(orgId, q);
    if (scan.empty) return scan.last();
    for (;;) {
      const heads = this.heads.all({ org: orgId, after: scan.after }) as BatchHead[];
      for (const head of heads) {
        if (scan.wants(head)) scan.take(this.body.get(head.seq) as { created_at: string; body: string });
        const page = scan.page();
        if (page) return page;
      }
      if (heads.length < ROWS_PER_READ) return scan.last();
    }
  }

  /** Up to `limit` batches written after batch `seq`, in the order they were written (the webhook outbox). */
  batchesAfter(seq: number, limit: number): EventBatch[] {
    return (this.after.all(seq, limit) as BatchRow[]).map(outboxBatch);
  }

  /**
   * Deletes the oldest batches whose events were all created before `before`, a few hundred at a time;
   * returns how many events went and whether more may be left to delete.
   */
  pruneSome(before: string): { pruned: number; more: boolean } {
    let pruned = 0;
    let more = false;
    for (const { id } of this.orgs.all() as { id: string }[]) {
      const gone = this.prune.all({ org: id, before }) as { count: number }[];
      for (const g of gone) pruned += g.count;
      if (gone.length === PRUNE_ROWS) more = true;
    }
    return { pruned, more };
  }
}

/** One batch's values: the workspace's events of the tick, oldest first. */
function batchRow(orgId: string, events: EngineEvent[], rows: unknown[]): void {
  const b = encodeBatch(events);
  rows.push(orgId, b.lastId, b.firstId, b.createdAt, b.count, b.types, b.channels, b.body);
}
