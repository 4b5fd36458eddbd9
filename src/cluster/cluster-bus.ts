/**
 * How nodes talk to each other, through Redis only (docs/architecture/several-nodes.md): no node-to-node connections.
 *
 * - call(): a request to one node, answered by its handler (an op forwarded to a channel's owner). The answer, or
 *   the AppError it was refused with (code, detail, retry-after, extra, reason), comes back on the caller's own Redis
 *   channel; no answer within the timeout rejects with `unavailable`.
 * - broadcast(): a control message to every other node (announcements.ts); fire and forget, since what it announces
 *   is in Postgres already and each node can reload it.
 *
 * Each node listens on `<prefix>node:<nodeId>` (requests and answers) and `<prefix>control`. Messages are JSON; the
 * envelope is checked on arrival (a message that is not one is dropped and reported), the bodies by their users.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '@onair/protocol';
import { AppError, ERROR_REASONS } from '../errors.js';
import type { RedisConnections } from './redis-connections.js';

export interface ClusterBusOptions {
  url: string;
  nodeId: string;
  prefix?: string;
  /** Watches the bus's two connections (their errors are logged there, once per outage). */
  connections: RedisConnections;
  /** A request handler or control listener threw something that is not an AppError, or a message was garbled. */
  onError?: (err: unknown) => void;
}

type RequestHandler = (body: unknown, from: string) => Promise<unknown>;
type ControlListener = (body: unknown, from: string) => void;

/** An AppError as it travels between nodes. */
export const WireError = z.object({
  code: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]),
  detail: z.string(),
  retryAfter: z.number().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  reason: z.enum(ERROR_REASONS).optional(),
});
export type WireError = z.infer<typeof WireError>;

const Wire = z.union([
  z.object({ t: z.literal('req'), id: z.string(), from: z.string(), body: z.unknown() }),
  z.object({ t: z.literal('rep'), id: z.string(), ok: z.literal(true), value: z.unknown() }),
  z.object({ t: z.literal('rep'), id: z.string(), ok: z.literal(false), error: WireError }),
  z.object({ t: z.literal('ctl'), from: z.string(), body: z.unknown() }),
]);
type Wire = z.infer<typeof Wire>;

export class ClusterBus {
  readonly nodeId: string;
  private readonly prefix: string;
  private readonly waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private handler: RequestHandler = () => Promise.reject(new AppError('unavailable', 'This node is starting.'));
  private readonly controls = new Set<ControlListener>();
  private closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly options: ClusterBusOptions,
  ) {
    this.nodeId = options.nodeId;
    this.prefix = options.prefix ?? 'onair:';
    sub.on('message', (_channel: string, text: string) => this.receive(text));
  }

  static async connect(options: ClusterBusOptions): Promise<ClusterBus> {
    const pub = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const sub = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
    options.connections.watch('bus publisher', pub);
    options.connections.watch('bus subscriber', sub);
    try {
      await Promise.all([pub.connect(), sub.connect()]);
      const prefix = options.prefix ?? 'onair:';
      await sub.subscribe(`${prefix}node:${options.nodeId}`, `${prefix}control`);
    } catch (err) {
      pub.disconnect();
      sub.disconnect();
      throw err;
    }
    return new ClusterBus(pub, sub, options);
  }

  /** Answers requests from other nodes; what it throws (an AppError) is the caller's refusal. */
  onRequest(handler: RequestHandler): void {
    this.handler = handler;
  }

  onControl(listener: ControlListener): () => void {
    this.controls.add(listener);
    return () => this.controls.delete(listener);
  }

  /** Asks `nodeId`; resolves with its answer, rejects with its AppError, or `unavailable` after `timeoutMs`. */
  call(nodeId: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const id = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new AppError('unavailable', `Node ${nodeId} did not answer in time; retry.`, { retryAfter: 1 }));
      }, timeoutMs);
      const settle =
        <T>(fn: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          this.waiting.delete(id);
          fn(v);
        };
      this.waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.send(nodeId, { t: 'req', id, from: this.nodeId, body }).catch(
        settle(() => reject(new AppError('unavailable', 'Redis is unreachable; retry.', { retryAfter: 1 }))),
      );
    });
  }

  /** To every other node; rejects only when Redis cannot take it. */
  async broadcast(body: unknown): Promise<void> {
    await this.pub.publish(`${this.prefix}control`, JSON.stringify({ t: 'ctl', from: this.nodeId, body }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiting.values()) w.reject(new AppError('unavailable', 'The node is stopping.'));
    this.waiting.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private async send(nodeId: string, message: Wire): Promise<void> {
    await this.pub.publish(`${this.prefix}node:${nodeId}`, JSON.stringify(message));
  }

  private receive(text: string): void {
    let msg: Wire;
    try {
      msg = Wire.parse(JSON.parse(text));
    } catch (err) {
      this.options.onError?.(err);
      return;
    }
    if (msg.t === 'rep') {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      if (msg.ok) w.resolve(msg.value);
      else w.reject(toAppError(msg.error));
    } else if (msg.t === 'req') {
      void this.answer(msg);
    } else if (msg.t === 'ctl' && msg.from !== this.nodeId) {
      for (const listener of this.controls) {
        try {
          listener(msg.body, msg.from);
        } catch (err) {
          this.options.onError?.(err);
        }
      }
    }
  }

  private async answer(req: Extract<Wire, { t: 'req' }>): Promise<void> {
    let reply: Wire;
    try {
      reply = { t: 'rep', id: req.id, ok: true, value: await this.handler(req.body, req.from) };
    } catch (err) {
      if (!(err instanceof AppError)) this.options.onError?.(err);
      reply = { t: 'rep', id: req.id, ok: false, error: toWire(err) };
    }
    // The caller times out meanwhile; the publisher's trouble is logged once per outage.
    if (!this.closed)
      await this.send(req.from, reply).catch((err: unknown) => this.options.connections.failed(this.pub, err, 'reply'));
  }
}

export function toWire(err: unknown): WireError {
  const e = err instanceof AppError ? err : new AppError('internal');
  const wire: WireError = { code: e.code, detail: e.message };
  if (e.retryAfter !== undefined) wire.retryAfter = e.retryAfter;
  if (e.extra !== undefined) wire.extra = e.extra;
  if (e.errors !== undefined) wire.errors = e.errors;
  if (e.reason !== undefined) wire.reason = e.reason;
  return wire;
}

export function toAppError(w: WireError): AppError {
  const { retryAfter, extra, errors, reason } = w;
  return new AppError(w.code, w.detail, { retryAfter, extra, errors, reason });
}
