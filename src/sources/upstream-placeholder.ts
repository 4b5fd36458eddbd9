/**
 * TEMPORARY: thin stand-ins for the pure data-source modules written on another branch (source-url, source-fetch,
 * csv-table, source-values), with their shapes, so this branch builds and its tests run until that branch is merged.
 * Deleted after the merge; every import of this file then becomes `./index.js`.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import { request, type Dispatcher } from 'undici';
import { AppError } from '../errors.js';
import type { InputRegistry } from '../engine/index.js';
import { mapPayload, type MappedChange } from '../incoming-hooks/hook-mapping.js';
import { checkEndpoint, checkEndpointSyntax, type CheckEndpointOptions } from '../webhooks/endpoint-guard/index.js';

export type SourceType = 'json_url' | 'csv_url';
export interface IntervalRule {
  minMs: number;
  defaultMs: number;
  maxMs: number;
}
export function intervalRule(type: SourceType, sheet: boolean): IntervalRule {
  return type === 'csv_url' && sheet
    ? { minMs: 30_000, defaultMs: 60_000, maxMs: 3_600_000 }
    : { minMs: 1_000, defaultMs: 10_000, maxMs: 3_600_000 };
}
const refused = (reason: string) =>
  new AppError('endpoint_refused', `This source URL is refused: ${reason}.`, {
    errors: [{ path: 'url', message: reason }],
  });
export function parseSourceUrl(_type: SourceType, raw: string): { url: URL; sheet: boolean } {
  try {
    const url = checkEndpointSyntax(raw, { allowPrivate: true });
    return { url, sheet: url.hostname === 'docs.google.com' };
  } catch (err) {
    throw refused((err as { reason?: string }).reason ?? 'invalid');
  }
}
export async function checkSourceUrl(type: SourceType, raw: string, opts: CheckEndpointOptions) {
  const parsed = parseSourceUrl(type, raw);
  try {
    return { url: await checkEndpoint(raw, opts), sheet: parsed.sheet };
  } catch (err) {
    throw refused((err as { reason?: string }).reason ?? 'invalid');
  }
}

export interface FetchRequest {
  url: string;
  type: SourceType;
  etag?: string | null | undefined;
  lastModified?: string | null | undefined;
}
export interface FetchOptions {
  agent: Dispatcher;
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}
export interface FetchResult {
  status: number | null;
  notModified: boolean;
  body: string | null;
  sha256: string | null;
  etag: string | null;
  lastModified: string | null;
  bytes: number;
  ms: number;
  finalUrl: string;
  error: string | null;
}
export async function fetchSource(req: FetchRequest, o: FetchOptions): Promise<FetchResult> {
  const started = performance.now();
  const none = { notModified: false, body: null, sha256: null, etag: null, lastModified: null, finalUrl: req.url };
  const ms = () => performance.now() - started;
  try {
    const headers: Record<string, string> = { 'user-agent': o.userAgent };
    if (req.etag) headers['if-none-match'] = req.etag;
    if (req.lastModified) headers['if-modified-since'] = req.lastModified;
    const res = await request(req.url, { dispatcher: o.agent, headers, signal: AbortSignal.timeout(o.timeoutMs) });
    const etag = (res.headers.etag as string | undefined) ?? null;
    const lastModified = (res.headers['last-modified'] as string | undefined) ?? null;
    if (res.statusCode === 304) {
      await res.body.dump();
      return { ...none, status: 304, notModified: true, etag, lastModified, bytes: 0, ms: ms(), error: null };
    }
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode >= 300)
      return { ...none, status: res.statusCode, bytes: 0, ms: ms(), error: `HTTP ${res.statusCode}` };
    if (String(res.headers['content-type'] ?? '').includes('html')) {
      return { ...none, status: res.statusCode, bytes: bytes.length, ms: ms(), error: 'answered HTML' };
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const body = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return {
      ...none,
      status: res.statusCode,
      body,
      sha256,
      etag,
      lastModified,
      bytes: bytes.length,
      ms: ms(),
      error: null,
    };
  } catch (err) {
    return { ...none, status: null, bytes: 0, ms: ms(), error: (err as Error).message };
  }
}

export interface CsvTable {
  headers: string[];
  rows: Record<string, string>[];
}
export type RowPick =
  { by: 'number'; number: number } | { by: 'match'; column: string; value: string } | { by: 'cursor' };
export type CursorMove = 'next' | 'previous' | 'first' | { number: number };
export function parseCsv(text: string): CsvTable {
  const rows: string[][] = parse(text, { bom: true, relax_column_count: true });
  const [header, ...data] = rows;
  const headers = (header ?? []).map((h) => h.trim().replace(/\s+/g, '_'));
  return { headers, rows: data.map((r) => Object.fromEntries(headers.map((h, i) => [h, r[i] ?? '']))) };
}
export function pickRow(table: CsvTable, pick: RowPick, cursor: number): Record<string, string> {
  const row =
    pick.by === 'match'
      ? table.rows.find((r) => (r[pick.column] ?? '').trim() === pick.value.trim())
      : table.rows[(pick.by === 'number' ? pick.number : cursor) - 1];
  if (!row) throw new AppError('invalid_request', "The source's row is not in the table.");
  return row;
}
export function moveCursor(cursor: number, move: CursorMove, rowCount: number | null): number {
  const last = rowCount ?? Infinity;
  if (move === 'first') return 1;
  if (move === 'next') return Math.min(cursor + 1, last);
  if (move === 'previous') return Math.max(cursor - 1, 1);
  if (move.number > last) {
    throw new AppError('invalid_request', `Row ${move.number} is out of range.`, {
      errors: [{ path: 'number', message: 'out of range' }],
    });
  }
  return move.number;
}

export interface SourceShape {
  type: SourceType;
  mapping: Record<string, string>;
  row: RowPick | null;
  table: { input: string; path?: string | undefined } | null;
}
export interface MappedSource {
  change: MappedChange;
  unmapped: string[];
}
export function mapSource(source: SourceShape, body: string, cursor: number, registry: InputRegistry): MappedSource {
  let payload: Record<string, unknown>;
  if (source.type === 'json_url') payload = JSON.parse(body) as Record<string, unknown>;
  else {
    const table = parseCsv(body);
    payload = source.row ? { ...pickRow(table, source.row, cursor) } : {};
    if (source.table) payload[source.table.input] = table.rows;
  }
  const mapping = source.table ? { ...source.mapping, [source.table.input]: source.table.input } : source.mapping;
  const change = mapPayload(payload, mapping, registry);
  return { change, unmapped: change.ignored };
}
export function changedOnly(change: MappedChange, last: Readonly<Record<string, unknown>>): MappedChange {
  const same = (name: string) => JSON.stringify(last[name]) === JSON.stringify(change.applied[name]);
  const patch = Object.fromEntries(Object.entries(change.patch).filter(([k]) => !same(k)));
  const clocks = change.clocks.filter((c) => !same(c.name));
  const applied = Object.fromEntries(Object.entries(change.applied).filter(([k]) => !same(k)));
  return { patch, clocks, applied, ignored: change.ignored };
}
