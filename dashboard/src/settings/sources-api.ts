/**
 * A channel's data sources over the API (docs/data-sources.md): the records, their paths, and what people read of
 * a source's rules (its row, its interval). The server decides every rule; what is here only says them.
 */
import { api, listAll } from '../api.js';
import type { ApiSchemas } from '../api-types.js';

export type Source = ApiSchemas['Source'];
export type SourceIn = ApiSchemas['SourceIn'];
export type SourceRow = NonNullable<ApiSchemas['SourceRow']>;
export type DryRun = ApiSchemas['SourceDryRun'];
export type SourceFetch = ApiSchemas['SourceFetch'];
export type SourceState = Source['status']['state'];
export type RowMove = 'first' | 'previous' | 'next';

export const sourcesPath = (channelId: string) => `/v1/channels/${encodeURIComponent(channelId)}/sources`;
export const sourcePath = (s: Pick<Source, 'channelId' | 'id'>) =>
  `${sourcesPath(s.channelId)}/${encodeURIComponent(s.id)}`;

export const listSources = (channelId: string) => listAll<Source>(sourcesPath(channelId));

/** Moves a cursor source's row (inputs:write) and answers the source, its cursor moved and the row applied. */
export const moveRow = (source: Source, move: RowMove) => api<Source>('POST', `${sourcePath(source)}/row`, { move });

export const picksByCursor = (s: Source) => s.row?.by === 'cursor';

/** How often a source may be fetched, in seconds: the server's rule for what the URL looks like. */
export interface IntervalHint {
  minS: number;
  defaultS: number;
  maxS: number;
  sheet: boolean;
}

/**
 * A Google Sheets link gets the sheet's interval (the server recognises the published CSV among them and refuses the
 * others at save, saying what to publish); anything else, a feed's.
 */
export function intervalHint(type: Source['type'], url: string): IntervalHint {
  const sheet = type === 'csv_url' && isSheetsLink(url);
  return sheet ? { minS: 30, defaultS: 60, maxS: 3600, sheet } : { minS: 1, defaultS: 10, maxS: 3600, sheet };
}

export function isSheetsLink(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.hostname === 'docs.google.com' && url.pathname.startsWith('/spreadsheets/');
  } catch {
    return false;
  }
}

/** "5 s", "1.5 s", "2 min" */
export function seconds(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** What a source's row rule picks, said plainly. */
export function describeRow(row: Source['row'], cursor: number): string {
  if (!row) return 'none';
  if (row.by === 'number') return `row ${row.number}`;
  if (row.by === 'match') return `the first row whose ${row.column} is "${row.value}"`;
  return `the cursor's row (now row ${cursor}), stepped in the live view`;
}

export const STATE_LABEL: Record<SourceState, string> = {
  ok: 'OK',
  failing: 'Failing',
  paused: 'Paused',
  pending: 'Pending',
};
