/**
 * The real onair server (startServer, as `npm start` runs it) in a child process, with IPC for the
 * numbers only the process itself knows: RSS after GC, frame-clock statistics, CPU time, diagnostics,
 * CPU profiles; and for fan-out, a driver that submits a patch per channel per tick (./driver.ts).
 *
 * `warp` > 1 runs the unchanged server on a TimeSource whose frames are `warp` times shorter, so the
 * frame path (tick → delta → commit → publish) runs as often as the event loop allows. That is how the
 * fan-out benchmark measures the path's capacity: at real time a channel is capped, by design, at one
 * frame per 1/60 s.
 */
import fs from 'node:fs';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { ManualTime, type TimeSource } from '../../src/engine/index.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/main.js';
import { childConfig, memorySnapshot, ready, serveParent } from '../lib/child.js';
import { diagnostics, installDiagnostics } from './diagnostics.js';
import { driveEngine, driveEngineFrames, paceEngine, type Stop } from './driver.js';
import { checks, liftLimits, refusals } from './limits.js';
import { startProfile, stopProfile } from './profiler.js';
import { BENCH_KEY } from './seed.js';

interface Config {
  warp?: number;
  /** Frames per event-loop turn, driven on a ManualTime (driveEngineFrames); replaces warp. */
  framesPerTurn?: number;
  dbSync?: 'full' | 'normal';
  /** A data dir seeded by the orchestrator (bench/lib/onair.ts); removed when the server exits. */
  dataDir: string;
  /** Record tick lateness and commit times (./diagnostics.ts). */
  diagnose?: boolean;
  /**
   * Log every request at info, the default of `npm start`, through the same asynchronous pino destination
   * as stdout, into /dev/null: the cost measured is onair's (building and writing each line), not that of
   * a log collector or of a disk shared with the database. Otherwise warn: the baselines log nothing.
   */
  accessLog?: boolean;
  /** Rate-limit buckets whose refusals are ignored (the check still runs); default: none. */
  lift?: ('updates' | 'reads' | 'creates')[];
  /** false: run without metrics (startServer's internal switch), to measure what they cost. */
  metrics?: boolean;
  /** More ONAIR_* settings, over the ones below. */
  env?: Record<string, string>;
  /** PEM of a certificate outgoing requests (webhooks, data sources) trust. */
  ca?: string;
}

function warpedTime(factor: number): TimeSource {
  const origin = performance.timeOrigin + performance.now();
  const start = performance.now();
  return {
    now: () => origin + (performance.now() - start) * factor,
    setTimer(fn, ms) {
      const real = ms / factor;
      if (real < 1) {
        const h = setImmediate(fn);
        return () => clearImmediate(h);
      }
      const t = setTimeout(fn, real);
      return () => clearTimeout(t);
    },
  };
}

async function main(): Promise<void> {
  const cfg = childConfig<Config>();
  const limiter = await liftLimits(cfg.lift ?? []);
  if (cfg.diagnose) installDiagnostics();
  const dir = cfg.dataDir;
  const config = loadConfig({
    ONAIR_HOST: '127.0.0.1',
    ONAIR_PORT: '0',
    ONAIR_DATA_DIR: dir,
    ONAIR_BOOTSTRAP_KEY: BENCH_KEY,
    ONAIR_LOG_LEVEL: cfg.accessLog ? 'info' : 'warn',
    ONAIR_DB_SYNC: cfg.dbSync ?? 'full',
    // Every bench client comes from 127.0.0.1: the per-address WebSocket limits would refuse the fan-out runs.
    ONAIR_WS_MAX_PER_CHANNEL: '0',
    ONAIR_WS_MAX_PER_ADDRESS: '0',
    ONAIR_WS_UPGRADES_PER_ADDRESS: '0',
    ...cfg.env,
  });
  const manual = cfg.framesPerTurn ? new ManualTime(Date.now()) : null;
  const time = manual ?? (cfg.warp ? warpedTime(cfg.warp) : undefined);
  const logger = cfg.accessLog ? createLogger('info', pino.destination({ dest: '/dev/null', sync: false })) : undefined;
  const server = await startServer(config, {
    ...(time ? { time } : {}),
    ...(logger ? { logger } : {}),
    ...(cfg.metrics === false ? { metrics: false } : {}),
    ...(cfg.ca ? { webhookCa: cfg.ca } : {}),
  });
  let stopDriving: Stop = () => {};
  serveParent(
    {
      driveStart: (args) => {
        const channels = args.channels as string[];
        stopDriving = manual
          ? driveEngineFrames(server.engine, manual, channels, Number(args.maxMs), cfg.framesPerTurn!)
          : driveEngine(server.engine, channels, Number(args.maxMs));
      },
      driveStop: () => stopDriving(),
      paceStart: (args) => {
        stopDriving = paceEngine(server.engine, args.channels as string[], Number(args.perSecond), Number(args.maxMs));
      },
      diagnostics: () => diagnostics(),
      memory: () => memorySnapshot(),
      profileStart: () => startProfile(),
      profileStop: (args) => stopProfile(String(args.file)),
      stats: () => ({
        clock: server.engine.clockStats(),
        cpu: process.cpuUsage(),
        at: performance.now(),
        rss: process.memoryUsage.rss(),
        limiter: { present: limiter, checks: { ...checks }, refusals: { ...refusals } },
      }),
    },
    async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );
  ready({ port: server.port });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
