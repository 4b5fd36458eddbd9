import { describe, expect, it } from 'vitest';
import { brokerContract } from './broker.contract.js';
import { MemoryBroker } from './broker.js';

brokerContract('MemoryBroker', () => {
  const broker = new MemoryBroker();
  return { publisher: broker, subscriber: broker };
});

describe('MemoryBroker beyond the contract', () => {
  const payload = new Uint8Array([1, 2, 3]);

  it('reports a throwing listener to onListenerError', async () => {
    const errors: unknown[] = [];
    const broker = new MemoryBroker((err) => errors.push(err));
    const boom = new Error('boom');
    broker.subscribe('ch_a', () => {
      throw boom;
    });
    await broker.publish('ch_a', payload);
    expect(errors).toEqual([boom]);
  });

  it('delivers inside publish(), before it returns', () => {
    const broker = new MemoryBroker();
    const got: number[] = [];
    broker.subscribe('ch_a', (p) => got.push(p.byteLength));
    void broker.publish('ch_a', payload);
    expect(got).toEqual([3]);
  });
});
