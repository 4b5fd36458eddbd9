/**
 * The composition root: config → store → engine → api, transport. The only module that knows which
 * store, broker and transport implementations run. `startServer` is used by the CLI and by tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_BODY_BYTES } from '@onair/protocol';
import type { Logger } from 'pino';
import { createApiApp } from './api/app.js';
import { createAsRunLog, type AsRunLog } from './as-run/as-run-log.js';
import { uploadCap } from './api/assets/upload-body.js';
import { graphicUploadCap } from './api/graphics/graphic-upload.js';
import { createFastPatch } from './api/inputs/fast-patch.js';
import type { ApiBindings, Health } from './api/env.js';
import { loadRendererAssets } from './api/render/renderer-assets.js';
import { createAuthenticator } from './auth/authenticate.js';
import { startAccountPruning } from './auth/account-pruning.js';
import { bootstrapCredentials, type BootstrapResult } from './auth/bootstrap.js';
import { limitPasswordWork } from './auth/passwords.js';
import type { Config } from './config.js';
import { createClusterEngine, type ClusterEngine } from './cluster/cluster-engine.js';
import { openCluster, type ClusterParts } from './cluster/cluster-node.js';
import {
  FrameEngine,
  MemoryBroker,
  systemTime,
  type Engine,
  type EngineDeps,
  type TimeSource,
} from './engine/index.js';
import { newId } from './ids.js';
import { createLogger, repeatedOnce } from './logger.js';
import { MemoryLoginThrottle } from './limits/memory-login-throttle.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import { createServerMetrics, type ServerMetrics } from './metrics/server-metrics.js';
import { startAsRunPruning, startEventPruning, startIdempotencyPruning } from './store/event-retention.js';
import type { ModeReport } from './store/sqlite/data-dir-modes.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import type { Store } from './store/store.js';
import type { RenderSocketDeps } from './transport/render-socket.js';
import { createTransport, type TransportDeps } from './transport/server.js';
import type { Resolve } from './webhooks/endpoint-guard/index.js';
import { createIncomingHookDesk } from './incoming-hooks/hook-desk.js';
import { applySourceChange, createRunner, type Runner } from './operations/index.js';
import { createDataSources } from './sources/data-sources.js';
import { Outputs, raiseOn, type OutputsSummary } from './outputs/outputs.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerHandle {
  port: number;
  baseUrl: string;
  engine: Engine;
  /** For tests that need to reach storage directly (account tokens, for example). */
  store: Store;
  /** The webhook operations, for tests that build the API app on their own. */
  /** Runs every use case, for tests that build the API app on their own. */
  runner: Runner;
  /** The as-run log's confirmations and restarts: `asRun.confirm` is what output reports call. */
  asRun: AsRunLog;
  /** This server's output pages (docs/outputs.md): their list, and the confirmations of what they painted. */
  outputs: Outputs;
  logger: Logger;
  firstRun: BootstrapResult;
  /** Tests only: a request straight into the Hono app, past the transport (and its fast routes). */
  fetchApi(request: Request): Promise<Response>;
  /** Graceful drain (docs/api.md, "Operations"): stop accepting, finish the tick, flush, close sockets with 1001. */
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  time?: TimeSource;
  /** Tests only: a shorter WebSocket heartbeat period. */
  heartbeatMs?: number;
  /** Benchmarks only: false runs without any metrics, to measure what they cost (bench/metrics.ts). */
  metrics?: boolean;
  /** Tests only: the resolver webhook and data source saves, deliveries and fetches use, and a CA to trust. */
  webhookResolve?: Resolve;
  webhookCa?: string;
  /** Tests only: the clock the rate limiter reads (epoch milliseconds), to move its windows without waiting. */
  limiterClock?: () => number;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<ServerHandle> {
  const startedAt = performance.now();
  const logger = options.logger ?? createLogger(config.logLevel);
  let health: Health = 'starting';
  // Several nodes run on Postgres and Redis (cluster/cluster-node.ts); one node on SQLite and memory.
  const cluster = config.cluster ? await openCluster(config.cluster, logger) : null;
  const sqlite = cluster ? null : new SqliteStore({ dataDir: config.dataDir, synchronous: config.dbSync });
  const store: Store = cluster?.store ?? sqlite!;
  if (sqlite) logModes(logger, sqlite.modes);
  const version = packageVersion();
  const metrics: ServerMetrics | null =
    options.metrics === false
      ? null
      : createServerMetrics({
          version,
          // Read when scraped, by which time the engine below exists.
          engine: { clockStats: () => engine.clockStats() },
          storageFailure: () => store.failure(),
          outboxDepth: () => store.webhooks.outboxDepth(),
          outputsByHealth: () => outputs.byHealth(),
        });
  if (metrics && sqlite) sqlite.observe(metrics.storage);
  const broker = cluster?.broker ?? new MemoryBroker((err) => logger.error({ err }, 'broker listener failed'));
  const engineDeps: EngineDeps = {
    time: options.time ?? systemTime,
    committer: store,
    broker,
    newEventId: () => newId('evt'),
    limits: {
      rundownsPerChannel: config.limits.rundownsPerChannel,
      itemsPerRundown: config.limits.itemsPerRundown,
      scheduledPerChannel: config.limits.scheduledPerChannel,
      historyDepth: config.limits.historyDepth,
    },
    onTickError: repeatedOnce((err, ctx, repeats) =>
      logger.error({ err, ...ctx, ...(repeats ? { repeats } : {}) }, 'tick error contained'),
    ),
    onTick: metrics ? (info) => metrics.engine.tick(info) : undefined,
    onEvents: (events) => {
      metrics?.engine.events(events);
      webhooks.durable(events);
    },
    onAsRun: (channelId, change) => asRun.committed(channelId, change),
  };
  const clusterEngine = cluster ? nodeEngine(cluster, engineDeps, logger) : null;
  const engine: Engine = clusterEngine ?? new FrameEngine(engineDeps);
  const asRun = createAsRunLog({ store: store.asRun, engine, logger, now: Date.now });
  const webhooks: Webhooks = createWebhooks(
    { store: store.webhooks, logger, recorder: metrics?.webhooks },
    {
      ...config.webhooks,
      secretKey: config.secretKey,
      dataDir: config.dataDir,
      version,
      resolve: options.webhookResolve,
      trustedCa: options.webhookCa,
      nodeId: cluster?.nodeId,
    },
  );
  // Several nodes: each shares its outputs with the others, so every node lists them all (docs/outputs.md).
  const peers = cluster
    ? {
        nodeId: cluster.nodeId,
        share: (summary: OutputsSummary) =>
          cluster.announcements.announce({ kind: 'outputs', node: cluster.nodeId, summary }),
      }
    : undefined;
  const outputs = new Outputs({ engine, raise: raiseOn(engine), logger, counters: metrics?.outputs, peers });
  // What output pages confirm painting is recorded in the as-run line of what they painted (docs/as-run.md).
  outputs.onConfirmed((c) => void asRun.confirm(c));
  const stored = await store.loadChannels();
  engine.load(stored);
  // One node: what the last run left on air ends, and the restored program begins again (docs/as-run.md).
  if (!cluster) {
    await asRun.resume(stored).catch((err: unknown) => logger.error({ err }, 'as-run: restart not recorded'));
  }
  const firstRun = await bootstrapCredentials(store, config.bootstrapKey);
  const auth = createAuthenticator(store, Date.now, { cacheTtlMs: cluster ? 1_000 : undefined });
  // Other nodes' announcements are heard from before this node takes part (engine.start()) until it stops.
  const hearing = cluster && clusterEngine ? cluster.hear({ channels: clusterEngine.heard, auth, outputs }) : null;
  const baseLimiter = cluster?.limiter ?? new MemoryRateLimiter(options.limiterClock);
  const limiter = metrics ? metrics.countRefusals(baseLimiter) : baseLimiter;
  const baseThrottle = cluster?.loginThrottle ?? new MemoryLoginThrottle();
  const loginThrottle = metrics ? metrics.countLoginThrottle(baseThrottle) : baseThrottle;
  limitPasswordWork({ ...config.passwords, onRefused: passwordRefusalLog(logger, config.passwords.concurrency) });
  let baseUrl = config.baseUrl ?? '';

  const incomingHooks = createIncomingHookDesk({
    store: store.incomingHooks,
    limiter,
    box: webhooks.box,
    logger,
    now: Date.now,
    postsPerAddressPerSecond: config.limits.hookPostsPerAddressPerSecond,
  });
  // Several nodes: sources written on another node are read again every 2 s (like webhook subscriptions).
  const sources = createDataSources(
    {
      store: store.sources,
      engine,
      apply: (source, change) => applySourceChange(runner, source, change),
      logger,
      now: Date.now,
      recorder: metrics?.sources,
    },
    {
      allowPrivate: config.webhooks.allowPrivate,
      ...config.sources,
      version,
      resyncMs: cluster ? 2_000 : undefined,
      resolve: options.webhookResolve,
      trustedCa: options.webhookCa,
    },
  );
  const runner = createRunner({
    engine,
    store,
    limiter,
    limits: config.limits,
    keyRevoked: (keyId) => auth.revoked(keyId),
    baseUrl: () => baseUrl,
    webhooks: webhooks.desk,
    incomingHooks,
    sources: sources.desk,
    outputs,
    now: Date.now,
  });
  const api = createApiApp(
    {
      engine,
      store,
      limiter,
      loginThrottle,
      auth,
      logger,
      baseUrl: () => baseUrl,
      health: () => currentHealth(health, store, cluster),
      redis: cluster ? () => cluster.redisFailure() : undefined,
      renderer: loadRendererAssets(path.join(ROOT, 'renderer', 'dist')),
      metrics: () => metrics?.render() ?? '',
      metricsToken: config.metricsToken,
      info: { version, startedAt },
      sessionTtlSeconds: config.sessionTtlSeconds,
      runner,
      secrets: webhooks.box,
      limits: config.limits,
    },
    path.join(ROOT, 'public'),
  );
  const bindings: ApiBindings = { observeRequest: metrics?.request };
  // server.ts hands its deps on to the render socket as they are: `counters`, `outputs` and `sources` travel with them.
  const transportDeps: TransportDeps & Pick<RenderSocketDeps, 'counters' | 'outputs' | 'sources'> = {
    fetch: (req) => api.fetch(req, bindings),
    engine,
    runner,
    broker,
    auth,
    limiter,
    logger,
    maxBodyBytes: MAX_BODY_BYTES,
    uploads: [uploadCap(config.limits), graphicUploadCap(config.limits)],
    trustedProxies: config.trustedProxies,
    socketLimits: config.socketLimits,
    heartbeatMs: options.heartbeatMs,
    fastPatchInputs: createFastPatch({ runner, auth, logger, observeRequest: metrics?.request }),
    counters: metrics?.sockets,
    outputs,
    sources: sources.feed,
  };
  const transport = createTransport(transportDeps);

  let port: number;
  try {
    await engine.start();
    port = await transport.listen(config.host, config.port);
  } catch (err) {
    await sources.stop();
    await engine.stop();
    outputs.stop();
    hearing?.stop();
    await (cluster ? cluster.close() : store.close());
    throw err;
  }
  baseUrl = config.baseUrl ?? `http://${publicHost(config.host)}:${port}`;
  health = 'ready';
  logger.info(
    { host: config.host, port, baseUrl, channels: engine.channelCount(), node: cluster?.nodeId },
    'listening',
  );
  const stopPruning = startAccountPruning(store.accounts, logger);
  const stopEventPruning = startEventPruning(store, logger, { retentionMs: config.limits.eventDays * 24 * 3600_000 });
  const stopIdempotencyPruning = startIdempotencyPruning(store, logger);
  const stopAsRunPruning = startAsRunPruning(store, logger, { retentionMs: config.asRunRetentionDays * 24 * 3600_000 });
  const stopSeeing = cluster ? () => {} : asRun.startSeeing();
  await webhooks.start();
  hearing?.shareWebhooks(webhooks);
  await sources.start();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      health = 'draining';
      stopPruning();
      stopEventPruning();
      stopIdempotencyPruning();
      stopAsRunPruning();
      stopSeeing();
      transport.stopAccepting();
      // Fetches running end first: what they apply is applied in the engine's last ticks.
      await sources.stop();
      await engine.stop();
      if (!cluster) await asRun.stop().catch((err: unknown) => logger.error({ err }, 'as-run: stop not recorded'));
      await incomingHooks.flush();
      await webhooks.stop();
      // Let acknowledgements of the last tick reach their sockets before they close.
      await new Promise((r) => setTimeout(r, 50));
      outputs.stop();
      await transport.closeSockets();
      hearing?.stop();
      if (cluster) await cluster.close();
      else {
        await broker.close();
        await store.close();
      }
      logger.info('stopped');
    })());
  const fetchApi = async (request: Request) => api.fetch(request, bindings);
  return { port, baseUrl, engine, store, runner, asRun, outputs, logger, firstRun, fetchApi, stop };
}

/** Several nodes: the node's engine (cluster/cluster-engine.ts), ticking the channels it owns. */
function nodeEngine(cluster: ClusterParts, deps: EngineDeps, logger: Logger): ClusterEngine {
  return createClusterEngine({
    ...deps,
    broker: cluster.broker,
    clockPhase: cluster.clockPhase,
    loadChannel: (id) => cluster.store.loadChannel(id),
    leases: cluster.leases,
    bus: cluster.bus,
    announcements: cluster.announcements,
    logger,
  });
}

/** Once ready: storage that refuses writes first, then a Redis that cannot be reached (several nodes). */
function currentHealth(health: Health, store: Store, cluster: ClusterParts | null): Health {
  if (health !== 'ready') return health;
  if (store.failure()) return 'storage_failed';
  return cluster?.redisFailure() ? 'redis_failed' : health;
}

/** Modes made private at start, or that could not be (docs/deploy.md, "File permissions"). */
function logModes(logger: Logger, modes: ModeReport): void {
  if (modes.tightened.length > 0) {
    logger.warn({ tightened: modes.tightened }, 'the data directory was readable by other users: made private');
  }
  for (const problem of modes.problems) logger.warn(`the data directory is not private: ${problem}`);
}

/** A flood of sign-ins refused by the cap on password work is one warning a minute, with how many. */
function passwordRefusalLog(logger: Logger, concurrency: number): () => void {
  const warn = repeatedOnce((_err, _ctx: null, repeats) =>
    logger.warn(
      { concurrency, ...(repeats ? { repeats } : {}) },
      'sign-ins refused with 503: more password checks at once than ONAIR_PASSWORD_CONCURRENCY allows',
    ),
  );
  return () => warn('password work at its cap', null);
}

function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** The version /healthz and the metrics report: package.json's, read once at start. */
function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
