import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { brokerContract } from '../engine/broker.contract.js';
import { serviceGate, serviceUrl, uniqueName } from '../../test/helpers/services.js';
import { RedisBroker } from './redis-broker.js';
import { RedisConnections } from './redis-connections.js';

const gate = serviceGate('redis');
const connections = new RedisConnections(pino({ level: 'silent' }));

describe.skipIf(gate.skip)(`RedisBroker${gate.label}`, () => {
  /** Two brokers on one Redis, as two nodes hold them, under a prefix no other test uses. */
  const pair = async () => {
    const prefix = `${uniqueName('onair_test')}:`;
    const [publisher, subscriber] = await Promise.all([
      RedisBroker.connect({ url: serviceUrl('redis'), prefix, connections }),
      RedisBroker.connect({ url: serviceUrl('redis'), prefix, connections }),
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
      await expect(RedisBroker.connect({ url: 'redis://127.0.0.1:1', connections })).rejects.toThrow();
      const { publisher, subscriber } = await pair();
      open.push(publisher, subscriber);
      await publisher.close();
      await expect(publisher.publish('ch_a', new Uint8Array([1]))).rejects.toThrow(/closed/);
    });

    it("delivers to the publisher's own listeners inside publish(), before Redis answers, and only once", async () => {
      const { publisher, subscriber } = await pair();
      open.push(publisher, subscriber);
      const own: string[] = [];
      const remote: string[] = [];
      await publisher.subscribe('ch_a', (p) => void own.push(Buffer.from(p).toString())).ready;
      await subscriber.subscribe('ch_a', (p) => void remote.push(Buffer.from(p).toString())).ready;
      const sent = publisher.publish('ch_a', Buffer.from('frame 1'));
      expect(own).toEqual(['frame 1']);
      await sent;
      await expect.poll(() => remote).toEqual(['frame 1']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(own).toEqual(['frame 1']);
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
