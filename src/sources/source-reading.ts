/**
 * A fetched body read as a source says (docs/data-sources.md, "JSON feeds", "CSV and Google Sheets"): the cursor
 * moved first when an operator asked (a CSV source's `row` operation), then the mapped change. What cannot be read or
 * does not fit throws an AppError whose message is what the fetch log shows.
 */
import type { InputRegistry } from '../engine/index.js';
import type { MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { SourceConfig } from '../store/source-store.js';
import { mapSource, moveCursor, parseCsv, type CursorMove } from './index.js';

export interface Reading {
  change: MappedChange;
  /** Fields of the body (or CSV columns) that nothing maps. */
  unmapped: string[];
  /** The cursor the row was read at. */
  cursor: number;
}

export function readSource(
  source: SourceConfig & { cursor: number },
  body: string,
  registry: InputRegistry,
  move?: CursorMove,
): Reading {
  // The move needs the table's length first; it is rare enough (an operator's press) to parse the sheet twice.
  const cursor = move === undefined ? source.cursor : moveCursor(source.cursor, move, parseCsv(body).rows.length);
  const { change, unmapped } = mapSource({ ...source, cursor }, body, registry);
  return { change, unmapped, cursor };
}
