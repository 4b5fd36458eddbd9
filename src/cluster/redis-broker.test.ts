import { afterEach, describe, expect, it } from 'vitest';
import { brokerContract } from '../engine/broker.contract.js';
import { serviceGate, serviceUrl, uniqueName } from '../testing/services.js';
import { RedisBroker } from './redis-broker.js';

const gate = serviceGate('redis');

describe.skipIf(gate.skip)(`RedisBroker${gate.label}`, () => {
  /** Two brokers on one Redis, as two nodes hold them, under a prefix no other test uses. */
  const pair = async () => {
    const prefix = `${uniqueName('onair_test')}:`;
    const [publisher, subscriber] = await Promise.all([
      RedisBroker.connect({ url: serviceUrl('redis'), prefix }),
      RedisBroker.connect({ url: serviceUrl('redis'), prefix }),
    ]);
    return { publisher, subscriber };
  };
  brokerContract('RedisBroker', pair);

  describe('beyond the contract', () => {
    const open: RedisBroker[] = [];
    afterEach(async () => {
      for (const b of open.splice(0)) await b.close();
    });

    it('rejects publish at once while Redis cannot be reached, and connect() too', async () => {
      // A port nothing listens on: 1 is privileged and unused here.
      await expect(RedisBroker.connect({ url: 'redis://127.0.0.1:1' })).rejects.toThrow();
      const { publisher, subscriber } = await pair();
      open.push(publisher, subscriber);
      await publisher.close();
      await expect(publisher.publish('ch_a', new Uint8Array([1]))).rejects.toThrow(/closed/);
    });

    it('keeps channels of two deployments apart by prefix', async () => {
      const a = await pair();
      const b = await pair();
      open.push(a.publisher, a.subscriber, b.publisher, b.subscriber);
      const got: string[] = [];
      await b.subscriber.subscribe('ch_a', (p) => void got.push(Buffer.from(p).toString())).ready;
      await a.publisher.publish('ch_a', Buffer.from('deployment a'));
      await b.publisher.publish('ch_a', Buffer.from('deployment b'));
      await expect.poll(() => got).toEqual(['deployment b']);
    });
  });
});
