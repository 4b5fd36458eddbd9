/**
 * The event log on Postgres, laid out as SQLite's (../sqlite/event-log.ts): a tick writes its events in its own
 * transaction, one row per workspace (a batch: the tick's events of that workspace as one JSON array). A batch
 * names its channels when it has few and flags the event types it holds, so a filtered list skips most batches
 * unread; a list looks at most at SCAN_ROWS batches and parses at most SCAN_BYTES of JSON per request, answering
 * a short page (its nextCursor the last id examined).
 *
 * The log is also the webhook outbox, read by `seq` after a cursor, so batches must become visible in `seq`
 * order: a batch committed with a higher seq than one still in flight would let the dispatcher move past the
 * latter. Writers of batches therefore take the log's advisory lock just before inserting, and hold it until
 * their commit; a writer holding it waits for nothing else, so it cannot deadlock.
 */
import type { ChannelChange, EngineEvent } from '../../engine/index.js';
import type { EventPage, EventQuery } from '../store.js';
import type { EventBatch } from '../webhook-store.js';
import { LOCKS, type Sql } from './database.js';
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

const INSERT = `INSERT INTO event_batches (org_id, last_id, first_id, created_at, count, types, channels, body)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[])`;
const HEADS = `SELECT seq, last_id, types, channels FROM event_batches
  WHERE org_id = $1 AND last_id > $2 ORDER BY last_id LIMIT $3`;
const BODY = 'SELECT created_at, body FROM event_batches WHERE seq = $1';
const AFTER = 'SELECT seq, org_id, created_at, body FROM event_batches WHERE seq > $1 ORDER BY seq LIMIT $2';
const ORGS = 'SELECT id FROM orgs ORDER BY id';
// The newest batch is kept, as SQLite keeps it (there it stops seq from going back below the dispatcher's
// cursor; here it keeps the same batches listed after a prune).
const PRUNE = `DELETE FROM event_batches WHERE org_id = $1 AND created_at < $2
  AND seq < (SELECT max(seq) FROM event_batches)
  AND last_id IN (SELECT last_id FROM event_batches WHERE org_id = $1 ORDER BY last_id LIMIT $3)
  RETURNING count`;

/** One column array per field of event_batches, for INSERT's unnest. */
class BatchColumns {
  readonly orgs: string[] = [];
  readonly lastIds: string[] = [];
  readonly firstIds: string[] = [];
  readonly createdAt: string[] = [];
  readonly counts: number[] = [];
  readonly types: number[] = [];
  readonly channels: (string | null)[] = [];
  readonly bodies: string[] = [];

  values(): unknown[] {
    return [
      this.orgs,
      this.lastIds,
      this.firstIds,
      this.createdAt,
      this.counts,
      this.types,
      this.channels,
      this.bodies,
    ];
  }
}

export class PostgresEventLog {
  /** Writes the tick's events, inside the tick's transaction (after its other writes: see the top). */
  async write(tx: Sql, changes: readonly ChannelChange[]): Promise<void> {
    const byOrg = eventsByOrg(changes);
    if (!byOrg) return;
    const columns = new BatchColumns();
    for (const [orgId, events] of byOrg) addBatch(orgId, events, columns);
    await tx.lock(LOCKS.eventLog);
    await tx.run(INSERT, columns.values());
  }

  /** A workspace's events after `q.after`; run on one snapshot, so a prune in between cannot take a body away. */
  async list(tx: Sql, orgId: string, q: EventQuery): Promise<EventPage> {
    const scan = new EventScan(orgId, q);
    if (scan.empty) return scan.last();
    for (;;) {
      const heads = await tx.rows<BatchHead>(HEADS, [orgId, scan.after, ROWS_PER_READ]);
      for (const head of heads) {
        if (scan.wants(head)) scan.take((await tx.row<{ created_at: string; body: string }>(BODY, [head.seq]))!);
        const page = scan.page();
        if (page) return page;
      }
      if (heads.length < ROWS_PER_READ) return scan.last();
    }
  }

  /** Up to `limit` batches written after batch `seq`, in the order they were written (the webhook outbox). */
  async batchesAfter(sql: Sql, seq: number, limit: number): Promise<EventBatch[]> {
    return (await sql.rows<BatchRow>(AFTER, [seq, limit])).map(outboxBatch);
  }

  /**
   * Deletes the oldest batches whose events were all created before `before`, a few hundred per workspace;
   * returns how many events went and whether more may be left to delete.
   */
  async pruneSome(sql: Sql, before: string): Promise<{ pruned: number; more: boolean }> {
    let pruned = 0;
    let more = false;
    for (const { id } of await sql.rows<{ id: string }>(ORGS)) {
      const gone = await sql.rows<{ count: number }>(PRUNE, [id, before, PRUNE_ROWS]);
      for (const g of gone) pruned += g.count;
      if (gone.length === PRUNE_ROWS) more = true;
    }
    return { pruned, more };
  }
}

/** One batch's values: the workspace's events of the tick, oldest first. */
function addBatch(orgId: string, events: EngineEvent[], columns: BatchColumns): void {
  const b = encodeBatch(events);
  columns.orgs.push(orgId);
  columns.lastIds.push(b.lastId);
  columns.firstIds.push(b.firstId);
  columns.createdAt.push(b.createdAt);
  columns.counts.push(b.count);
  columns.types.push(b.types);
  columns.channels.push(b.channels);
  columns.bodies.push(b.body);
}
