/**
 * The real onair server (startServer, as `npm start` runs it) for bench/webhooks.ts, in its own process:
 * SQLite with `ONAIR_DB_SYNC=full` (the production default), the rate limiter untouched, webhooks allowed to
 * reach 127.0.0.1 (`ONAIR_WEBHOOK_ALLOW_PRIVATE`, otherwise refused) and trusting the receiver's self-signed
 * certificate (`webhookCa`). Everything else about delivery is production's: timeout, retries, concurrency.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { childConfig, ready, serveParent } from '../lib/child.js';
import { startProfile, stopProfile } from './profiler.js';
import { BENCH_KEY } from './seed.js';

interface Config {
  /** Seeded by the orchestrator; removed when the server exits. */
  dataDir: string;
  /** PEM of the certificate deliveries trust. */
  ca: string;
  dbSync?: 'full' | 'normal';
}

async function main(): Promise<void> {
  const cfg = childConfig<Config>();
  const config = loadConfig({
    ONAIR_HOST: '127.0.0.1',
    ONAIR_PORT: '0',
    ONAIR_DATA_DIR: cfg.dataDir,
    ONAIR_BOOTSTRAP_KEY: BENCH_KEY,
    // warn would print ALLOW_PRIVATE's start-up warning into every bench run.
    ONAIR_LOG_LEVEL: 'error',
    ONAIR_DB_SYNC: cfg.dbSync ?? 'full',
    ONAIR_WEBHOOK_ALLOW_PRIVATE: '1',
  });
  const server = await startServer(config, { webhookCa: cfg.ca });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  serveParent(
    {
      stats: () => ({ cpu: process.cpuUsage(), at: performance.now() }),
      /** The event loop's delay since the last call, in ms: how long work waited for the loop. */
      loopDelay: () => {
        const ms = (ns: number) => ns / 1e6;
        const out = { p99: ms(delay.percentile(99)), max: ms(delay.max) };
        delay.reset();
        return out;
      },
      profileStart: () => startProfile(),
      profileStop: (args) => stopProfile(String(args.file)),
    },
    async () => {
      await server.stop();
      fs.rmSync(cfg.dataDir, { recursive: true, force: true });
    },
  );
  ready({ port: server.port });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
