/**
 * The as-run log as CSV (docs/as-run.md, "A sponsor report in CSV"): RFC 4180 (a header row, CRLF line ends, a field quoted when it holds
 * a comma, a quote or a line break, quotes doubled), one row per line of the JSON answer to the same query, in the
 * same order. Values, updated values and the confirming outputs are JSON in their column; actors are three columns
 * (name, type, id); a null is an empty field. A text that a spreadsheet would run as a formula (it begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return: a scene, item or key named by a user) gets a leading `'`.
 */
import type { Actor } from '@onair/protocol';
import type { AsRunLine } from '../../operations/index.js';

type Cell = string | number | boolean | null;

const COLUMNS: [string, (l: AsRunLine) => Cell][] = [
  ['id', (l) => l.id],
  ['layer', (l) => l.layer],
  ['sceneId', (l) => l.sceneId],
  ['sceneName', (l) => l.sceneName],
  ['itemId', (l) => l.itemId],
  ['label', (l) => l.label],
  ['startAt', (l) => l.startAt],
  ['startFrame', (l) => l.startFrame],
  ['endAt', (l) => l.endAt],
  ['endFrame', (l) => l.endFrame],
  ['durationMs', (l) => l.durationMs],
  ...actorColumns('takenBy', (l) => l.takenBy),
  ...actorColumns('clearedBy', (l) => l.clearedBy),
  ['confirmedAt', (l) => l.confirmedAt],
  ['confirmedBy', (l) => JSON.stringify(l.confirmedBy)],
  ['endInferred', (l) => l.endInferred],
  ['values', (l) => JSON.stringify(l.values)],
  ['updatedValues', (l) => (l.updatedValues === null ? null : JSON.stringify(l.updatedValues))],
];

/** The header row's names, in order. */
export const AS_RUN_CSV_COLUMNS = COLUMNS.map(([name]) => name);

export function asRunCsv(lines: readonly AsRunLine[]): string {
  const rows = [AS_RUN_CSV_COLUMNS.map(field), ...lines.map((l) => COLUMNS.map(([, cell]) => field(cell(l))))];
  return rows.map((r) => `${r.join(',')}\r\n`).join('');
}

function actorColumns(name: string, of: (l: AsRunLine) => Actor | null): [string, (l: AsRunLine) => Cell][] {
  return [
    [name, (l) => of(l)?.name ?? null],
    [`${name}Type`, (l) => of(l)?.type ?? null],
    [`${name}Id`, (l) => of(l)?.id ?? null],
  ];
}

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: Cell): string {
  if (value === null) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
