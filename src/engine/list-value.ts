/**
 * What a list input's value must be (docs/scenes.md, "Lists"): an array of at most `maxRows` row objects, each
 * naming only declared columns, a text column holding a string and a number column a finite number. A column a
 * row leaves out shows empty, so a short row is not an error.
 */
import type { InputDef, ListColumn } from '@onair/protocol';
import { MAX_ABS_NUMBER } from './input-limits.js';

export const DEFAULT_MAX_ROWS = 20;
/** A cell is one short line of a table: a team, a name, a figure. */
export const MAX_CELL_CHARS = 200;

/** Where a value goes wrong, below the input (`3.pts`, or `` for the whole value), and how. */
export interface ListProblem {
  at: string;
  message: string;
}

const isRow = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function listProblem(def: Pick<InputDef, 'columns' | 'maxRows'>, value: unknown): ListProblem | null {
  if (!Array.isArray(value)) return { at: '', message: 'must be an array of rows, e.g. [{"team": "Lions"}]' };
  const maxRows = def.maxRows ?? DEFAULT_MAX_ROWS;
  if (value.length > maxRows) return { at: '', message: `must have at most ${maxRows} rows` };
  const columns = new Map((def.columns ?? []).map((c) => [c.name, c]));
  for (let i = 0; i < value.length; i++) {
    const row: unknown = value[i];
    if (!isRow(row)) return { at: String(i), message: 'must be an object of column names to values' };
    for (const name of Object.keys(row)) {
      const problem = cellProblem(columns.get(name), row[name]);
      if (problem) return { at: `${i}.${name}`, message: problem };
    }
  }
  return null;
}

function cellProblem(column: ListColumn | undefined, cell: unknown): string | null {
  if (!column) return 'is not a column of this list';
  if (column.type === 'number') {
    if (typeof cell !== 'number' || !Number.isFinite(cell)) return 'must be a number';
    return Math.abs(cell) > MAX_ABS_NUMBER ? 'must be between -1e15 and 1e15' : null;
  }
  if (typeof cell !== 'string') return 'must be a string';
  return cell.length > MAX_CELL_CHARS ? `must be at most ${MAX_CELL_CHARS} characters` : null;
}
