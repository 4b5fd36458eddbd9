/**
 * The Broker (engine/broker.ts) over Redis pub/sub, for several nodes (docs/architecture/several-nodes.md,
 * "Fan-out"): a frame published by a channel's owner reaches the renderers of that channel on every node.
 *
 * One connection publishes and one subscribes, per node. A channel's Redis channel (`<prefix>ch:<channelId>`) is
 * subscribed when its first local listener arrives and unsubscribed when the last leaves, so a node hears only the
 * channels it serves. Messages of one channel come from one publisher over one connection, so Redis keeps their
 * order. Payloads are bytes, passed on as they are.
 *
 * publish() rejects at once while Redis is unreachable (no offline queue: a frame that waits is a frame late on air;
 * the frame is durable already, and a renderer that misses it sees the next one's `prev` skip and resyncs).
 */
import { Redis } from 'ioredis';
import type { Broker, BrokerListener, BrokerSubscription } from '../engine/broker.js';

export interface RedisBrokerOptions {
  url: string;
  /** Prefix of every Redis channel name, so that several onair deployments (or tests) can share one Redis. */
  prefix?: string;
  onListenerError?: (err: unknown) => void;
}

export class RedisBroker implements Broker {
  private readonly listeners = new Map<string, BrokerListener[]>();
  /** Redis channels subscribed, or being subscribed: the subscription's promise. */
  private readonly subscribed = new Map<string, Promise<void>>();
  private readonly prefix: string;
  private closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly options: RedisBrokerOptions,
  ) {
    this.prefix = `${options.prefix ?? 'onair:'}ch:`;
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => this.deliver(channel.toString(), message));
  }

  /** Connects both connections; rejects when Redis cannot be reached. */
  static async connect(options: RedisBrokerOptions): Promise<RedisBroker> {
    const pub = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const sub = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
    // Reported through publish() rejecting and the subscriber reconnecting by itself, not as unhandled events.
    pub.on('error', () => {});
    sub.on('error', () => {});
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (err) {
      pub.disconnect();
      sub.disconnect();
      throw err;
    }
    return new RedisBroker(pub, sub, options);
  }

  async publish(channelId: string, payload: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('broker closed');
    await this.pub.publish(
      this.prefix + channelId,
      Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
    );
  }

  subscribe(channelId: string, listener: BrokerListener): BrokerSubscription {
    const topic = this.prefix + channelId;
    const wrapped: BrokerListener = (p) => listener(p);
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), wrapped]);
    let ready = this.subscribed.get(topic);
    if (!ready) {
      ready = this.sub.subscribe(topic).then(() => undefined);
      this.subscribed.set(topic, ready);
    }
    let active = true;
    const unsubscribe = () => {
      if (!active) return;
      active = false;
      const left = (this.listeners.get(topic) ?? []).filter((l) => l !== wrapped);
      if (left.length > 0) return void this.listeners.set(topic, left);
      this.listeners.delete(topic);
      this.subscribed.delete(topic);
      if (!this.closed) this.sub.unsubscribe(topic).catch(() => {});
    };
    // A failed subscription is the caller's to see through `ready`; nothing else rejects unobserved.
    ready.catch(() => {});
    return Object.assign(unsubscribe, { ready });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.subscribed.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private deliver(topic: string, payload: Buffer): void {
    // The array is replaced, never mutated: a listener added during delivery waits for the next message.
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        listener(payload);
      } catch (err) {
        this.options.onListenerError?.(err);
      }
    }
  }
}
