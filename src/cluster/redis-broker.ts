/**
 * The Broker (engine/broker.ts) over Redis pub/sub, for several nodes (docs/architecture/several-nodes.md,
 * "Fan-out"): a frame published by a channel's owner reaches the renderers of that channel on every node.
 *
 * One connection publishes and one subscribes, per node. A channel's Redis channel (`<prefix>ch:<channelId>`) is
 * subscribed when its first local listener arrives and unsubscribed when the last leaves, so a node hears only the
 * channels it serves. Messages of one channel come from one publisher over one connection, so Redis keeps their
 * order. Payloads are bytes, passed on as they are.
 *
 * The publishing node's own listeners get a message at once, inside publish(), as with MemoryBroker: the owner's
 * renderers do not wait for the Redis round trip, and what they are sent is never behind the engine's state (a
 * snapshot and the frames after it stay in step). Each message on Redis starts with the publishing broker's 8-byte
 * origin id, so that a broker skips its own messages when Redis hands them back.
 *
 * publish() rejects at once while Redis is unreachable (no offline queue: a frame that waits is a frame late on air;
 * the frame is durable already, and a renderer that misses it sees the next one's `prev` skip and resyncs).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Broker, BrokerListener, BrokerSubscription } from '../engine/broker.js';
import type { RedisConnections } from './redis-connections.js';

export interface RedisBrokerOptions {
  url: string;
  /** Prefix of every Redis channel name, so that several onair deployments (or tests) can share one Redis. */
  prefix?: string;
  onListenerError?: (err: unknown) => void;
  /** Watches the broker's two connections (their errors are logged there, once per outage). */
  connections: RedisConnections;
}

const ORIGIN_BYTES = 8;

export class RedisBroker implements Broker {
  private readonly listeners = new Map<string, BrokerListener[]>();
  /** Redis channels subscribed, or being subscribed: the subscription's promise. */
  private readonly subscribed = new Map<string, Promise<void>>();
  private readonly prefix: string;
  private readonly origin = randomBytes(ORIGIN_BYTES);
  /** Local deliveries published from inside a listener wait here, so every listener sees publish order. */
  private readonly queue: [string, Buffer][] = [];
  private delivering = false;
  private closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly options: RedisBrokerOptions,
  ) {
    this.prefix = `${options.prefix ?? 'onair:'}ch:`;
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      if (message.length < ORIGIN_BYTES || message.subarray(0, ORIGIN_BYTES).equals(this.origin)) return;
      this.deliver(channel.toString(), message.subarray(ORIGIN_BYTES));
    });
  }

  /** Connects both connections; rejects when Redis cannot be reached. */
  static async connect(options: RedisBrokerOptions): Promise<RedisBroker> {
    const { connections } = options;
    const pub = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const sub = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
    // publish() rejects while the publisher is down (the engine reports it); the subscriber reconnects by itself.
    connections.watch('broker publisher', pub);
    connections.watch('broker subscriber', sub);
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
    const topic = this.prefix + channelId;
    const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    this.deliverLocally(topic, bytes);
    await this.pub.publish(topic, Buffer.concat([this.origin, bytes]));
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
      if (!this.closed) this.sub.unsubscribe(topic).catch((err: unknown) => this.failed(err, 'unsubscribe'));
    };
    // A failed subscription is also the caller's to see through `ready`.
    ready.catch((err: unknown) => this.failed(err, 'subscribe'));
    return Object.assign(unsubscribe, { ready });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.subscribed.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private failed(err: unknown, what: string): void {
    if (!this.closed) this.options.connections.failed(this.sub, err, what);
  }

  private deliverLocally(topic: string, payload: Buffer): void {
    this.queue.push([topic, payload]);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.deliver(next[0], next[1]);
    } finally {
      this.delivering = false;
    }
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
