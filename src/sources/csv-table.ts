/**
 * A CSV data source's answer as a table: RFC 4180 with a header row, parsed by
 * csv-parse, and the row a source reads from it, by number, by a key column's value, or by a cursor an operator
 * steps through the table. Header names are normalised (trimmed, runs of white space → `_`) so a mapping can name
 * them as field paths. Errors name the line, the row or the column, and never quote more than a name.
 */
import { parse } from 'csv-parse/sync';
import { AppError } from '../errors.js';

export interface CsvTable {
  /** Normalised header names, in the sheet's order (an unnamed, empty column dropped). */
  headers: string[];
  /** Data rows (1 = the first after the header): normalised header → cell as written ('' for a missing cell). */
  rows: Record<string, string>[];
}

/** Most data rows and columns a table may have: a results sheet, not a database export. */
export const CSV_LIMITS = { rows: 10_000, columns: 200 } as const;

export type RowPick =
  { by: 'number'; number: number } | { by: 'match'; column: string; value: string } | { by: 'cursor' };

export type CursorMove = 'next' | 'previous' | 'first' | { number: number };

/** What a header says, as a mapping names it: `" Home  Score "` → `Home_Score`. */
export function normaliseHeader(name: string): string {
  return name.trim().replace(/\s+/g, '_');
}

export function parseCsv(text: string): CsvTable {
  const records = readRecords(text);
  const [header, ...data] = records;
  if (!header) return { headers: [], rows: [] };
  if (header.cells.length > CSV_LIMITS.columns) {
    throw csvError(`the table has more than ${CSV_LIMITS.columns} columns`);
  }
  const columns = namedColumns(header.cells, data);
  const rows = data.map((record, i) => rowOf(record, columns, i + 1));
  return { headers: columns.flatMap((c) => (c === null ? [] : [c])), rows };
}

interface CsvRecord {
  cells: string[];
  /** The line the record ends on (a quoted cell may span lines). */
  line: number;
}

/** What csv-parse answers per record with `info: true`. */
interface InfoRecord {
  record: string[];
  info: { lines: number };
}

function readRecords(text: string): CsvRecord[] {
  let parsed: InfoRecord[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      // A quote inside an unquoted cell (`5" tall`) is kept as a character, as spreadsheets write it.
      relax_quotes: true,
      skip_empty_lines: true,
      // Spreadsheets export the empty rows under a table as `,,,`.
      skip_records_with_empty_values: true,
      // Reading stops past the limit, which is then reported: the header plus one row too many.
      to: CSV_LIMITS.rows + 2,
    }) as unknown as InfoRecord[]; // the library's types do not model `info: true`
  } catch (err) {
    throw csvError(describeCsvError(err));
  }
  if (parsed.length > CSV_LIMITS.rows + 1) throw csvError(`the table has more than ${CSV_LIMITS.rows} rows`);
  return parsed.map(({ record, info }) => ({ cells: record, line: info.lines }));
}

/**
 * The normalised name of each column, or null for an unnamed column with nothing in it (spreadsheets export
 * trailing empty columns); a named column must be unique, and an unnamed one with data is an error.
 */
function namedColumns(header: string[], data: CsvRecord[]): (string | null)[] {
  const seen = new Set<string>();
  return header.map((raw, i) => {
    const name = normaliseHeader(raw);
    if (name === '') {
      if (data.some((r) => (r.cells[i] ?? '') !== '')) throw csvError(`column ${i + 1} has no name in the header`);
      return null;
    }
    if (seen.has(name)) throw csvError(`column ${i + 1} repeats the header name ${quoted(name)}`);
    seen.add(name);
    return name;
  });
}

function rowOf(record: CsvRecord, columns: (string | null)[], n: number): Record<string, string> {
  const extra = record.cells.slice(columns.length);
  if (extra.some((cell) => cell !== '')) {
    throw csvError(`row ${n} (line ${record.line}) has ${record.cells.length} cells; the header has ${columns.length}`);
  }
  // No prototype: a header named `__proto__` is a cell like any other.
  const row = Object.create(null) as Record<string, string>;
  columns.forEach((name, i) => {
    if (name !== null) row[name] = record.cells[i] ?? '';
  });
  return row;
}

/** The row a source reads; `cursor` is the source's (1-based). Throws naming the row or column not found. */
export function pickRow(table: CsvTable, pick: RowPick, cursor: number): Record<string, string> {
  if (pick.by === 'match') return matchRow(table, pick.column, pick.value);
  const n = pick.by === 'number' ? pick.number : cursor;
  const row = Number.isInteger(n) && n >= 1 ? table.rows[n - 1] : undefined;
  if (row) return row;
  const what = pick.by === 'cursor' ? `the cursor is on row ${n}` : `row ${n} was not found`;
  throw rowError(`${what}, and the table has ${plural(table.rows.length, 'data row')}`);
}

/** The first row whose cell in `column` (named as written or normalised) equals `value`, both trimmed. */
function matchRow(table: CsvTable, column: string, value: string): Record<string, string> {
  const name = normaliseHeader(column);
  if (!table.headers.includes(name)) throw rowError(`column ${quoted(name)} is not in the header`);
  const wanted = value.trim();
  const row = table.rows.find((r) => (r[name] ?? '').trim() === wanted);
  if (!row) throw rowError(`no row has ${quoted(wanted)} in column ${quoted(name)}`);
  return row;
}

/**
 * Where the cursor goes. `next` on the last row and `previous` on the first stay where they are (a control
 * surface pressed once too often holds the end of the table rather than wrapping round on air). `rowCount` null:
 * the table is not known yet (never fetched), so only the lower bound holds.
 */
export function moveCursor(cursor: number, move: CursorMove, rowCount: number | null): number {
  const last = rowCount === null ? Infinity : Math.max(1, rowCount);
  if (move === 'first') return 1;
  if (move === 'next') return Math.min(Math.max(cursor + 1, 1), last);
  if (move === 'previous') return Math.min(Math.max(cursor - 1, 1), last);
  const n = move.number;
  if (!Number.isInteger(n) || n < 1 || (rowCount !== null && n > rowCount)) {
    const range = rowCount === null ? 'a whole number from 1' : `a whole number from 1 to ${rowCount}`;
    throw new AppError('invalid_request', `Row ${n} is out of range: choose ${range}.`, {
      errors: [{ path: 'number', message: `must be ${range}` }],
    });
  }
  return n;
}

function describeCsvError(err: unknown): string {
  const { code, lines } = err as { code?: unknown; lines?: unknown };
  const at = typeof lines === 'number' ? ` at line ${lines}` : '';
  if (code === 'CSV_QUOTE_NOT_CLOSED') return `a quoted cell is not closed${at}`;
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE') {
    return `a closing quote is followed by other characters${at}`;
  }
  return `the CSV cannot be read${at}`;
}

/** A name from the sheet or the source, short and quoted. */
function quoted(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function csvError(problem: string): AppError {
  return new AppError('invalid_request', `The CSV is not a table onair can read: ${problem}.`);
}

function rowError(problem: string): AppError {
  return new AppError('invalid_request', `The source's row is not in the table: ${problem}.`, {
    errors: [{ path: 'row', message: problem }],
  });
}
