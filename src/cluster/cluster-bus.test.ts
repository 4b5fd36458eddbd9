import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, toProblem } from '../errors.js';
import { serviceGate, serviceUrl, uniqueName } from '../../test/helpers/services.js';
import { ClusterBus } from './cluster-bus.js';
import { RedisConnections } from './redis-connections.js';

const gate = serviceGate('redis');
const connections = new RedisConnections(pino({ level: 'silent' }));

describe.skipIf(gate.skip)(`ClusterBus${gate.label}`, () => {
  const buses: ClusterBus[] = [];
  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
  });

  async function nodes(...ids: string[]): Promise<ClusterBus[]> {
    const prefix = `${uniqueName('onair_test')}:`;
    const made = await Promise.all(
      ids.map((nodeId) => ClusterBus.connect({ url: serviceUrl('redis'), nodeId, prefix, connections })),
    );
    buses.push(...made);
    return made;
  }

  it("answers a call with the other node's result, and carries its AppError back whole", async () => {
    const [a, b] = await nodes('a', 'b');
    b!.onRequest(async (body, from) => {
      const n = (body as { n: number }).n;
      if (n < 0)
        throw new AppError('invalid_request', 'n must be positive', { errors: [{ path: 'n', message: 'negative' }] });
      if (n === 0) throw new AppError('rate_limited', 'slow down', { retryAfter: 3, extra: { limit: 30 } });
      return { doubled: n * 2, from };
    });
    expect(await a!.call('b', { n: 21 }, 2000)).toEqual({ doubled: 42, from: 'a' });
    await expect(a!.call('b', { n: -1 }, 2000)).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'n must be positive',
      errors: [{ path: 'n', message: 'negative' }],
    });
    await expect(a!.call('b', { n: 0 }, 2000)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfter: 3,
      extra: { limit: 30 },
    });
  });

  it("carries an AppError's reason back, for the caller to test; problem bodies never show it", async () => {
    const [a, b] = await nodes('a', 'b');
    b!.onRequest(() => Promise.reject(new AppError('unavailable', 'not mine', { retryAfter: 1, reason: 'not_owner' })));
    const refusal = await a!.call('b', {}, 2000).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(AppError);
    expect(AppError.hasReason(refusal, 'not_owner')).toBe(true);
    expect(toProblem(refusal)).not.toHaveProperty('reason');
  });

  it('refuses with unavailable when nobody answers in time, and hides other errors as internal', async () => {
    const [a, b] = await nodes('a', 'b');
    await expect(a!.call('nobody', {}, 200)).rejects.toMatchObject({ code: 'unavailable' });
    b!.onRequest(() => Promise.reject(new TypeError('a bug')));
    await expect(a!.call('b', {}, 2000)).rejects.toMatchObject({ code: 'internal' });
  });

  it('broadcasts control messages to every other node, not back to the sender', async () => {
    const [a, b, c] = await nodes('a', 'b', 'c');
    const got: [string, unknown, string][] = [];
    for (const [name, bus] of [
      ['a', a!],
      ['b', b!],
      ['c', c!],
    ] as const)
      bus.onControl((body, from) => got.push([name, body, from]));
    await a!.broadcast({ kind: 'key-revoked', keyId: 'key_1' });
    await expect.poll(() => got.length).toBe(2);
    expect(got.sort()).toEqual([
      ['b', { kind: 'key-revoked', keyId: 'key_1' }, 'a'],
      ['c', { kind: 'key-revoked', keyId: 'key_1' }, 'a'],
    ]);
  });
});
