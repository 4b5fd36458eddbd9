/**
 * /healthz: 200 with version, uptime and storage state when ready; 503 unavailable (problem+json,
 * Retry-After) while starting, draining or after storage failed, still carrying the same fields. A real
 * storage failure is made as in storage-failure.test.ts: the descriptor the WAL is flushed through is
 * closed underneath the store, so its next fdatasync fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiDeps, ApiEnv, Health } from '../src/api/env.js';
import { handleError } from '../src/api/problem.js';
import { healthRoutes } from '../src/api/system/health-routes.js';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { api, createChannelWithScoreboard, expectStatus, type Api } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { breakFlusher } from './helpers/flusher-fd.js';

const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

let handle: ServerHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await handle?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  handle = undefined;
  dir = undefined;
});

async function start(): Promise<Api> {
  dir = makeDataDir();
  handle = await startServer(loadConfig({ ...serverEnv(dir), ONAIR_DB_SYNC: 'full' }));
  return api(handle.baseUrl, TEST_KEY);
}

describe('GET /healthz on a running server', () => {
  it('answers 200 with version, uptime and storage state, without a key', async () => {
    const call = await start();
    const res = await call('GET', '/healthz', undefined, { noAuth: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      status: 'ready',
      version: VERSION,
      uptimeSeconds: expect.any(Number) as number,
      storage: 'ok',
    });
    expect(Number.isInteger((res.body as { uptimeSeconds: number }).uptimeSeconds)).toBe(true);
  });

  it('answers 503 storage failed once a flush to disk failed, and the metrics say so', async () => {
    const call = await start();
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    // The flush fails for real: /dev/null takes the place of the descriptor the store flushes the WAL through.
    breakFlusher(path.join(dir!, 'onair.db-wal'));
    expectProblem(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 2 }), 503, 'unavailable');

    const res = await call('GET', '/healthz', undefined, { noAuth: true });
    const problem = expectProblem(res, 503, 'unavailable');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(problem).toMatchObject({ health: 'storage_failed', version: VERSION, storage: 'failed' });
    expect(problem.uptimeSeconds).toEqual(expect.any(Number));
    const metrics = await call<string>('GET', '/metrics', undefined, { noAuth: true });
    expect(metrics.body).toMatch(/^onair_storage_failed 1$/m);
  });
});

describe('GET /healthz while not ready', () => {
  /** The health routes alone, with the app's error handler, in a given state. */
  function appIn(health: Health, failure: string | null = null) {
    const deps = {
      health: () => health,
      store: { failure: () => failure },
      info: { version: '9.9.9', startedAt: performance.now() - 2500 },
    } as unknown as ApiDeps;
    const app = new Hono<ApiEnv>();
    app.onError(handleError);
    app.route('/', healthRoutes(deps));
    return app;
  }

  it.each(['starting', 'draining'] as const)(
    'answers 503 unavailable while %s, with the same fields',
    async (state) => {
      const res = await appIn(state).request('/healthz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({
        status: 503,
        code: 'unavailable',
        health: state,
        version: '9.9.9',
        uptimeSeconds: 2,
        storage: 'ok',
      });
    },
  );

  it('reports a failed store while draining as failed', async () => {
    const res = await appIn('draining', 'fdatasync failed').request('/healthz');
    expect(await res.json()).toMatchObject({ health: 'draining', storage: 'failed' });
  });
});
