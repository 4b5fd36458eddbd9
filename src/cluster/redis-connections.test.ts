/**
 * Redis trouble is logged once per outage per connection, however often ioredis retries meanwhile, and recovery once
 * ("redis reconnected"); failure() reports the outage while it lasts. Against the real Redis, through a proxy that
 * the test cuts and restores.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../test/helpers/recording-logger.js';
import { serviceGate, serviceUrl } from '../../test/helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { RedisConnections } from './redis-connections.js';

const gate = serviceGate('redis');

describe.skipIf(gate.skip)(`RedisConnections${gate.label}`, () => {
  let proxy: TcpProxy | undefined;
  const clients: Redis[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await proxy?.close();
  });

  it('logs the first error of an outage once per connection, then "reconnected" once, whatever the retries', async () => {
    proxy = await startTcpProxy(serviceUrl('redis'));
    const { logger, lines } = recordingLogger<{ level: number; msg: string; connection?: string }>('debug');
    const connections = new RedisConnections(logger);
    // Retrying every 20 ms: a second of outage is about fifty failed attempts per connection.
    const open = (name: string) => {
      const redis = new Redis(proxy!.url, { lazyConnect: true, retryStrategy: () => 20 });
      clients.push(redis);
      return connections.watch(name, redis);
    };
    const [a, b] = [open('one'), open('two')];
    await Promise.all([a.connect(), b.connect()]);
    expect(connections.failure()).toBeNull();

    await proxy.cut();
    await expect.poll(() => connections.failure(), { timeout: 10_000 }).toMatch(/^Redis is unreachable \((one|two): /);
    // Both connections have seen the outage (a busy machine may be slow to tell the second), then it lasts a second.
    const failedOnce = () => ['one', 'two'].map((name) => lines.some((l) => l.connection === name && l.level === 40));
    await expect.poll(failedOnce, { timeout: 10_000 }).toEqual([true, true]);
    await new Promise((r) => setTimeout(r, 1_000));
    await proxy.restore();
    await expect.poll(() => [a.status, b.status], { timeout: 10_000 }).toEqual(['ready', 'ready']);
    expect(connections.failure()).toBeNull();
    await expect(a.ping()).resolves.toBe('PONG');

    const about = (name: string) => lines.filter((l) => l.connection === name).map((l) => [l.level, l.msg]);
    for (const name of ['one', 'two'])
      expect(about(name)).toEqual([
        [40, 'redis connection failed; retrying until it is back'],
        [30, 'redis reconnected'],
      ]);
  }, 30_000);
});
