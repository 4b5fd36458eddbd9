/**
 * Ops on any node (docs/architecture/several-nodes.md, "Routing"): an Engine that applies an op on the engine it wraps
 * when this node ticks the channel, and otherwise forwards it to the channel's owner over the cluster bus, where the
 * owner's `answer()` applies it in its next tick.
 *
 * - Ops submitted in one turn of the event loop for one channel travel in one request, so the owner applies them in
 *   one tick (an incoming-hook post's values and clock actions land in one frame).
 * - The answer comes back with the owner's frame; it is passed on once this node's copy has reached that frame
 *   (following.ts), so a read here after the answer sees the change.
 * - No owner yet (a failover under way): the op waits for one, up to `forwardTimeoutMs`, then is refused with
 *   `unavailable`. An owner that does not answer within 1.5 s (it died) gets the op refused with `unavailable` rather
 *   than sent again: it may have been applied just before.
 * - An op that could not be applied where it was queued because the channel moved (reason `channel_moved`), or that
 *   the node asked refused because it no longer owns the channel (reason `not_owner`), goes to the new owner.
 */
import { passThrough, type Engine, type EngineHost, type Op, type OpResult } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { ChannelLeases } from './channel-leases.js';
import { toAppError, toWire as errorToWire, type ClusterBus } from './cluster-bus.js';
import type { Following } from './following.js';
import type { Ownership } from './ownership.js';
import { ForwardReply, ForwardRequest, fromWire, toWire } from './wire-ops.js';

export interface ForwardingDeps {
  host: EngineHost;
  ownership: Pick<Ownership, 'owns'>;
  leases: Pick<ChannelLeases, 'ownerOf'>;
  following: Pick<Following, 'caughtUp'>;
  bus: ClusterBus;
  /** How long a forwarded op may wait for an owner and its answer. Default 5,000 ms. */
  forwardTimeoutMs?: number;
}

/** The Engine, and the handler of other nodes' forwarded ops (ClusterBus.onRequest). */
export interface ForwardingEngine extends Engine {
  answer(body: unknown): Promise<ForwardReply>;
}

interface Outgoing {
  op: Op;
  resolve: (result: OpResult) => void;
  reject: (err: unknown) => void;
}

/** How long the owner has to answer a forwarded op. */
const CALL_TIMEOUT_MS = 1_500;

export function createForwardingEngine(inner: Engine, deps: ForwardingDeps): ForwardingEngine {
  const forwarder = new Forwarder(inner, deps);
  return {
    ...passThrough(inner),
    submit: (channelId, op) => forwarder.submit(channelId, op),
    answer: (body) => forwarder.answer(body),
  };
}

class Forwarder {
  /** Ops for channels owned elsewhere, waiting for the end of this turn to go to the owner together. */
  private readonly outbox = new Map<string, Outgoing[]>();

  constructor(
    private readonly inner: Engine,
    private readonly deps: ForwardingDeps,
  ) {}

  submit(channelId: string, op: Op): Promise<OpResult> {
    if (!this.inner.has(channelId)) return this.inner.submit(channelId, op);
    if (!this.deps.ownership.owns(channelId)) return this.forward(channelId, op);
    // Queued here, then the channel moved before its tick: the op was not applied, so it goes to the new owner.
    return this.inner.submit(channelId, op).catch((err: unknown) => {
      if (AppError.hasReason(err, 'channel_moved')) return this.forward(channelId, op);
      throw err;
    });
  }

  /** Ops forwarded by another node: queued in one turn, so one tick applies them all. */
  async answer(body: unknown): Promise<ForwardReply> {
    const parsed = ForwardRequest.safeParse(body);
    if (!parsed.success) throw new AppError('invalid_request', 'Not a forwarded op request.');
    const { channelId, ops } = parsed.data;
    if (!this.inner.has(channelId)) throw new AppError('not_found', 'The channel was deleted.');
    if (!this.deps.ownership.owns(channelId)) throw notOwner();
    const settled = await Promise.allSettled(ops.map((op) => this.inner.submit(channelId, fromWire(op))));
    // They moved before their tick: none was applied, so the sender may send them to the new owner.
    if (settled.some((r) => r.status === 'rejected' && AppError.hasReason(r.reason, 'channel_moved'))) throw notOwner();
    const at = this.deps.host.position(channelId);
    return {
      results: settled.map((r) =>
        r.status === 'fulfilled' ? { ok: true, result: r.value } : { ok: false, error: errorToWire(r.reason) },
      ),
      frame: at?.frame ?? 0,
      fps: at?.fps ?? 0,
    };
  }

  /** Queues the op for the channel's owner; ops queued in the same turn go in one request (one tick there). */
  private forward(channelId: string, op: Op): Promise<OpResult> {
    return new Promise<OpResult>((resolve, reject) => {
      let batch = this.outbox.get(channelId);
      if (!batch) {
        this.outbox.set(channelId, (batch = []));
        queueMicrotask(() => void this.flush(channelId));
      }
      batch.push({ op, resolve, reject });
    });
  }

  private async flush(channelId: string): Promise<void> {
    const batch = this.outbox.get(channelId) ?? [];
    this.outbox.delete(channelId);
    try {
      const reply = await this.sendToOwner(channelId, batch);
      if (!reply) return;
      for (const [i, r] of reply.results.entries()) {
        if (r.ok) batch[i]!.resolve(r.result);
        else batch[i]!.reject(toAppError(r.error));
      }
    } catch (err) {
      for (const o of batch) o.reject(err);
    }
  }

  /** Finds the owner and has it apply the ops; null when this node became the owner and applied them itself. */
  private async sendToOwner(channelId: string, batch: Outgoing[]): Promise<ForwardReply | null> {
    const deadline = Date.now() + (this.deps.forwardTimeoutMs ?? 5_000);
    const request: ForwardRequest = { kind: 'submit', channelId, ops: batch.map((o) => toWire(o.op)) };
    for (;;) {
      if (!this.inner.has(channelId)) throw new AppError('not_found', 'The channel was deleted.');
      if (this.deps.ownership.owns(channelId)) {
        for (const o of batch) this.inner.submit(channelId, o.op).then(o.resolve, o.reject);
        return null;
      }
      const owner = await this.deps.leases.ownerOf(channelId);
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (owner === null || owner === this.deps.bus.nodeId) {
        // No owner yet, or this node just took it and is loading it: wait a little and look again.
        await sleep(Math.min(100, left));
        continue;
      }
      const reply = await this.call(owner, request, left);
      if (reply) return reply;
      await sleep(Math.min(50, Math.max(0, deadline - Date.now())));
    }
    throw new AppError('unavailable', `Channel ${channelId} has no node to tick it right now; retry.`, {
      retryAfter: 1,
    });
  }

  /** The owner's answer, once this node's copy caught up with it; null when the owner no longer owns the channel. */
  private async call(owner: string, request: ForwardRequest, left: number): Promise<ForwardReply | null> {
    let reply: ForwardReply;
    try {
      // A live owner answers within a tick or two. One that does not may have died after applying the ops: they are
      // not sent again (that could apply them twice); the caller gets `unavailable`, as from a dropped line.
      reply = ForwardReply.parse(await this.deps.bus.call(owner, request, Math.min(left, CALL_TIMEOUT_MS)));
    } catch (err) {
      if (AppError.hasReason(err, 'not_owner')) return null;
      throw err;
    }
    await this.deps.following.caughtUp(request.channelId, reply.frame, reply.fps);
    return reply;
  }
}

function notOwner(): AppError {
  return new AppError('unavailable', 'This node does not tick this channel; retry.', {
    retryAfter: 1,
    reason: 'not_owner',
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
