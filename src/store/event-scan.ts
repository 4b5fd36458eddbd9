/**
 * One list request over a workspace's event batches (event-batches.ts), the same in both stores: the store reads
 * batch heads in id order from `after`; for each head it reads the body when `wants` says so and hands it to
 * `take`, then answers `page()` when there is one. When a read of heads comes back short, the log has ended:
 * the answer is `last()`. A page ends full, or once SCAN_ROWS batches were examined or SCAN_BYTES of JSON parsed
 * (a short page whose nextCursor is the last id examined, rather than holding the event loop).
 */
import type { EngineEvent } from '../engine/index.js';
import {
  ALL_TYPES,
  entryEvent,
  names,
  SCAN_BYTES,
  SCAN_ROWS,
  TYPE_BITS,
  wantedChannels,
  type BatchHead,
  type Entry,
} from './event-batches.js';
import type { EventPage, EventQuery } from './store.js';

export class EventScan {
  /** The last id examined: where the next read of heads starts. */
  after: string;
  private readonly wanted: ReadonlySet<string> | null;
  private readonly types: number;
  private readonly found: EngineEvent[] = [];
  private bytes = SCAN_BYTES;
  private rows = SCAN_ROWS;

  constructor(
    private readonly orgId: string,
    private readonly q: EventQuery,
  ) {
    this.after = q.after ?? '';
    this.wanted = wantedChannels(q);
    this.types = q.type ? TYPE_BITS.get(q.type)! : ALL_TYPES;
  }

  /** The query may see no channel at all: `last()` answers it without reading. */
  get empty(): boolean {
    return this.wanted?.size === 0;
  }

  /** Counts the batch as examined; whether its body must be read (its head does not rule it out). */
  wants(head: BatchHead): boolean {
    this.after = head.last_id;
    this.rows--;
    if ((head.types & this.types) === 0) return false;
    return !(this.wanted && head.channels !== null && !names(head.channels, this.wanted));
  }

  /** Adds the batch's events that the query wants. */
  take(row: { created_at: string; body: string }): void {
    const { q, wanted } = this;
    const after = q.after ?? '';
    for (const e of JSON.parse(row.body) as Entry[]) {
      if (e[0] <= after || (q.type && e[2] !== q.type) || (wanted && !wanted.has(e[1]))) continue;
      this.found.push(entryEvent(e, this.orgId, row.created_at));
    }
    this.bytes -= row.body.length;
  }

  /** The answer when the page is full or the request's budget spent, else null. */
  page(): EventPage | null {
    const { found, q } = this;
    if (found.length > q.limit) return { events: found.slice(0, q.limit), nextCursor: found[q.limit - 1]!.id };
    if (this.bytes <= 0 || this.rows <= 0) return { events: found, nextCursor: this.after };
    return null;
  }

  /** The answer at the end of the log. */
  last(): EventPage {
    return { events: this.found, nextCursor: null };
  }
}
