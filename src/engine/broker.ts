/**
 * The engine's pub/sub: how a committed frame reaches every transport that serves the channel.
 *
 * Guarantees every implementation must keep (a contract test runs against each):
 * - Messages for one channel reach each subscriber in publish order.
 * - publish() never throws because of a subscriber; a failing subscriber does not stop the others.
 * - A message published before subscribe() returns is not delivered to that subscriber.
 * Today there is one implementation (in memory, one node); several nodes will need one over Redis.
 */
import type { FrameMessage } from '../protocol/index.js';

export type BrokerMessage =
  | { kind: 'frame'; message: FrameMessage }
  /** Renderers of the channel must be disconnected: the token was rotated or the channel deleted. */
  | { kind: 'revoke'; reason: 'token_rotated' | 'channel_deleted' };

export type BrokerListener = (channelId: string, message: BrokerMessage) => void;

export interface Broker {
  publish(channelId: string, message: BrokerMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: BrokerListener): () => void;
  close(): Promise<void>;
}

export class MemoryBroker implements Broker {
  private listeners = new Set<BrokerListener>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  publish(channelId: string, message: BrokerMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(channelId, message);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  subscribe(listener: BrokerListener): () => void {
    // A fresh wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const wrapped: BrokerListener = (c, m) => listener(c, m);
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
