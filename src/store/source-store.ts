/**
 * Data sources in storage (docs/data-sources.md): each source of a channel (what it polls and how it maps), its
 * status (the validators of the last body, the values last applied, the cursor, the last error) and its log of
 * recent fetches.
 *
 * Guarantees every implementation keeps (source-store.contract.ts runs against each), besides Store's (durable when
 * the promise resolves):
 * - Deleting a source (or its channel) deletes it and its log; a status or a log line for a source deleted meanwhile
 *   is dropped, never an error.
 * - updateSource replaces the configuration and forgets the validators of the last body (ETag, Last-Modified,
 *   SHA-256), so the next fetch is read and mapped whole; the status is left as it is.
 * - recordFetch writes the status and the log line in one transaction and keeps the newest `keep` lines. The parts
 *   that depend on the configuration a fetch ran with (validators, values applied, cursor) are written only when the
 *   source was not edited since (`configAt` is still its `updatedAt`): a fetch that raced an edit cannot bring back
 *   what the edit forgot.
 */

export type SourceType = 'json_url' | 'csv_url';

/** Which CSV row maps: by number (1: the first after the header), by a key column's value, or at the cursor. */
export type SourceRow =
  { by: 'number'; number: number } | { by: 'match'; column: string; value: string } | { by: 'cursor' };

/** Every row into a `list` input (`path`: JSON sources, the array's dotted path). */
export interface SourceTable {
  input: string;
  path?: string | undefined;
}

/** What fetching tells of a source: `pending` until its first fetch; paused sources keep their last state. */
export type SourceState = 'pending' | 'ok' | 'failing';

export interface SourceConfig {
  type: SourceType;
  name: string;
  url: string;
  intervalMs: number;
  /** Field path (or normalised CSV header) → input name; empty: every top-level field names its input. */
  mapping: Record<string, string>;
  row: SourceRow | null;
  table: SourceTable | null;
  paused: boolean;
}

export interface SourceStatus {
  state: SourceState;
  /** The CSV row the cursor is on (1 = the first data row). */
  cursor: number;
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 hex of the last body read whole: the same body again applies nothing. */
  bodySha256: string | null;
  /**
   * What the source last applied (sources/changed-values.ts AppliedState: by input name, a clock's time and running
   * state apart): only values that differ from these are applied again.
   */
  lastValues: Record<string, unknown>;
  lastFetchAt: string | null;
  lastChangeAt: string | null;
  lastError: string | null;
  /** Failed fetches in a row (the back-off grows with it); 0 after a success. */
  failCount: number;
}

export interface SourceRecord extends SourceConfig, SourceStatus {
  id: string;
  orgId: string;
  channelId: string;
  createdAt: string;
  updatedAt: string;
}

/** A line of a source's fetch log. */
export interface SourceFetchRecord {
  at: string;
  /** The HTTP status answered, or null when none was (refused address, timeout, connection failed). */
  status: number | null;
  bytes: number;
  ms: number;
  /** Whether a value was applied. */
  changed: boolean;
  error: string | null;
}

/** What a fetch sets: always the state, time, error and count; the rest only when given (and not raced, above). */
export interface SourceStatusChanges {
  state: 'ok' | 'failing';
  lastFetchAt: string;
  lastError: string | null;
  failCount: number;
  etag?: string | null | undefined;
  lastModified?: string | null | undefined;
  bodySha256?: string | null | undefined;
  lastValues?: Record<string, unknown> | undefined;
  lastChangeAt?: string | undefined;
  cursor?: number | undefined;
}

export interface SourceStore {
  insertSource(source: SourceRecord): Promise<void>;
  getSource(id: string): Promise<SourceRecord | undefined>;
  /** A channel's sources in creation order. */
  listSources(channelId: string): Promise<SourceRecord[]>;
  /** Every source of every channel, in creation order: what a poller starts from. */
  listAllSources(): Promise<SourceRecord[]>;
  /** Replaces the configuration and forgets the last body's validators (see above). */
  updateSource(id: string, config: SourceConfig, updatedAt: string): Promise<void>;
  deleteSource(id: string): Promise<void>;
  /** The status after a fetch, and its log line (the newest `keep` kept), in one transaction. */
  recordFetch(
    id: string,
    configAt: string,
    status: SourceStatusChanges,
    entry: SourceFetchRecord,
    keep: number,
  ): Promise<void>;
  /** The source's log, newest first. */
  listFetches(id: string): Promise<SourceFetchRecord[]>;
}
