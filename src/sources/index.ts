/**
 * Data sources' pure parts: which URL a source may poll and how often, one guarded fetch of it, a CSV as a table
 * and the row a source reads, the answer mapped onto the channel's inputs as an incoming hook's post is, and the
 * part of a change that differs from what the source last applied. No store, no engine, no timers.
 */
export {
  checkSourceUrl,
  intervalRule,
  parseSourceUrl,
  type IntervalRule,
  type SourceType,
  type SourceUrl,
} from './source-url.js';
export {
  fetchSource,
  MAX_REDIRECTS,
  SOURCE_FETCH_DEFAULTS,
  type FetchOptions,
  type FetchRequest,
  type FetchResult,
} from './source-fetch.js';
export {
  CSV_LIMITS,
  moveCursor,
  normaliseHeader,
  parseCsv,
  pickRow,
  type CsvTable,
  type CursorMove,
  type RowPick,
} from './csv-table.js';
export { mapSource, type MappableSource, type MappedSource, type SourceTable } from './source-values.js';
export { appliedState, changedOnly, isEmptyChange, type AppliedState } from './changed-values.js';
