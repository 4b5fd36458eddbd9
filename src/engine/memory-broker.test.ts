import { describe, expect, it } from 'vitest';
import { brokerContract } from './broker.contract.js';
import { MemoryBroker, type BrokerMessage } from './broker.js';

brokerContract('MemoryBroker', () => new MemoryBroker());

describe('MemoryBroker beyond the contract', () => {
  const revoke: BrokerMessage = { kind: 'revoke', reason: 'token_rotated' };

  it('reports a throwing listener to onListenerError', () => {
    const errors: unknown[] = [];
    const broker = new MemoryBroker((err) => errors.push(err));
    const boom = new Error('boom');
    broker.subscribe(() => {
      throw boom;
    });
    broker.publish('ch_a', revoke);
    expect(errors).toEqual([boom]);
  });

  it('the same function subscribed twice is two subscriptions', () => {
    const broker = new MemoryBroker();
    const got: string[] = [];
    const listener = (channelId: string) => got.push(channelId);
    const off = broker.subscribe(listener);
    broker.subscribe(listener);
    broker.publish('ch_a', revoke);
    off();
    broker.publish('ch_b', revoke);
    expect(got).toEqual(['ch_a', 'ch_a', 'ch_b']);
  });

  it('close() ends delivery', async () => {
    const broker = new MemoryBroker();
    const got: string[] = [];
    broker.subscribe((channelId) => got.push(channelId));
    await broker.close();
    broker.publish('ch_a', revoke);
    expect(got).toEqual([]);
  });
});
