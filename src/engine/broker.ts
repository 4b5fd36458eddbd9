/**
 * The engine's pub/sub: how what happens on a channel (a committed frame, a revoked output token, a deletion) reaches
 * every transport that serves the channel, on this node or, with several nodes, on any
 * (docs/architecture/several-nodes.md, "Fan-out"). Shaped after Centrifuge's broker: per channel, byte payloads
 * (encoded once by the publisher: channel-messages.ts), and a publish that can fail.
 *
 * Guarantees every implementation must keep (broker.contract.ts runs against each):
 * - Messages for one channel reach each of its subscribers in publish order.
 * - A subscriber gets only the channels it subscribed to.
 * - publish() never throws or rejects because of a subscriber; a failing subscriber does not stop the others.
 * - publish() rejects when the message cannot be sent on (a remote broker unreachable); it never throws.
 * - A subscriber gets no message delivered before it subscribed; once its `ready` settles (for a remote broker: the
 *   subscription is in place there) it gets every message published after.
 * Implementations: MemoryBroker (one node, below), RedisBroker (several nodes, src/cluster/redis-broker.ts).
 */

export type BrokerListener = (payload: Uint8Array) => void;

export interface BrokerSubscription {
  /** Stops delivery to this listener. Idempotent. */
  (): void;
  /** Settles once every message published from now on will be delivered (at once for MemoryBroker). */
  ready: Promise<void>;
}

export interface Broker {
  publish(channelId: string, payload: Uint8Array): Promise<void>;
  subscribe(channelId: string, listener: BrokerListener): BrokerSubscription;
  close(): Promise<void>;
}

/** One process: delivery is synchronous, inside publish(). */
export class MemoryBroker implements Broker {
  private readonly listeners = new Map<string, BrokerListener[]>();
  /** Messages published from inside a listener wait here, so every subscriber sees publish order. */
  private readonly queue: [string, Uint8Array][] = [];
  private delivering = false;
  private closed = false;

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  publish(channelId: string, payload: Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.queue.push([channelId, payload]);
    if (this.delivering) return Promise.resolve();
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.deliver(next[0], next[1]);
    } finally {
      this.delivering = false;
    }
    return Promise.resolve();
  }

  subscribe(channelId: string, listener: BrokerListener): BrokerSubscription {
    // A fresh wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const wrapped: BrokerListener = (p) => listener(p);
    this.listeners.set(channelId, [...(this.listeners.get(channelId) ?? []), wrapped]);
    const unsubscribe = () => {
      const left = (this.listeners.get(channelId) ?? []).filter((l) => l !== wrapped);
      if (left.length > 0) this.listeners.set(channelId, left);
      else this.listeners.delete(channelId);
    };
    return Object.assign(unsubscribe, { ready: Promise.resolve() });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
  }

  private deliver(channelId: string, payload: Uint8Array): void {
    // The array is replaced, never mutated: a subscriber added during delivery waits for the next message.
    for (const listener of this.listeners.get(channelId) ?? []) {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
