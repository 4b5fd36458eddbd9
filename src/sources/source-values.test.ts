import { describe, expect, it } from 'vitest';
import type { InputRegistry } from '../engine/index.js';
import type { InputDef } from '@onair/protocol';
import { mapSource, type MappableSource } from './source-values.js';

const defs: InputDef[] = [
  { name: 'scoreA', type: 'number', label: 'A', default: 0 },
  { name: 'scoreB', type: 'number', label: 'B', default: 0 },
  { name: 'home', type: 'text', label: 'Home', default: '' },
  { name: 'gameClock', type: 'clock', label: 'Clock', default: 0 },
  {
    name: 'standings',
    type: 'list',
    label: 'Standings',
    default: [],
    columns: [
      { name: 'team', type: 'text' },
      { name: 'pts', type: 'number' },
    ],
    maxRows: 5,
  },
];
const registry: InputRegistry = new Map(defs.map((d) => [d.name, d]));

const RESULTS = [
  'Team,Home Score,Away Score,Pts,Venue',
  'Lions,2,1,7,North',
  'Tigers,0,3,4,South',
  'Bears,1,1,,East',
].join('\n');
const csv = (extra: Partial<MappableSource>): MappableSource => ({ type: 'csv_url', mapping: {}, ...extra });
const json = (extra: Partial<MappableSource> = {}): MappableSource => ({ type: 'json_url', mapping: {}, ...extra });

describe('mapSource: JSON', () => {
  it('maps like an incoming hook: dotted paths, coercion, and the fields nothing maps', () => {
    const body = JSON.stringify({ game: { home: { score: '3', name: 'Lions' }, clock: true }, venue: 'North' });
    const mapping = { 'game.home.score': 'scoreA', 'game.home.name': 'home', 'game.clock': 'gameClock' };
    const { change, unmapped, rowCount } = mapSource(json({ mapping }), body, registry);
    expect(change.patch).toEqual({ scoreA: 3, home: 'Lions' });
    expect(change.clocks).toEqual([{ name: 'gameClock', action: 'start' }]);
    expect(unmapped).toEqual(['venue']);
    expect(rowCount).toBeNull();
  });

  it('refuses invalid JSON without quoting it, and a value that does not fit as a hook would', () => {
    expect(() => mapSource(json(), '{"scoreA": 2, secret', registry)).toThrow(/^The answer is not valid JSON\.$/);
    expect(() => mapSource(json(), '{"scoreA": "two"}', registry)).toThrow(/Field "scoreA" sets input "scoreA"/);
    expect(() => mapSource(json(), '[1, 2]', registry)).toThrow(/not a JSON object/);
  });

  it('feeds a list input from an array in the answer, beside the mapped fields', () => {
    const body = JSON.stringify({ scoreA: 1, table: [{ team: 'Lions', pts: '7', extra: 1 }, { Team: 'Bears' }] });
    const { change, unmapped } = mapSource(json({ table: { input: 'standings', path: 'table' } }), body, registry);
    expect(change.patch).toEqual({
      scoreA: 1,
      standings: [{ team: 'Lions', pts: 7 }, { team: 'Bears' }],
    });
    expect(unmapped).toEqual([]);
    const whole = mapSource(json({ table: { input: 'standings' } }), '[{"team": "Lions"}]', registry);
    expect(whole.change.patch).toEqual({ standings: [{ team: 'Lions' }] });
    expect(() => mapSource(json({ table: { input: 'standings', path: 'nope' } }), '{}', registry)).toThrow(
      /"nope" in the answer, which is not a JSON array/,
    );
  });
  it("does not also map the table's own field by name when the mapping is empty", () => {
    const body = JSON.stringify({ standings: [{ team: 'Lions', pts: '7', played: 3 }] });
    const { change } = mapSource(json({ table: { input: 'standings', path: 'standings' } }), body, registry);
    expect(change.patch).toEqual({ standings: [{ team: 'Lions', pts: 7 }] });
  });
});

describe('mapSource: CSV', () => {
  it('maps the row picked by number, by key match or by the cursor, naming normalised headers', () => {
    const mapping = { Home_Score: 'scoreA', Away_Score: 'scoreB', Team: 'home' };
    const byNumber = mapSource(csv({ mapping, row: { by: 'number', number: 2 } }), RESULTS, registry);
    expect(byNumber.change.patch).toEqual({ scoreA: 0, scoreB: 3, home: 'Tigers' });
    expect(byNumber.unmapped).toEqual(['Pts', 'Venue']);
    expect(byNumber.rowCount).toBe(3);
    const byMatch = mapSource(
      csv({ mapping, row: { by: 'match', column: 'Venue', value: 'East' } }),
      RESULTS,
      registry,
    );
    expect(byMatch.change.patch).toEqual({ scoreA: 1, scoreB: 1, home: 'Bears' });
    const byCursor = mapSource(csv({ mapping, row: { by: 'cursor' }, cursor: 1 }), RESULTS, registry);
    expect(byCursor.change.patch).toEqual({ scoreA: 2, scoreB: 1, home: 'Lions' });
  });

  it('maps headers named as inputs when the mapping is empty', () => {
    const body = 'scoreA,home,notes\n4,Lions,x\n';
    const { change, unmapped } = mapSource(csv({ row: { by: 'number', number: 1 } }), body, registry);
    expect(change.patch).toEqual({ scoreA: 4, home: 'Lions' });
    expect(unmapped).toEqual(['notes']);
  });

  it('feeds every row into a list input: numbers as numbers, headers matched ignoring case, empty cells left out', () => {
    const { change, unmapped } = mapSource(csv({ table: { input: 'standings' } }), RESULTS, registry);
    expect(change.patch.standings).toEqual([{ team: 'Lions', pts: 7 }, { team: 'Tigers', pts: 4 }, { team: 'Bears' }]);
    expect(change.applied.standings).toEqual(change.patch.standings);
    expect(unmapped).toEqual(['Home_Score', 'Away_Score', 'Venue']);
  });

  it('reads a row and the table at once; a header the table reads is not unmapped', () => {
    const source = csv({
      mapping: { Home_Score: 'scoreA' },
      row: { by: 'number', number: 1 },
      table: { input: 'standings' },
    });
    const { change, unmapped } = mapSource(source, RESULTS, registry);
    expect(change.patch).toEqual({ scoreA: 2, standings: expect.any(Array) as unknown });
    expect(unmapped).toEqual(['Away_Score', 'Venue']);
  });

  it("refuses a table that breaks the list's rules, naming the row and column, or too many rows", () => {
    expect(() => mapSource(csv({ table: { input: 'standings' } }), 'Team,Pts\nLions,seven\n', registry)).toThrow(
      /standings\.0\.pts.*must be a number/,
    );
    const long = `team\n${'x\n'.repeat(6)}`;
    expect(() => mapSource(csv({ table: { input: 'standings' } }), long, registry)).toThrow(/at most 5 rows/);
    expect(() => mapSource(csv({ table: { input: 'home' } }), RESULTS, registry)).toThrow(/a text input; a table/);
    expect(() => mapSource(csv({ table: { input: 'nope' } }), RESULTS, registry)).toThrow(/no scene/);
  });

  it('refuses a mapping that also sets the input the table feeds, and a CSV source that reads nothing', () => {
    const source = csv({
      mapping: { Team: 'standings' },
      row: { by: 'number', number: 1 },
      table: { input: 'standings' },
    });
    expect(() => mapSource(source, RESULTS, registry)).toThrow(/fed by the table/);
    expect(() => mapSource(csv({}), RESULTS, registry)).toThrow(/row, a table, or both/);
  });

  it('passes on the errors of the row it cannot find and of the CSV it cannot read', () => {
    expect(() => mapSource(csv({ row: { by: 'cursor' }, cursor: 4 }), RESULTS, registry)).toThrow(/cursor is on row 4/);
    expect(() => mapSource(csv({ row: { by: 'number', number: 1 } }), 'a,b\n1,2,3\n', registry)).toThrow(
      /row 1 \(line 2\) has 3 cells/,
    );
  });
});
