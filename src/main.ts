/**
 * The composition root: config → store → engine → api, transport. The only module that knows which
 * store, broker and transport implementations run. `startServer` is used by the CLI and by tests.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createApiApp } from './api/app.js';
import { createFastPatch } from './api/inputs/fast-patch.js';
import type { Health } from './api/env.js';
import { MAX_BODY_BYTES } from './api/middleware/json-body.js';
import { problemResponse } from './api/problem.js';
import { loadRendererAssets } from './api/render/renderer-assets.js';
import { createAuthenticator } from './auth/authenticate.js';
import { bootstrapCredentials, type BootstrapResult } from './auth/bootstrap.js';
import type { Config } from './config.js';
import { Engine, MemoryBroker, systemTime, type EngineEvent, type TimeSource } from './engine/index.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { createLogger, repeatedOnce } from './logger.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import { Metrics } from './metrics.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { createTransport } from './transport/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerHandle {
  port: number;
  baseUrl: string;
  engine: Engine;
  logger: Logger;
  firstRun: BootstrapResult;
  /** Graceful drain (API.md §9): stop accepting, finish the tick, flush, close sockets with 1001. */
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  time?: TimeSource;
  /** Tests only: a shorter WebSocket heartbeat period. */
  heartbeatMs?: number;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<ServerHandle> {
  const logger = options.logger ?? createLogger(config.logLevel);
  let health: Health = 'starting';
  const store = new SqliteStore({ dataDir: config.dataDir, synchronous: config.dbSync });
  const metrics = new Metrics();
  const broker = new MemoryBroker((err) => logger.error({ err }, 'broker listener failed'));
  const counters = countersFor(metrics);
  const engine = new Engine({
    time: options.time ?? systemTime,
    committer: store,
    broker,
    onTickError: repeatedOnce((err, ctx, repeats) =>
      logger.error({ err, ...ctx, ...(repeats ? { repeats } : {}) }, 'tick error contained'),
    ),
    onTick: ({ durationMs, changed }) => counters.tick(durationMs, changed),
    onEvents: (events) => counters.events(events),
  });
  engine.load(await store.loadChannels());
  const firstRun = await bootstrapCredentials(store, config.bootstrapKey);
  const auth = createAuthenticator(store);
  const limiter = countRefusals(
    new MemoryRateLimiter(),
    metrics.counter('onair_rate_limited_total', 'Requests and ops refused by a rate limit'),
  );
  let baseUrl = config.baseUrl ?? '';

  const api = createApiApp(
    {
      engine,
      store,
      limiter,
      auth,
      logger,
      baseUrl: () => baseUrl,
      health: () => (health === 'ready' && store.failure() ? 'storage_failed' : health),
      renderer: loadRendererAssets(path.join(ROOT, 'renderer', 'dist')),
      metrics: () => metrics.render(),
      metricsToken: config.metricsToken,
      sessionTtlSeconds: config.sessionTtlSeconds,
    },
    path.join(ROOT, 'public'),
  );
  const transport = createTransport({
    fetch: (req) => api.fetch(req),
    engine,
    broker,
    auth,
    limiter,
    logger,
    maxBodyBytes: MAX_BODY_BYTES,
    heartbeatMs: options.heartbeatMs,
    fastPatchInputs: createFastPatch({ engine, limiter, auth, logger }),
    problem: (err, requestId) => problemResponse(err, requestId),
  });
  metrics.gauge('onair_connections', 'Open render/control WebSocket connections', () => transport.connections());
  registerClockMetrics(metrics, engine);

  engine.start();
  let port: number;
  try {
    port = await transport.listen(config.host, config.port);
  } catch (err) {
    await engine.stop();
    await store.close();
    throw err;
  }
  baseUrl = config.baseUrl ?? `http://${publicHost(config.host)}:${port}`;
  health = 'ready';
  logger.info({ host: config.host, port, baseUrl, channels: engine.channelCount() }, 'listening');

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      health = 'draining';
      transport.stopAccepting();
      await engine.stop();
      // Let acknowledgements of the last tick reach their sockets before they close.
      await new Promise((r) => setTimeout(r, 50));
      transport.closeSockets();
      await broker.close();
      await store.close();
      logger.info('stopped');
    })());
  return { port, baseUrl, engine, logger, firstRun, stop };
}

function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function countersFor(metrics: Metrics) {
  const ticks = metrics.counter('onair_ticks_with_changes_total', 'Ticks that applied at least one change');
  const changed = metrics.counter('onair_frames_published_total', 'Channel frames committed and published');
  const tickMs = metrics.counter('onair_tick_duration_ms_total', 'Milliseconds spent in ticks with work');
  const patches = metrics.counter('onair_patches_applied_total', 'Input patches applied (REST, WebSocket, hooks)');
  return {
    events(events: EngineEvent[]) {
      patches(events.filter((e) => e.type === 'channel.bind_updated').length);
    },
    tick(durationMs: number, changes: number) {
      if (changes === 0) return;
      ticks();
      changed(changes);
      tickMs(durationMs);
    },
  };
}

function countRefusals(limiter: RateLimiter, refused: (by?: number) => void): RateLimiter {
  return {
    async take(key, limit, windowMs) {
      const decision = await limiter.take(key, limit, windowMs);
      if (!decision.allowed) refused();
      return decision;
    },
  };
}

function registerClockMetrics(metrics: Metrics, engine: Engine): void {
  const per = (key: 'ticks' | 'lateTicks' | 'skippedFrames') => () =>
    new Map(engine.clockStats().map((s) => [`fps="${s.fps}"`, s[key]] as const));
  metrics.labelled('onair_ticks_total', 'Frame clock ticks', 'counter', per('ticks'));
  metrics.labelled('onair_late_ticks_total', 'Ticks that started more than 2 ms late', 'counter', per('lateTicks'));
  metrics.labelled(
    'onair_skipped_frames_total',
    'Frames skipped because the event loop was late',
    'counter',
    per('skippedFrames'),
  );
}
