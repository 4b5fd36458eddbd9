/**
 * The guarantees of Broker (see broker.ts), as one suite every implementation runs. The factory returns two brokers
 * on one backing, as two nodes would hold (for MemoryBroker, the same one twice): messages are published on
 * `publisher` and received on `subscriber`, so a remote broker is tested across its hop.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Broker } from './broker.js';

export interface BrokerPair {
  publisher: Broker;
  subscriber: Broker;
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (payload: Uint8Array) => Buffer.from(payload).toString('utf8');

/** A listener that records the text of what it gets. */
function recorder() {
  const into: string[] = [];
  return { into, listener: (payload: Uint8Array) => void into.push(text(payload)) };
}

export function brokerContract(name: string, factory: () => Promise<BrokerPair> | BrokerPair): void {
  describe(`Broker contract: ${name}`, () => {
    let pair: BrokerPair | undefined;
    const open = async () => (pair = await factory());

    afterEach(async () => {
      if (!pair) return;
      await pair.subscriber.close();
      if (pair.publisher !== pair.subscriber) await pair.publisher.close();
      pair = undefined;
    });

    it("delivers each channel's messages to each of its subscribers, in publish order, and no other channel's", async () => {
      const { publisher, subscriber } = await open();
      const a1 = recorder();
      const a2 = recorder();
      const b = recorder();
      const subs = [
        subscriber.subscribe('ch_a', a1.listener),
        subscriber.subscribe('ch_a', a2.listener),
        subscriber.subscribe('ch_b', b.listener),
      ];
      await Promise.all(subs.map((s) => s.ready));
      const sent = { ch_a: [] as string[], ch_b: [] as string[] };
      await Promise.all(
        Array.from({ length: 300 }, (_, i) => {
          const channel = i % 3 === 0 ? 'ch_b' : 'ch_a';
          sent[channel].push(`${channel}:${i}`);
          return publisher.publish(channel, bytes(`${channel}:${i}`));
        }),
      );
      await vi.waitFor(() => expect(a1.into.length + a2.into.length + b.into.length).toBe(500), { timeout: 10_000 });
      expect(a1.into).toEqual(sent.ch_a);
      expect(a2.into).toEqual(sent.ch_a);
      expect(b.into).toEqual(sent.ch_b);
    });

    it('delivers the bytes as they were published: binary, empty and large payloads', async () => {
      const { publisher, subscriber } = await open();
      const got: Uint8Array[] = [];
      await subscriber.subscribe('ch_a', (p) => void got.push(Uint8Array.from(p))).ready;
      const binary = Uint8Array.from([0, 255, 10, 13, 0, 0x46, 0x52, 128]);
      const large = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) % 256);
      for (const p of [binary, new Uint8Array(0), large]) await publisher.publish('ch_a', p);
      await vi.waitFor(() => expect(got).toHaveLength(3), { timeout: 10_000 });
      expect(Buffer.from(got[0]!).equals(Buffer.from(binary))).toBe(true);
      expect(got[1]!.byteLength).toBe(0);
      expect(Buffer.from(got[2]!).equals(Buffer.from(large))).toBe(true);
    });

    it('a publisher also reaches its own subscribers', async () => {
      const { publisher } = await open();
      const own = recorder();
      await publisher.subscribe('ch_a', own.listener).ready;
      await publisher.publish('ch_a', bytes('mine'));
      await vi.waitFor(() => expect(own.into).toEqual(['mine']), { timeout: 10_000 });
    });

    it('keeps publish order when a listener publishes while a message is being delivered', async () => {
      const { publisher, subscriber } = await open();
      const first = subscriber.subscribe('ch_a', (p) => {
        if (text(p) === '1') void publisher.publish('ch_a', bytes('2'));
      });
      const later = recorder();
      const second = subscriber.subscribe('ch_a', later.listener);
      await Promise.all([first.ready, second.ready]);
      await publisher.publish('ch_a', bytes('1'));
      await vi.waitFor(() => expect(later.into).toEqual(['1', '2']), { timeout: 10_000 });
    });

    it('a throwing listener stops neither the others nor the publisher', async () => {
      const { publisher, subscriber } = await open();
      const before = recorder();
      const after = recorder();
      const subs = [
        subscriber.subscribe('ch_a', before.listener),
        subscriber.subscribe('ch_a', () => {
          throw new Error('a broken socket');
        }),
        subscriber.subscribe('ch_a', after.listener),
      ];
      await Promise.all(subs.map((s) => s.ready));
      await expect(publisher.publish('ch_a', bytes('1'))).resolves.toBeUndefined();
      await publisher.publish('ch_a', bytes('2'));
      await vi.waitFor(() => expect(after.into).toEqual(['1', '2']), { timeout: 10_000 });
      expect(before.into).toEqual(['1', '2']);
    });

    it('unsubscribe stops delivery to that subscriber only, and is idempotent', async () => {
      const { publisher, subscriber } = await open();
      const gone = recorder();
      const stays = recorder();
      const unsubscribe = subscriber.subscribe('ch_a', gone.listener);
      const kept = subscriber.subscribe('ch_a', stays.listener);
      await Promise.all([unsubscribe.ready, kept.ready]);
      await publisher.publish('ch_a', bytes('1'));
      await vi.waitFor(() => expect(gone.into).toEqual(['1']), { timeout: 10_000 });
      unsubscribe();
      unsubscribe();
      await publisher.publish('ch_a', bytes('2'));
      await vi.waitFor(() => expect(stays.into).toEqual(['1', '2']), { timeout: 10_000 });
      expect(gone.into).toEqual(['1']);
    });

    it('a message published before subscribe() is not delivered to that subscriber; after ready, every one is', async () => {
      const { publisher, subscriber } = await open();
      const early = recorder();
      await subscriber.subscribe('ch_a', early.listener).ready;
      await publisher.publish('ch_a', bytes('1'));
      await vi.waitFor(() => expect(early.into).toEqual(['1']), { timeout: 10_000 });
      const late = recorder();
      await subscriber.subscribe('ch_a', late.listener).ready;
      await publisher.publish('ch_a', bytes('2'));
      await vi.waitFor(() => expect(early.into).toEqual(['1', '2']), { timeout: 10_000 });
      await vi.waitFor(() => expect(late.into).toEqual(['2']), { timeout: 10_000 });
    });

    it('the same function subscribed twice is two subscriptions', async () => {
      const { publisher, subscriber } = await open();
      const got: string[] = [];
      const listener = (p: Uint8Array) => void got.push(text(p));
      const off = subscriber.subscribe('ch_a', listener);
      const on = subscriber.subscribe('ch_a', listener);
      await Promise.all([off.ready, on.ready]);
      await publisher.publish('ch_a', bytes('1'));
      await vi.waitFor(() => expect(got).toEqual(['1', '1']), { timeout: 10_000 });
      off();
      await publisher.publish('ch_a', bytes('2'));
      await vi.waitFor(() => expect(got).toEqual(['1', '1', '2']), { timeout: 10_000 });
    });

    it('publish never throws: after close it settles without delivering', async () => {
      const { publisher, subscriber } = await open();
      const got = recorder();
      await subscriber.subscribe('ch_a', got.listener).ready;
      await subscriber.close();
      if (publisher !== subscriber) await publisher.close();
      let settled = false;
      expect(() => {
        void publisher.publish('ch_a', bytes('late')).then(
          () => (settled = true),
          () => (settled = true),
        );
      }).not.toThrow();
      await vi.waitFor(() => expect(settled).toBe(true), { timeout: 10_000 });
      expect(got.into).toEqual([]);
      pair = undefined;
    });
  });
}
