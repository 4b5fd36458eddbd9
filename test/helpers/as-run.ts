/** The as-run log's shapes (docs/as-run.md, written out here to check the contract) and its CSV read back. */
import { parse } from 'csv-parse/sync';

export interface Actor {
  type: string;
  id: string;
  name: string;
}

/** An interval as docs/as-run.md writes it out. */
export interface AsRunLine {
  id: string;
  layer: number;
  sceneId: string;
  sceneName: string;
  itemId: string | null;
  label: string;
  values: Record<string, unknown>;
  updatedValues: Record<string, unknown> | null;
  startAt: string;
  startFrame: number;
  endAt: string | null;
  endFrame: number | null;
  durationMs: number | null;
  takenBy: Actor;
  clearedBy: Actor | null;
  confirmedAt: string | null;
  confirmedBy: string[];
  endInferred: boolean;
}

export interface AsRunPage {
  data: AsRunLine[];
  nextCursor: string | null;
}

/** A text the export marked with a leading `'` so a spreadsheet does not run it (docs/as-run.md), as it was. */
const unmarked = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

/** The CSV's rows as JSON lines, by the columns docs/as-run.md lists. */
export function fromCsv(text: string): AsRunLine[] {
  const parsed = parse<Record<string, string>>(text, { columns: true, record_delimiter: '\r\n' });
  const rows = parsed.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, unmarked(v)])));
  const nullable = (v: string) => (v === '' ? null : v);
  const num = (v: string) => (v === '' ? null : Number(v));
  const actor = (row: Record<string, string>, name: string): Actor | null =>
    row[name] === '' ? null : { type: row[`${name}Type`]!, id: row[`${name}Id`]!, name: row[name]! };
  return rows.map((r) => ({
    id: r.id!,
    layer: Number(r.layer),
    sceneId: r.sceneId!,
    sceneName: r.sceneName!,
    itemId: nullable(r.itemId!),
    label: r.label!,
    values: JSON.parse(r.values!) as Record<string, unknown>,
    updatedValues: r.updatedValues === '' ? null : (JSON.parse(r.updatedValues!) as Record<string, unknown>),
    startAt: r.startAt!,
    startFrame: Number(r.startFrame),
    endAt: nullable(r.endAt!),
    endFrame: num(r.endFrame!),
    durationMs: num(r.durationMs!),
    takenBy: actor(r, 'takenBy')!,
    clearedBy: actor(r, 'clearedBy'),
    confirmedAt: nullable(r.confirmedAt!),
    confirmedBy: JSON.parse(r.confirmedBy!) as string[],
    endInferred: r.endInferred === 'true',
  }));
}
