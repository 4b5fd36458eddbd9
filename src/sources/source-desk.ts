/**
 * What the source operations (operations/sources.ts) need besides storage: the URL check a source passes at save,
 * the poller told of every write, a fetch now (refresh, cursor moves), and a dry run that fetches and maps once and
 * stores nothing.
 */
import type { InputRegistry } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { SourceConfig, SourceRecord, SourceType } from '../store/source-store.js';
import type { CheckEndpointOptions } from '../webhooks/endpoint-guard/index.js';
import type { SourcePoller } from './source-poller.js';
import { readSource } from './source-reading.js';
import type { RoundOptions, RoundOutcome } from './source-round.js';
import { checkSourceUrl, type FetchRequest, type FetchResult } from './index.js';

/** What a dry run answers: the values the source would apply now, and the fields that map to nothing. */
export interface DryRun {
  values: Record<string, unknown>;
  unmapped: string[];
  fetch: { status: number | null; bytes: number; ms: number };
  /** Why the source would fail now (the fetch, the body or the mapping), or null. */
  error: string | null;
}

export interface SourceDesk {
  /** The URL as it will be fetched and whether it is a published Google Sheet, or 422 endpoint_refused. */
  checkUrl(type: SourceType, raw: string): Promise<{ url: string; sheet: boolean }>;
  /** After a write on this node: a new or edited source is fetched at once (unless paused). */
  stored(record: SourceRecord): void;
  deleted(id: string, channelId: string): void;
  channelDeleted(channelId: string): void;
  /** Fetches now, joining a fetch of the source that is running (see SourcePoller.fetchNow). */
  fetchNow(id: string, options?: RoundOptions): Promise<RoundOutcome>;
  dryRun(channelId: string, config: SourceConfig): Promise<DryRun>;
}

export interface SourceDeskDeps {
  poller: Pick<SourcePoller, 'put' | 'remove' | 'forgetChannel' | 'fetchNow'>;
  fetch: (req: FetchRequest) => Promise<FetchResult>;
  registry: (channelId: string) => InputRegistry;
  check: CheckEndpointOptions;
  /** Told of every source stored or deleted, with its channel (the `sources` message). */
  changed: (channelId: string) => void;
}

export function createSourceDesk(deps: SourceDeskDeps): SourceDesk {
  return {
    async checkUrl(type, raw) {
      const { url, sheet } = await checkSourceUrl(type, raw, deps.check);
      return { url: url.href, sheet };
    },
    stored(record) {
      deps.poller.put(record);
      deps.changed(record.channelId);
    },
    deleted(id, channelId) {
      deps.poller.remove(id);
      deps.changed(channelId);
    },
    channelDeleted: (channelId) => deps.poller.forgetChannel(channelId),
    fetchNow: (id, options) => deps.poller.fetchNow(id, options),
    async dryRun(channelId, config) {
      const result = await deps.fetch({ url: config.url, type: config.type });
      const fetch = { status: result.status, bytes: result.bytes, ms: result.ms };
      const none = { values: {}, unmapped: [], fetch };
      if (result.error !== null || result.body === null) return { ...none, error: result.error ?? 'no body' };
      try {
        const reading = readSource({ ...config, cursor: 1 }, result.body, deps.registry(channelId));
        return { values: reading.change.applied, unmapped: reading.unmapped, fetch, error: null };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { ...none, error: err.message };
      }
    },
  };
}
