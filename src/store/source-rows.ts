/**
 * Row shapes of the data-source tables, the same in both stores (sqlite/sqlite-sources.ts,
 * postgres/postgres-sources.ts), and their mapping to the SourceStore's records.
 */
import type {
  SourceConfig,
  SourceFetchRecord,
  SourceRecord,
  SourceRow,
  SourceState,
  SourceStatusChanges,
  SourceTable,
  SourceType,
} from './source-store.js';

export interface SourceDbRow {
  id: string;
  org_id: string;
  channel_id: string;
  type: string;
  name: string;
  url: string;
  interval_ms: number | string;
  mapping: string;
  row_rule: string | null;
  table_rule: string | null;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  paused: number | boolean;
  row_cursor: number;
  etag: string | null;
  last_modified: string | null;
  body_sha256: string | null;
  last_values: string;
  state: string;
  last_fetch_at: string | null;
  last_change_at: string | null;
  last_error: string | null;
  fail_count: number;
  created_at: string;
  updated_at: string;
}

export interface SourceFetchDbRow {
  at: string;
  status: number | null;
  bytes: number | string;
  ms: number;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  changed: number | boolean;
  error: string | null;
}

export const sourceRecord = (r: SourceDbRow): SourceRecord => ({
  id: r.id,
  orgId: r.org_id,
  channelId: r.channel_id,
  type: r.type as SourceType,
  name: r.name,
  url: r.url,
  intervalMs: Number(r.interval_ms),
  mapping: JSON.parse(r.mapping) as Record<string, string>,
  row: r.row_rule === null ? null : (JSON.parse(r.row_rule) as SourceRow),
  table: r.table_rule === null ? null : (JSON.parse(r.table_rule) as SourceTable),
  paused: Boolean(r.paused),
  state: r.state as SourceState,
  cursor: r.row_cursor,
  etag: r.etag,
  lastModified: r.last_modified,
  bodySha256: r.body_sha256,
  lastValues: JSON.parse(r.last_values) as Record<string, unknown>,
  lastFetchAt: r.last_fetch_at,
  lastChangeAt: r.last_change_at,
  lastError: r.last_error,
  failCount: r.fail_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const sourceFetch = (r: SourceFetchDbRow): SourceFetchRecord => ({
  at: r.at,
  status: r.status,
  bytes: Number(r.bytes),
  ms: r.ms,
  changed: Boolean(r.changed),
  error: r.error,
});

/** The configuration's columns as the statements take them (JSON as text). */
export function configColumns(c: SourceConfig) {
  return {
    type: c.type,
    name: c.name,
    url: c.url,
    intervalMs: c.intervalMs,
    mapping: JSON.stringify(c.mapping),
    row: c.row === null ? null : JSON.stringify(c.row),
    table: c.table === null ? null : JSON.stringify(c.table),
  };
}

/**
 * A status change as the statements take it: each optional part with a flag saying whether it is set (a value of
 * null is a value: an ETag that went away).
 */
export function statusColumns(s: SourceStatusChanges) {
  const has = (v: unknown) => v !== undefined;
  return {
    state: s.state,
    lastFetchAt: s.lastFetchAt,
    lastError: s.lastError,
    failCount: s.failCount,
    setValidators: has(s.bodySha256),
    etag: s.etag ?? null,
    lastModified: s.lastModified ?? null,
    bodySha256: s.bodySha256 ?? null,
    setValues: has(s.lastValues),
    lastValues: has(s.lastValues) ? JSON.stringify(s.lastValues) : null,
    lastChangeAt: s.lastChangeAt ?? null,
    setCursor: has(s.cursor),
    cursor: s.cursor ?? null,
  };
}
