/**
 * One fetch of a data source, start to end (docs/data-sources.md, "Polling"): the source read afresh from the store
 * (another node, or an edit, may have changed it), a conditional GET, the body read and mapped, the values that
 * changed since the last applied ones applied as the source, and the outcome stored with its log line.
 *
 * - 304, or a body with the SHA-256 of the last one: nothing is read or applied (`changed: false`).
 * - A fetch, a body or a mapping that fails, or an apply that is refused (the channel's updates are rate limited,
 *   say): the state becomes `failing` with the error; the values on air and the last body's validators stay, so
 *   the next fetch reads the body again.
 * - A cursor move (`move`) reads the body whole, whatever its validators say: the row changed even if the sheet
 *   did not.
 */
import type { Logger } from 'pino';
import type { InputRegistry } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { SourceFetchRecord, SourceRecord, SourceStatusChanges, SourceStore } from '../store/source-store.js';
import { readSource } from './source-reading.js';
import {
  appliedState,
  changedOnly,
  isEmptyChange,
  type CursorMove,
  type FetchRequest,
  type FetchResult,
} from './index.js';

/** Lines of a source's fetch log kept. */
export const FETCH_LOG_KEEP = 50;

/**
 * How a fetch ended, as /metrics counts it: values applied, a body read that applied nothing (the same SHA-256, or
 * values equal to those last applied), a 304, or an error.
 */
export type FetchOutcome = 'changed' | 'unchanged' | 'not_modified' | 'failed';

/** Told of every fetch a round makes (not of dry runs), once it is known how it ended. */
export interface SourceRecorder {
  fetched(outcome: FetchOutcome): void;
}

export interface RoundDeps {
  store: SourceStore;
  fetch: (req: FetchRequest) => Promise<FetchResult>;
  registry: (channelId: string) => InputRegistry;
  /** Applies the change to the source's channel, as the source (rejects with the AppError that refused it). */
  apply: (source: SourceRecord, change: MappedChange) => Promise<void>;
  logger: Logger;
  now: () => number;
  recorder?: SourceRecorder | undefined;
  /** Told of each fetch recorded, with the source's channel (the `sources` message). */
  changed?: ((channelId: string) => void) | undefined;
}

export interface RoundOptions {
  /** Move the cursor first (CSV sources picking their row by cursor). */
  move?: CursorMove | undefined;
}

export type RoundOutcome =
  | { kind: 'gone' }
  | { kind: 'paused' }
  | {
      kind: 'fetched';
      /** Failed fetches in a row after this one (0: it succeeded). */
      failCount: number;
      /** A move the caller asked for that does not fit the table (a row number past the end): for the caller. */
      refusal?: AppError | undefined;
    };

export async function runRound(deps: RoundDeps, id: string, options: RoundOptions = {}): Promise<RoundOutcome> {
  const source = await deps.store.getSource(id);
  if (!source) return { kind: 'gone' };
  if (source.paused) return { kind: 'paused' };
  const forced = options.move !== undefined;
  const result = await deps.fetch({
    url: source.url,
    type: source.type,
    etag: forced ? null : source.etag,
    lastModified: forced ? null : source.lastModified,
  });
  const at = new Date(deps.now()).toISOString();
  const record = async (status: SourceStatusChanges, changed: boolean, error: string | null) => {
    deps.recorder?.fetched(fetchOutcome(result, changed, error));
    const line: SourceFetchRecord = { at, status: result.status, bytes: result.bytes, ms: result.ms, changed, error };
    await deps.store.recordFetch(id, source.updatedAt, status, line, FETCH_LOG_KEEP);
    deps.changed?.(source.channelId);
  };
  if (result.error !== null || (result.body === null && !result.notModified)) {
    return failed(source, at, result.error ?? 'no body', record);
  }
  const validators = { etag: result.etag, lastModified: result.lastModified };
  const ok = { state: 'ok' as const, lastFetchAt: at, lastError: null, failCount: 0 };
  if (result.body === null || (!forced && result.sha256 === source.bodySha256)) {
    await record({ ...ok, ...validators, bodySha256: result.sha256 ?? source.bodySha256 }, false, null);
    return { kind: 'fetched', failCount: 0 };
  }
  return applyBody(
    deps,
    source,
    result.body,
    { at, ok: { ...ok, ...validators, bodySha256: result.sha256 } },
    record,
    options,
  );
}

type Recorder = (status: SourceStatusChanges, changed: boolean, error: string | null) => Promise<void>;

async function applyBody(
  deps: RoundDeps,
  source: SourceRecord,
  body: string,
  done: { at: string; ok: SourceStatusChanges },
  record: Recorder,
  options: RoundOptions,
): Promise<RoundOutcome> {
  let reading;
  try {
    reading = readSource(source, body, deps.registry(source.channelId), options.move);
  } catch (err) {
    // A row number past the end is the caller's mistake, not the feed's.
    if (options.move !== undefined && isMoveRefusal(err)) {
      await record({ ...done.ok, bodySha256: undefined }, false, null);
      return { kind: 'fetched', failCount: 0, refusal: err };
    }
    return failed(source, done.at, errorText(deps, source, err), record);
  }
  const change = changedOnly(source.lastValues, reading.change);
  const changed = !isEmptyChange(change);
  try {
    if (changed) await deps.apply(source, change);
  } catch (err) {
    return failed(source, done.at, errorText(deps, source, err), record);
  }
  await record(
    {
      ...done.ok,
      lastValues: appliedState(source.lastValues, reading.change),
      lastChangeAt: changed ? done.at : undefined,
      cursor: reading.cursor,
    },
    changed,
    null,
  );
  return { kind: 'fetched', failCount: 0 };
}

async function failed(source: SourceRecord, at: string, error: string, record: Recorder): Promise<RoundOutcome> {
  const failCount = source.failCount + 1;
  await record({ state: 'failing', lastFetchAt: at, lastError: error, failCount }, false, error);
  return { kind: 'fetched', failCount };
}

function fetchOutcome(result: FetchResult, changed: boolean, error: string | null): FetchOutcome {
  if (error !== null) return 'failed';
  if (changed) return 'changed';
  return result.notModified ? 'not_modified' : 'unchanged';
}

function isMoveRefusal(err: unknown): err is AppError {
  return err instanceof AppError && err.errors?.[0]?.path === 'number';
}

/** What the log shows: an AppError's detail; anything else is a bug, logged here and shown as such. */
function errorText(deps: RoundDeps, source: SourceRecord, err: unknown): string {
  if (err instanceof AppError) return err.message;
  deps.logger.error({ err, sourceId: source.id, channelId: source.channelId }, 'data source fetch failed unexpectedly');
  return 'internal error (see the server log)';
}
