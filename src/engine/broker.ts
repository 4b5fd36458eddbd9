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
  /**
   * `message` is for connections that get every scene (`scenes=all`); `buses` for those that get only the scenes on
   * program and preview (engine/scene-scope.ts): often the very same object.
   */
  | { kind: 'frame'; message: FrameMessage; buses: FrameMessage }
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
  private listeners: BrokerListener[] = [];
  /** Messages published from inside a listener wait here, so every subscriber sees publish order. */
  private readonly queue: [string, BrokerMessage][] = [];
  private delivering = false;

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  publish(channelId: string, message: BrokerMessage): void {
    this.queue.push([channelId, message]);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.deliver(next[0], next[1]);
    } finally {
      this.delivering = false;
    }
  }

  subscribe(listener: BrokerListener): () => void {
    // A fresh wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const wrapped: BrokerListener = (c, m) => listener(c, m);
    this.listeners = [...this.listeners, wrapped];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== wrapped);
    };
  }

  async close(): Promise<void> {
    this.listeners = [];
  }

  private deliver(channelId: string, message: BrokerMessage): void {
    // The array is replaced, never mutated: a subscriber added during delivery waits for the next message.
    for (const listener of this.listeners) {
      try {
        listener(channelId, message);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
