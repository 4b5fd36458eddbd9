/**
 * A whole table (a CSV's rows, or a JSON array of objects) as the value of a `list` input: each record becomes a
 * row of the list's declared columns, matched by name (exactly, else ignoring case: a sheet's `Team` feeds a
 * column `team`). A number column takes a number or a numeric string, an empty cell is left out (a cell left out
 * shows empty), and whatever else is there is handed on unchanged for the list's own checks to refuse, naming
 * the row and column (`standings.2.pts`). Columns the list does not declare are not read.
 */
import { AppError } from '../errors.js';
import type { InputDef, ListColumn, ListRow } from '@onair/protocol';

export interface TableRows {
  rows: unknown[];
  /** The record keys (headers) that fed a column. */
  used: Set<string>;
}

export function listInputOf(registry: ReadonlyMap<string, InputDef>, input: string): InputDef {
  const def = registry.get(input);
  if (!def) {
    throw new AppError('unknown_input', `The table feeds "${input}", which no scene of this channel declares.`, {
      errors: [{ path: 'table.input', message: `unknown input ${input}` }],
      extra: { input, closest: null },
    });
  }
  if (def.type !== 'list') {
    throw new AppError('invalid_request', `The table feeds "${input}", a ${def.type} input; a table feeds a list.`, {
      errors: [{ path: 'table.input', message: `input "${input}" is not a list` }],
    });
  }
  return def;
}

export function tableRows(def: InputDef, records: readonly unknown[]): TableRows {
  const used = new Set<string>();
  const rows = records.map((record) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
    const fields = record as Record<string, unknown>;
    const matched = matchColumns(def.columns ?? [], Object.keys(fields));
    for (const key of matched.values()) used.add(key);
    return rowOf(fields, matched);
  });
  return { rows, used };
}

/** Column → the record key that feeds it. */
function matchColumns(columns: readonly ListColumn[], keys: readonly string[]): Map<ListColumn, string> {
  const out = new Map<ListColumn, string>();
  for (const column of columns) {
    const lower = column.name.toLowerCase();
    const key = keys.includes(column.name) ? column.name : keys.find((k) => k.toLowerCase() === lower);
    if (key !== undefined) out.set(column, key);
  }
  return out;
}

function rowOf(fields: Record<string, unknown>, matched: Map<ListColumn, string>): ListRow {
  const row: Record<string, unknown> = {};
  for (const [column, key] of matched) {
    const cell = cellOf(column, fields[key]);
    if (cell !== undefined) row[column.name] = cell;
  }
  return row as ListRow;
}

function cellOf(column: ListColumn, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() === '') return column.type === 'number' ? undefined : value;
  if (column.type === 'number' && typeof value === 'string') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : value;
  }
  if (column.type === 'text' && typeof value === 'number' && Number.isFinite(value)) return String(value);
  return value;
}
