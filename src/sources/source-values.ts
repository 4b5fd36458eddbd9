/**
 * A data source's answer as a change of its channel, by the incoming hooks' mapping (the same code: dotted
 * paths, the same coercion and the same errors). JSON is mapped as a hook post is; a CSV source maps the row it
 * reads (an object of normalised header → cell). A table feeds a whole `list` input besides (every CSV row, or a
 * JSON array). Every error is an AppError whose message the fetch log records: the graphic stays as it was.
 */
import { mapPayload, valueAt, type MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { InputRegistry } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { InputValue } from '@onair/protocol';
import { parseCsv, pickRow, type RowPick } from './csv-table.js';
import type { SourceType } from './source-url.js';
import { listInputOf, tableRows } from './table-rows.js';

export interface SourceTable {
  /** A `list` input. */
  input: string;
  /** JSON only: the dotted path of the array in the answer; absent, the answer itself is the array. */
  path?: string | undefined;
}

/** What mapSource needs of a source. */
export interface MappableSource {
  type: SourceType;
  /** An incoming hook's mapping: field path → input name; empty maps every field named as an input. */
  mapping: Readonly<Record<string, string>>;
  /** CSV: the row mapped. */
  row?: RowPick | null | undefined;
  table?: SourceTable | null | undefined;
  /** CSV: the cursor's row (1-based), for `row: { by: 'cursor' }`. Default 1. */
  cursor?: number | undefined;
}

export interface MappedSource {
  change: MappedChange;
  /** Field paths (JSON) or headers (CSV) in the answer that nothing reads. */
  unmapped: string[];
  /** CSV: the table's data rows (what bounds the cursor); JSON: null. */
  rowCount: number | null;
}

export function mapSource(source: MappableSource, body: string, registry: InputRegistry): MappedSource {
  return source.type === 'json_url' ? mapJson(source, body, registry) : mapCsv(source, body, registry);
}

function mapJson(source: MappableSource, body: string, registry: InputRegistry): MappedSource {
  const payload = parseJson(body);
  const table = source.table;
  if (!table) return { ...withUnmapped(mapObject(payload, source.mapping, registry)), rowCount: null };
  const records = table.path === undefined ? payload : valueAt(asObject(payload), table.path);
  if (!Array.isArray(records)) {
    const where = table.path === undefined ? 'the answer' : `"${table.path}" in the answer`;
    throw new AppError('invalid_request', `The table reads ${where}, which is not a JSON array.`, {
      errors: [{ path: 'table.path', message: 'not an array in the answer' }],
    });
  }
  const list = tableChange(table.input, records, registry);
  // An answer that is the array itself has no fields for a mapping to read.
  if (Array.isArray(payload)) return { change: list.change, unmapped: [], rowCount: null };
  const fields = mapObject(payload, source.mapping, without(registry, table.input, source.mapping));
  const path = table.path ?? '';
  fields.ignored = fields.ignored.filter((leaf) => leaf !== path && !leaf.startsWith(`${path}.`));
  return { ...withUnmapped(merge(fields, list.change)), rowCount: null };
}

function mapCsv(source: MappableSource, body: string, registry: InputRegistry): MappedSource {
  const table = parseCsv(body);
  if (!source.row && !source.table) {
    throw new AppError('invalid_request', 'A CSV source reads a row, a table, or both: give it `row` or `table`.');
  }
  const list = source.table ? tableChange(source.table.input, table.rows, registry) : null;
  const fromList = list?.used ?? new Set<string>();
  let change = list?.change ?? emptyChange();
  let unmapped = table.headers.filter((h) => !fromList.has(h));
  if (source.row) {
    const row = pickRow(table, source.row, source.cursor ?? 1);
    const reg = source.table ? without(registry, source.table.input, source.mapping) : registry;
    const fields = mapPayload(row, source.mapping, reg);
    unmapped = fields.ignored.filter((h) => !fromList.has(h));
    change = merge(fields, change);
  }
  change.ignored = unmapped;
  return { change, unmapped, rowCount: table.rows.length };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    // JSON.parse's message quotes the text around the fault: the fetch log must not show the body.
    throw new AppError('invalid_request', 'The answer is not valid JSON.');
  }
}

function asObject(payload: unknown): object {
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) return payload;
  throw new AppError('invalid_request', 'The answer is not a JSON object of fields.');
}

function mapObject(payload: unknown, mapping: Readonly<Record<string, string>>, registry: InputRegistry) {
  return mapPayload(asObject(payload), mapping, registry);
}

/** The list input's change: the rows through the hooks' own list checks (mapPayload of `{input: rows}`). */
function tableChange(input: string, records: readonly unknown[], registry: InputRegistry) {
  const def = listInputOf(registry, input);
  const { rows, used } = tableRows(def, records);
  return { change: mapPayload({ [input]: rows }, { [input]: input }, registry), used };
}

/**
 * The registry without the table's input, so that an empty mapping does not also set it from a field of the
 * same name; a mapping that names it outright is refused (two writers of one input).
 */
function without(registry: InputRegistry, input: string, mapping: Readonly<Record<string, string>>): InputRegistry {
  const field = Object.keys(mapping).find((k) => mapping[k] === input);
  if (field !== undefined) {
    throw new AppError('invalid_request', `Input "${input}" is fed by the table; the mapping cannot set it too.`, {
      errors: [{ path: `mapping.${field}`, message: `input "${input}" is fed by the table` }],
    });
  }
  return new Map([...registry].filter(([name]) => name !== input));
}

function emptyChange(): MappedChange {
  return { patch: Object.create(null) as Record<string, InputValue>, clocks: [], applied: {}, ignored: [] };
}

/** `a` then `b` (their inputs never overlap); `a`'s ignored fields. */
function merge(a: MappedChange, b: MappedChange): MappedChange {
  return {
    patch: Object.assign(Object.create(null) as Record<string, InputValue>, a.patch, b.patch),
    clocks: [...a.clocks, ...b.clocks],
    applied: Object.assign(Object.create(null) as Record<string, unknown>, a.applied, b.applied),
    ignored: a.ignored,
  };
}

function withUnmapped(change: MappedChange): Omit<MappedSource, 'rowCount'> {
  return { change, unmapped: change.ignored };
}
