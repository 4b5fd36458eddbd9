/**
 * The guarantees of Broker (see broker.ts), as one suite every implementation runs:
 * `brokerContract('MemoryBroker', () => new MemoryBroker())`.
 * Delivery may be asynchronous (a Redis broker), so the suite waits for a later sentinel message
 * before asserting that something was *not* delivered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Broker, BrokerMessage } from './broker.js';

type Received = [channelId: string, frame: number][];

function frame(channelId: string, n: number): BrokerMessage {
  const message = { type: 'frame' as const, channelId, frame: n, prev: n - 1, serverTime: 0 };
  return { kind: 'frame', message, buses: message };
}

/** Listener that records (channel, frame number) pairs. */
function recorder(into: Received = []) {
  const listener = (channelId: string, m: BrokerMessage) => {
    into.push([channelId, m.kind === 'frame' ? m.message.frame : -1]);
  };
  return { into, listener };
}

const framesOf = (received: Received, channelId: string) => received.filter(([c]) => c === channelId).map(([, n]) => n);

export function brokerContract(name: string, factory: () => Broker | Promise<Broker>): void {
  describe(`Broker contract: ${name}`, () => {
    let broker: Broker | undefined;
    const open = async () => (broker = await factory());

    afterEach(async () => {
      await broker?.close();
      broker = undefined;
    });

    it('delivers each channel to each subscriber in publish order', async () => {
      const b = await open();
      const one = recorder();
      const two = recorder();
      b.subscribe(one.listener);
      b.subscribe(two.listener);
      for (let i = 1; i <= 200; i++) b.publish(i % 3 === 0 ? 'ch_b' : 'ch_a', frame(i % 3 === 0 ? 'ch_b' : 'ch_a', i));
      const expectA = Array.from({ length: 200 }, (_, k) => k + 1).filter((i) => i % 3 !== 0);
      const expectB = Array.from({ length: 200 }, (_, k) => k + 1).filter((i) => i % 3 === 0);
      for (const r of [one, two]) {
        await vi.waitFor(() => expect(r.into).toHaveLength(200));
        expect(framesOf(r.into, 'ch_a')).toEqual(expectA);
        expect(framesOf(r.into, 'ch_b')).toEqual(expectB);
      }
    });

    it('keeps publish order when a listener publishes while a message is being delivered', async () => {
      const b = await open();
      b.subscribe((channelId, m) => {
        if (m.kind === 'frame' && m.message.frame === 1) b.publish(channelId, frame(channelId, 2));
      });
      const later = recorder();
      b.subscribe(later.listener);
      b.publish('ch_a', frame('ch_a', 1));
      await vi.waitFor(() => expect(later.into).toHaveLength(2));
      expect(framesOf(later.into, 'ch_a')).toEqual([1, 2]);
    });

    it('a throwing listener stops neither the others nor the publisher', async () => {
      const b = await open();
      const before = recorder();
      const after = recorder();
      b.subscribe(before.listener);
      b.subscribe(() => {
        throw new Error('a broken socket');
      });
      b.subscribe(after.listener);
      expect(() => b.publish('ch_a', frame('ch_a', 1))).not.toThrow();
      b.publish('ch_a', frame('ch_a', 2));
      await vi.waitFor(() => expect(after.into).toHaveLength(2));
      expect(framesOf(before.into, 'ch_a')).toEqual([1, 2]);
      expect(framesOf(after.into, 'ch_a')).toEqual([1, 2]);
    });

    it('unsubscribe stops delivery to that subscriber only, and is idempotent', async () => {
      const b = await open();
      const gone = recorder();
      const stays = recorder();
      const unsubscribe = b.subscribe(gone.listener);
      b.subscribe(stays.listener);
      b.publish('ch_a', frame('ch_a', 1));
      await vi.waitFor(() => expect(gone.into).toHaveLength(1));
      unsubscribe();
      unsubscribe();
      b.publish('ch_a', frame('ch_a', 2));
      await vi.waitFor(() => expect(stays.into).toHaveLength(2));
      expect(framesOf(gone.into, 'ch_a')).toEqual([1]);
    });

    it('a message published before subscribe() is not delivered to that subscriber', async () => {
      const b = await open();
      const early = recorder();
      b.subscribe(early.listener);
      b.publish('ch_a', frame('ch_a', 1));
      const late = recorder();
      b.subscribe(late.listener);
      b.publish('ch_a', frame('ch_a', 2));
      await vi.waitFor(() => expect(early.into).toHaveLength(2));
      await vi.waitFor(() => expect(late.into).toHaveLength(1));
      expect(framesOf(late.into, 'ch_a')).toEqual([2]);
    });

    it('a subscriber added while a message is being delivered does not receive that message', async () => {
      const b = await open();
      const late = recorder();
      let added = false;
      b.subscribe(() => {
        if (added) return;
        added = true;
        b.subscribe(late.listener);
      });
      b.publish('ch_a', frame('ch_a', 1));
      b.publish('ch_a', frame('ch_a', 2));
      await vi.waitFor(() => expect(framesOf(late.into, 'ch_a')).toContain(2));
      expect(framesOf(late.into, 'ch_a')).toEqual([2]);
    });

    it('delivers revoke messages like frames', async () => {
      const b = await open();
      const got: [string, BrokerMessage][] = [];
      b.subscribe((c, m) => got.push([c, m]));
      b.publish('ch_a', { kind: 'revoke', reason: 'channel_deleted' });
      await vi.waitFor(() => expect(got).toEqual([['ch_a', { kind: 'revoke', reason: 'channel_deleted' }]]));
    });
  });
}
