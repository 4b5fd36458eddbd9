/**
 * One node of several loses Redis (docs/api.md, GET /healthz): /healthz answers 503 `redis_failed` while it cannot be
 * reached, as it answers `storage_failed` while Postgres cannot be, and 200 again once it is back; the node logs each
 * Redis connection's trouble once for the outage, and its recovery once, however often ioredis retried meanwhile.
 * The node reaches the shared Redis through a proxy the test cuts, so no other test loses it.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, serviceGate, serviceUrl, uniqueName, type TestSchema } from './helpers/services.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { api } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

interface Line {
  level: number;
  msg: string;
  connection?: string;
}

describe.skipIf(postgres.skip || redis.skip)(
  `/healthz on a node that loses Redis${postgres.label || redis.label}`,
  () => {
    let schema: TestSchema;
    let proxy: TcpProxy;
    let server: TestServer;
    const lines: Line[] = [];

    beforeAll(async () => {
      schema = await freshSchema();
      proxy = await startTcpProxy(serviceUrl('redis'));
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
          done();
        },
      });
      server = await startTestServer(
        { logger: pino({ level: 'info' }, stream) },
        {
          ONAIR_DATABASE_URL: schema.url,
          ONAIR_REDIS_URL: proxy.url,
          ONAIR_REDIS_PREFIX: `${uniqueName('onair_test')}:`,
          ONAIR_NODE_ID: 'node-h',
          ONAIR_SECRET_KEY: 'cluster-health-secret-key-0123456789abcdef',
        },
      );
    }, 60_000);

    afterAll(async () => {
      await server?.dispose();
      await proxy?.close();
      await schema?.drop();
    });

    const healthz = async () => {
      const res = await api(server.url, '')('GET', '/healthz', undefined, { noAuth: true });
      return { status: res.status, body: res.body as Record<string, unknown> };
    };

    it('answers 503 redis_failed while Redis cannot be reached, 200 once it is back, and logs the outage once', async () => {
      expect(await healthz()).toEqual({
        status: 200,
        body: expect.objectContaining({ ok: true, status: 'ready', storage: 'ok', redis: 'ok' }) as unknown,
      });

      await proxy.cut();
      await expect.poll(async () => (await healthz()).status, { timeout: 15_000, interval: 100 }).toBe(503);
      const down = await healthz();
      expect(down.body).toMatchObject({ code: 'unavailable', health: 'redis_failed', redis: 'failed', storage: 'ok' });
      expect(down.body.detail).toMatch(/Redis cannot be reached.*Redis is unreachable \(/);
      // ioredis retries meanwhile, failing each time.
      await new Promise((r) => setTimeout(r, 2_000));

      await proxy.restore();
      await expect.poll(async () => (await healthz()).status, { timeout: 15_000, interval: 100 }).toBe(200);
      expect((await healthz()).body).toMatchObject({ status: 'ready', redis: 'ok' });

      const about = new Map<string, [number, string][]>();
      for (const l of lines.filter((l) => l.connection !== undefined))
        about.set(l.connection!, [...(about.get(l.connection!) ?? []), [l.level, l.msg]]);
      const once: [number, string][] = [
        [40, 'redis connection failed; retrying until it is back'],
        [30, 'redis reconnected'],
      ];
      expect(Object.fromEntries(about)).toEqual({
        'broker publisher': once,
        'broker subscriber': once,
        'bus publisher': once,
        'bus subscriber': once,
        limits: once,
      });
    }, 60_000);
  },
);
