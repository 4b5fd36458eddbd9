import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { AsRunLine } from '../../operations/index.js';
import { AS_RUN_CSV_COLUMNS, asRunCsv } from './as-run-csv.js';

const line = (over: Partial<AsRunLine>): AsRunLine => ({
  id: 'ar_1',
  layer: 2,
  sceneId: 'sc_1',
  sceneName: 'Lower third',
  itemId: null,
  label: 'Ada',
  values: { name: 'Ada' },
  updatedValues: null,
  startAt: '2026-11-29T10:00:00.000Z',
  startFrame: 100,
  endAt: '2026-11-29T10:00:05.000Z',
  endFrame: 350,
  durationMs: 5000,
  takenBy: { type: 'key', id: 'key_1', name: 'Scorer' },
  clearedBy: null,
  confirmedAt: null,
  confirmedBy: [],
  endInferred: false,
  ...over,
});

const rows = (text: string) => parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });

describe('the as-run CSV', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and leaves a null empty', () => {
    const text = asRunCsv([line({ label: 'Ada, "the first"\nCountess' })]);
    expect(text.split('\r\n')[0]).toBe(AS_RUN_CSV_COLUMNS.join(','));
    const [row] = rows(text);
    expect(row!.label).toBe('Ada, "the first"\nCountess');
    expect(row!.itemId).toBe('');
    expect(row!.clearedBy).toBe('');
    expect(JSON.parse(row!.values!)).toEqual({ name: 'Ada' });
  });

  it('keeps a spreadsheet from running a name as a formula: a leading = + - @ tab or CR gets a quote mark', () => {
    const text = asRunCsv([
      line({
        sceneName: '=HYPERLINK("http://evil.example","x")',
        label: '+1+1',
        takenBy: { type: 'key', id: 'key_1', name: '@SUM(A1)' },
        clearedBy: { type: 'key', id: 'key_2', name: '-2' },
      }),
      line({ sceneName: '\tTabbed', label: '\rReturned' }),
    ]);
    const [first, second] = rows(text);
    expect(first!.sceneName).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(first!.label).toBe("'+1+1");
    expect(first!.takenBy).toBe("'@SUM(A1)");
    expect(first!.clearedBy).toBe("'-2");
    expect(second!.sceneName).toBe("'\tTabbed");
    expect(second!.label).toBe("'\rReturned");
    // Numbers, JSON columns and ordinary names are as the API answers them.
    expect(first!.layer).toBe('2');
    expect(first!.durationMs).toBe('5000');
    expect(rows(asRunCsv([line({})]))[0]!.sceneName).toBe('Lower third');
  });
});
