/**
 * One statement for many rows. A tick that changes 50 channels costs 2 statement runs instead of 100:
 * the per-statement overhead (binding, stepping, resetting through better-sqlite3) is most of a small
 * write's cost. Statements are prepared once per chunk size, and sizes are powers of two up to MAX_ROWS,
 * so at most log2(MAX_ROWS) + 1 statements exist per kind and any count is a sum of a few chunks.
 */
import type Database from 'better-sqlite3';

const MAX_ROWS = 256;

export class RowBatch {
  private readonly prepared = new Map<number, Database.Statement>();

  /** `sql(rows)` is the statement for `rows` rows of `width` parameters each. */
  constructor(
    private readonly db: Database.Database,
    private readonly width: number,
    private readonly sql: (rows: number) => string,
  ) {}

  /** `params` is every row's parameters, flattened: its length is a multiple of `width`. */
  run(params: unknown[]): void {
    let row = 0;
    let left = params.length / this.width;
    while (left > 0) {
      const size = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(left)));
      const all = row === 0 && size * this.width === params.length;
      this.statement(size).run(all ? params : params.slice(row * this.width, (row + size) * this.width));
      row += size;
      left -= size;
    }
  }

  private statement(rows: number): Database.Statement {
    let st = this.prepared.get(rows);
    if (!st) this.prepared.set(rows, (st = this.db.prepare(this.sql(rows))));
    return st;
  }
}

/** `(?, ?, ?), (?, ?, ?)`: `rows` groups of `width` placeholders. */
export function placeholders(rows: number, width: number): string {
  const group = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => group).join(', ');
}
