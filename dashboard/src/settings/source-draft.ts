/**
 * A data source being written in its form, and the request it makes: the body of a new source (or of its dry
 * run), and for an edit only the fields that changed, so that saving a new name does not look the host up again.
 */
import { toRows, type MappingRow } from './mapping-editor.js';
import type { Source, SourceIn } from './sources-api.js';

export type RowChoice = 'none' | 'number' | 'match' | 'cursor';

export interface SourceDraft {
  type: Source['type'];
  url: string;
  name: string;
  /** Seconds as typed; '' for the default. */
  intervalS: string;
  rows: MappingRow[];
  rowBy: RowChoice;
  rowNumber: string;
  matchColumn: string;
  matchValue: string;
  /** A `list` input fed by the whole table; '' for none. */
  tableInput: string;
  /** JSON: the dotted path of the array; '' for the answer itself. */
  tablePath: string;
}

export function draftOf(source?: Source): SourceDraft {
  const row = source?.row ?? null;
  return {
    type: source?.type ?? 'json_url',
    url: source?.url ?? '',
    name: source?.name ?? '',
    intervalS: source ? String(source.intervalMs / 1000) : '',
    rows: toRows(source?.mapping ?? {}),
    rowBy: row?.by ?? (source ? 'none' : 'number'),
    rowNumber: row?.by === 'number' ? String(row.number) : '1',
    matchColumn: row?.by === 'match' ? row.column : '',
    matchValue: row?.by === 'match' ? row.value : '',
    tableInput: source?.table?.input ?? '',
    tablePath: source?.table?.path ?? '',
  };
}

/** The body of a new source or a dry run; a name or an interval left empty is the server's default. */
export function bodyOf(d: SourceDraft): SourceIn {
  const csv = d.type === 'csv_url';
  const body: SourceIn = {
    type: d.type,
    url: d.url.trim(),
    mapping: Object.fromEntries(d.rows.map((r) => [r.field.trim(), r.input])),
    row: csv ? rowOf(d) : null,
    table: tableOf(d),
  };
  if (d.name.trim() !== '') body.name = d.name.trim();
  // A number the server can judge (it names intervalMs when out of range); the field itself refuses what is not one.
  if (d.intervalS.trim() !== '') body.intervalMs = Math.round(Number(d.intervalS) * 1000);
  return body;
}

/** What an edit changes: only the fields that differ from the source as it was. */
export function changesOf(d: SourceDraft, source: Source): Partial<SourceIn> {
  const body = bodyOf(d);
  const before: SourceIn = {
    type: source.type,
    url: source.url,
    name: source.name,
    intervalMs: source.intervalMs,
    mapping: source.mapping,
    row: source.row,
    table: source.table,
  };
  const changes: Partial<SourceIn> = {};
  for (const key of Object.keys(body) as (keyof SourceIn)[]) {
    if (JSON.stringify(body[key]) !== JSON.stringify(before[key])) Object.assign(changes, { [key]: body[key] });
  }
  return changes;
}

function rowOf(d: SourceDraft): SourceIn['row'] {
  if (d.rowBy === 'number') return { by: 'number', number: Number(d.rowNumber) };
  if (d.rowBy === 'match') return { by: 'match', column: d.matchColumn.trim(), value: d.matchValue };
  if (d.rowBy === 'cursor') return { by: 'cursor' };
  return null;
}

function tableOf(d: SourceDraft): SourceIn['table'] {
  if (d.tableInput === '') return null;
  const path = d.type === 'json_url' ? d.tablePath.trim() : '';
  return path === '' ? { input: d.tableInput } : { input: d.tableInput, path };
}
