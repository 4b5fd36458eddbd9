/**
 * Data sources put together (docs/data-sources.md): the guarded agent every fetch goes through (the outgoing
 * webhooks' SSRF rules: each address checked and pinned at connect time; private targets only where
 * ONAIR_WEBHOOK_ALLOW_PRIVATE allows them), the poller, and the desk the source operations use. main.ts starts it
 * after the engine and stops it before the engine.
 */
import type { Logger } from 'pino';
import type { Engine } from '../engine/index.js';
import type { MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { SourceRecord, SourceStore } from '../store/source-store.js';
import { createGuardedAgent, type Resolve } from '../webhooks/endpoint-guard/index.js';
import { createSourceDesk, type SourceDesk } from './source-desk.js';
import { createSourceFeed, type SourceFeed } from './source-feed.js';
import { SourcePoller } from './source-poller.js';
import { runRound, type SourceRecorder } from './source-round.js';
import { fetchSource, type FetchRequest, type FetchResult } from './index.js';

export interface DataSourceSettings {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  version: string;
  /** Several nodes: how often sources written on other nodes are read again (undefined: one node). */
  resyncMs?: number | undefined;
  /** Tests only: the resolver saves and fetches use, and a certificate authority to trust. */
  resolve?: Resolve | undefined;
  trustedCa?: string | undefined;
}

export interface DataSourceDeps {
  store: SourceStore;
  engine: Pick<Engine, 'ticks' | 'registry'>;
  /** Applies a change to the source's channel as the source (operations/source-apply.ts). */
  apply: (source: SourceRecord, change: MappedChange) => Promise<void>;
  logger: Logger;
  now: () => number;
  /** Counts each fetch by how it ended (/metrics). */
  recorder?: SourceRecorder | undefined;
}

export type { FetchOutcome, SourceRecorder } from './source-round.js';

export interface DataSources {
  desk: SourceDesk;
  /** The channels' sources as the real-time WebSocket pushes them, and when they change on this node. */
  feed: SourceFeed;
  start(): Promise<void>;
  /** Stops polling and waits for the fetches running; then closes the connections. */
  stop(): Promise<void>;
}

/** How long a stop waits for the fetches running before it cuts them. */
const STOP_GRACE_MS = 2_000;
/** Connecting (TCP and TLS) gets at most this much of a fetch's time. */
const CONNECT_TIMEOUT_MS = 5_000;

export function createDataSources(deps: DataSourceDeps, settings: DataSourceSettings): DataSources {
  const logger = deps.logger.child({ component: 'sources' });
  const agent = createGuardedAgent({
    allowPrivate: settings.allowPrivate,
    resolve: settings.resolve,
    connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, settings.timeoutMs),
    tls: settings.trustedCa ? { ca: settings.trustedCa } : undefined,
  });
  const fetch = (req: FetchRequest): Promise<FetchResult> =>
    fetchSource(req, {
      agent,
      timeoutMs: settings.timeoutMs,
      maxBytes: settings.maxBytes,
      userAgent: `onair-sources/${settings.version}`,
    });
  const registry = (channelId: string) => deps.engine.registry(channelId);
  const feed = createSourceFeed(deps.store, deps.now);
  const changed = (channelId: string) => feed.changed(channelId);
  const roundDeps = {
    changed,
    store: deps.store,
    fetch,
    registry,
    apply: deps.apply,
    logger,
    now: deps.now,
    recorder: deps.recorder,
  };
  const poller = new SourcePoller({
    store: { listAllSources: listingFor(deps.store, feed, settings.resyncMs !== undefined) },
    engine: deps.engine,
    round: (id, options) => runRound(roundDeps, id, options),
    logger,
    resyncMs: settings.resyncMs,
  });
  const desk = createSourceDesk({
    poller,
    fetch,
    registry,
    check: { allowPrivate: settings.allowPrivate, resolve: settings.resolve },
    changed,
  });
  return {
    desk,
    feed,
    start: () => poller.start(),
    async stop() {
      const stopped = poller.stop();
      // A feed that trickles its answer would hold the drain for the whole fetch time-out: after a moment, the
      // fetches still running are cut (and recorded as failed; they are fetched again when due).
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      await agent.destroy();
      await stopped;
      feed.stop();
    },
  };
}

/**
 * Every source, for the poller. With several nodes each such read (every `resyncMs`) also tells the feed of every
 * channel that has or had sources, so that a socket here hears within that time what other nodes fetched or wrote
 * (the socket reads a channel's sources only when it is followed here, and sends them only when they changed).
 */
function listingFor(store: SourceStore, feed: SourceFeed, cluster: boolean): () => Promise<SourceRecord[]> {
  let had = new Set<string>();
  return async () => {
    const all = await store.listAllSources();
    if (!cluster) return all;
    const has = new Set(all.map((s) => s.channelId));
    for (const channelId of new Set([...had, ...has])) feed.changed(channelId);
    had = has;
    return all;
  };
}
