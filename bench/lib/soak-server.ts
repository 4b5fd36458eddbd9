/**
 * The real onair server for bench/soak.ts, in its own process: startServer as `npm start` runs it, with
 * SQLite at `ONAIR_DB_SYNC=full` and the rate limiter untouched, plus the two things a soak on loopback needs at
 * once (no other bench server has both): the WebSocket limits per address and per channel switched off (every
 * renderer comes from 127.0.0.1), and webhooks allowed to reach 127.0.0.1 (`ONAIR_WEBHOOK_ALLOW_PRIVATE`) while
 * trusting the receiver's self-signed certificate (`webhookCa`). Everything the soak samples comes from the
 * server's own /metrics; IPC only adds the heap and RSS after a full GC (started with --expose-gc).
 */
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { BENCH_KEY } from '../servers/seed.js';
import { childConfig, memorySnapshot, ready, serveParent } from './child.js';

interface Config {
  /** Seeded by the orchestrator; removed when the server exits. */
  dataDir: string;
  /** PEM of the certificate webhook deliveries trust. */
  ca: string;
}

async function main(): Promise<void> {
  const cfg = childConfig<Config>();
  const config = loadConfig({
    ONAIR_HOST: '127.0.0.1',
    ONAIR_PORT: '0',
    ONAIR_DATA_DIR: cfg.dataDir,
    ONAIR_BOOTSTRAP_KEY: BENCH_KEY,
    // warn would print ALLOW_PRIVATE's start-up warning into the run's output.
    ONAIR_LOG_LEVEL: 'error',
    ONAIR_DB_SYNC: 'full',
    ONAIR_WEBHOOK_ALLOW_PRIVATE: '1',
    ONAIR_WS_MAX_PER_CHANNEL: '0',
    ONAIR_WS_MAX_PER_ADDRESS: '0',
    ONAIR_WS_UPGRADES_PER_ADDRESS: '0',
  });
  const server = await startServer(config, { webhookCa: cfg.ca });
  serveParent({ memory: () => memorySnapshot() }, async () => {
    await server.stop();
    fs.rmSync(cfg.dataDir, { recursive: true, force: true });
  });
  ready({ port: server.port });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
