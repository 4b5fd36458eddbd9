import { describe, expect, it } from 'vitest';
import { CSV_LIMITS, moveCursor, parseCsv, pickRow } from './csv-table.js';

const RESULTS = ['Team, Home Score ,Away\tScore', 'Lions,2,1', 'Tigers,0,3', 'Bears,1,1'].join('\r\n');

describe('parseCsv', () => {
  it('normalises header names: trimmed, runs of white space to _', () => {
    const table = parseCsv(RESULTS);
    expect(table.headers).toEqual(['Team', 'Home_Score', 'Away_Score']);
    expect(table.rows[1]).toEqual({ Team: 'Tigers', Home_Score: '0', Away_Score: '3' });
  });

  it('reads quoted commas, quotes and newlines inside cells (RFC 4180)', () => {
    const table = parseCsv('name,note\n"Smith, J.","said ""hi""\nthen left"\nDoe,"5"" tall"\n');
    expect(table.rows).toEqual([
      { name: 'Smith, J.', note: 'said "hi"\nthen left' },
      { name: 'Doe', note: '5" tall' },
    ]);
  });

  it('fills missing cells with empty text and skips blank lines and empty rows', () => {
    const table = parseCsv('a,b,c\n1\n\n,,\n4,5,6\n');
    expect(table.rows).toEqual([
      { a: '1', b: '', c: '' },
      { a: '4', b: '5', c: '6' },
    ]);
  });

  it('refuses a row with more cells than the header, naming the row and line', () => {
    expect(() => parseCsv('a,b\n1,2\n"x\ny",2,3\n')).toThrow(/row 2 \(line 4\) has 3 cells; the header has 2/);
    // Trailing empty cells (a spreadsheet's trailing commas) are not more cells.
    expect(parseCsv('a,b\n1,2,,\n').rows).toEqual([{ a: '1', b: '2' }]);
  });

  it('refuses a duplicate header name (after normalising) and an unnamed column with data', () => {
    expect(() => parseCsv('Home Score,Home  Score\n1,2\n')).toThrow(/column 2 repeats the header name "Home_Score"/);
    expect(() => parseCsv('a, ,c\n1,2,3\n')).toThrow(/column 2 has no name/);
    // An unnamed column with nothing in it is dropped.
    expect(parseCsv('a,,c\n1,,3\n')).toEqual({ headers: ['a', 'c'], rows: [{ a: '1', c: '3' }] });
  });

  it('refuses more rows or columns than the limits', () => {
    const wide = Array.from({ length: CSV_LIMITS.columns + 1 }, (_, i) => `c${i}`).join(',');
    expect(() => parseCsv(`${wide}\n`)).toThrow(/more than 200 columns/);
    const long = `n\n${'1\n'.repeat(CSV_LIMITS.rows + 1)}`;
    expect(() => parseCsv(long)).toThrow(/more than 10000 rows/);
    expect(parseCsv(`n\n${'1\n'.repeat(CSV_LIMITS.rows)}`).rows).toHaveLength(CSV_LIMITS.rows);
  });

  it('reports a quote left open by its line, without quoting the content', () => {
    const err = (() => {
      try {
        parseCsv('a,b\n1,"secret\n');
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err?.message).toMatch(/quoted cell is not closed at line \d/);
    expect(err?.message).not.toMatch(/secret/);
  });

  it('keeps a header named __proto__ as a plain cell', () => {
    const table = parseCsv('__proto__,b\nx,y\n');
    expect(table.rows[0]?.['__proto__']).toBe('x');
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('answers an empty table for an empty body', () => {
    expect(parseCsv('')).toEqual({ headers: [], rows: [] });
  });
});

describe('pickRow', () => {
  const table = parseCsv(RESULTS);

  it('picks by number (1 = the first data row), naming a row not found', () => {
    expect(pickRow(table, { by: 'number', number: 1 }, 1).Team).toBe('Lions');
    expect(pickRow(table, { by: 'number', number: 3 }, 1).Team).toBe('Bears');
    expect(() => pickRow(table, { by: 'number', number: 4 }, 1)).toThrow(/row 4 was not found.*3 data rows/);
  });

  it('picks the first row whose key column matches, trimmed, naming the column by its normalised name', () => {
    expect(pickRow(table, { by: 'match', column: 'Team', value: ' Tigers ' }, 1).Away_Score).toBe('3');
    expect(pickRow(table, { by: 'match', column: ' Home Score', value: '1' }, 1).Team).toBe('Bears');
    expect(() => pickRow(table, { by: 'match', column: 'Club', value: 'Lions' }, 1)).toThrow(
      /column "Club" is not in the header/,
    );
    expect(() => pickRow(table, { by: 'match', column: 'Team', value: 'Wolves' }, 1)).toThrow(
      /no row has "Wolves" in column "Team"/,
    );
  });

  it('picks the row the cursor is on', () => {
    expect(pickRow(table, { by: 'cursor' }, 2).Team).toBe('Tigers');
    expect(() => pickRow(table, { by: 'cursor' }, 5)).toThrow(/cursor is on row 5/);
  });
});

describe('moveCursor', () => {
  it('steps next and previous, holding at both ends, and goes back to the first row', () => {
    expect(moveCursor(1, 'next', 3)).toBe(2);
    expect(moveCursor(3, 'next', 3)).toBe(3);
    expect(moveCursor(2, 'previous', 3)).toBe(1);
    expect(moveCursor(1, 'previous', 3)).toBe(1);
    expect(moveCursor(3, 'first', 3)).toBe(1);
    // A table that shrank under the cursor: next brings it back inside.
    expect(moveCursor(9, 'next', 3)).toBe(3);
  });

  it('goes to a row by number, refusing one out of range', () => {
    expect(moveCursor(1, { number: 3 }, 3)).toBe(3);
    expect(() => moveCursor(1, { number: 4 }, 3)).toThrow(/from 1 to 3/);
    expect(() => moveCursor(1, { number: 0 }, 3)).toThrow(/out of range/);
    expect(() => moveCursor(1, { number: 1.5 }, 3)).toThrow(/out of range/);
  });

  it('has no upper bound while the table is not known yet', () => {
    expect(moveCursor(7, 'next', null)).toBe(8);
    expect(moveCursor(1, { number: 50 }, null)).toBe(50);
  });
});
