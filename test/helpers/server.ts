/**
 * A real onair server for integration tests: port 0 on 127.0.0.1, SQLite in a fresh temp dir, the
 * bootstrap key as the `*` API key. `restart()` stops it and starts it again on the same data dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startServer, type ServerHandle, type StartOptions } from '../../src/main.js';

export const TEST_KEY = 'onair_sk_TestKey0123456789abcdefghijklmnopq';

export interface TestServer {
  url: string;
  port: number;
  key: string;
  dir: string;
  handle: ServerHandle;
  /** Graceful stop (drain); safe to call twice. */
  stop(): Promise<void>;
  /** stop() then start again on the same data dir (the port changes). */
  restart(): Promise<void>;
  /** stop() and delete the data dir: for afterEach. */
  dispose(): Promise<void>;
}

export function makeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'onair-test-'));
}

export function serverEnv(dir: string): Record<string, string> {
  return {
    ONAIR_HOST: '127.0.0.1',
    ONAIR_PORT: '0',
    ONAIR_DATA_DIR: dir,
    ONAIR_BOOTSTRAP_KEY: TEST_KEY,
    ONAIR_LOG_LEVEL: 'silent',
    ONAIR_DB_SYNC: 'normal',
  };
}

export async function startTestServer(
  options: StartOptions = {},
  env: Record<string, string> = {},
): Promise<TestServer> {
  const dir = makeDataDir();
  const start = () => startServer(loadConfig({ ...serverEnv(dir), ...env }), options);
  let stopped = false;
  const server: TestServer = {
    url: '',
    port: 0,
    key: TEST_KEY,
    dir,
    handle: await start(),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.handle.stop();
    },
    async restart() {
      await server.stop();
      server.handle = await start();
      stopped = false;
      sync();
    },
    async dispose() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  const sync = () => {
    server.port = server.handle.port;
    server.url = server.handle.baseUrl;
  };
  sync();
  return server;
}
