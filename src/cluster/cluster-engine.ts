/**
 * The engine of one node among several (docs/architecture/several-nodes.md). Every node holds every channel, but
 * ticks only the channels whose lease it holds (channel-leases.ts); the others are followers, kept up to date from
 * their owners' frames on the broker, so that any node answers reads and serves renderers and dashboards.
 *
 * - An op for a channel owned elsewhere is forwarded to its owner over the cluster bus and answered from there
 *   (the same operation, applied in the owner's tick), then answered here once this node's copy has caught up with
 *   it, so a read after the answer sees the change. With no owner yet (a failover under way) it waits for one, up to
 *   `forwardTimeoutMs`, then is refused with `unavailable`. An owner that does not answer within 1.5 s (it died) gets
 *   the op refused with `unavailable` rather than sent again: it may have been applied just before.
 * - Structural changes (a channel added, changed or removed; a scene saved or deleted) are written to Postgres by
 *   the API as before, applied here, and announced to the other nodes: the owner applies them in its next tick (its
 *   frame carries them to every renderer), followers apply them to their copy. What an announcement carries is in
 *   Postgres already: a node that missed one reloads the channel when it takes it over or finds a gap.
 * - Each beat renews and claims leases: a channel taken over is loaded from Postgres (the last committed tick, so
 *   nothing acknowledged is lost) and ticked from there; a lease lost makes the channel a follower again, reloaded.
 *
 * The engine itself (engine/engine.ts) knows nothing of this: the class overrides its entry points.
 */
import type { Logger } from 'pino';
import {
  decodeChannelMessage,
  Engine,
  type Broker,
  type ChannelRecord,
  type EngineDeps,
  type Op,
  type OpResult,
  type SceneRecord,
  type StoredChannel,
} from '../engine/index.js';
import { MOVED_DETAIL } from '../engine/engine.js';
import { AppError } from '../errors.js';
import type { FrameMessage } from '@onair/protocol';
import { toAppError, toWire as errorToWire, type ClusterBus, type WireError } from './cluster-bus.js';
import { applyFrame, reached } from './follower-frames.js';
import { fromWire, toWire, type WireOp } from './wire-ops.js';
import type { ChannelLeases } from './channel-leases.js';

export interface ClusterEngineDeps extends EngineDeps {
  broker: Broker;
  /** Loads one channel as committed (PostgresStore.loadChannel). */
  loadChannel: (channelId: string) => Promise<StoredChannel | undefined>;
  leases: ChannelLeases;
  bus: ClusterBus;
  logger: Logger;
  /** How often leases are renewed and claimed. Default 500 ms. */
  beatMs?: number;
  /** How long a forwarded op may wait for an owner and its answer. Default 5,000 ms. */
  forwardTimeoutMs?: number;
}

/** What nodes announce to each other (cluster-bus.ts broadcast). */
type Announcement =
  | { kind: 'channel-added'; record: ChannelRecord; frame: number }
  | { kind: 'channel-removed'; channelId: string }
  | { kind: 'channel-updated'; record: ChannelRecord }
  | { kind: 'scene-upserted'; scene: SceneRecord }
  | { kind: 'scene-removed'; channelId: string; sceneId: string };

/** Ops submitted in one turn of the event loop travel together, so the owner queues them for one tick. */
interface ForwardRequest {
  kind: 'submit';
  channelId: string;
  ops: WireOp[];
}

interface ForwardReply {
  results: ({ ok: true; result: OpResult } | { ok: false; error: WireError })[];
  /** The owner's frame once the ops were applied, and its frame rate: what this node's copy must reach. */
  frame: number;
  fps: number;
}

interface Outgoing {
  op: Op;
  resolve: (result: OpResult) => void;
  reject: (err: unknown) => void;
}

/** The owner's refusal when it no longer owns the channel: the forwarder looks the owner up again. */
const NOT_OWNER = 'not the owner of this channel';
/** How long the owner has to answer a forwarded op. */
const CALL_TIMEOUT_MS = 1_500;
/** How long a forwarded op's answer waits for this node's copy to catch up with the owner's frame. */
const CATCH_UP_MS = 1_000;

export class ClusterEngine extends Engine {
  private readonly follows = new Map<string, () => void>();
  /** Followers being reloaded from Postgres: their frames are ignored meanwhile. */
  private readonly reloading = new Map<string, Promise<void>>();
  private readonly waiters = new Map<string, Set<{ frame: number; fps: number; done: () => void }>>();
  /** Ops for channels owned elsewhere, waiting for the end of this turn to go to the owner together. */
  private readonly outbox = new Map<string, Outgoing[]>();
  /** Channels being loaded from Postgres, with the structural changes made meanwhile. */
  private readonly loading = new Map<string, (() => void)[]>();
  private readonly replays = new Map<string, (() => void)[]>();
  private beatTimer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly cluster: ClusterEngineDeps) {
    super(cluster);
  }

  /** After load() and start(): follows every channel, answers other nodes, and starts the lease beat. */
  async join(): Promise<void> {
    this.cluster.leases.onFencedOut((ids) => {
      for (const id of ids) {
        this.cluster.logger.warn({ channelId: id }, 'tick refused: another node owns this channel now');
        this.demote(id);
        void this.reload(id);
      }
    });
    for (const id of this.channelIds()) this.follow(id);
    this.cluster.bus.onRequest((body) => this.answer(body as ForwardRequest));
    this.cluster.bus.onControl((body) => this.hear(body as Announcement));
    await this.beat();
    this.beatTimer = setInterval(() => void this.beat(), this.cluster.beatMs ?? 500);
    this.beatTimer.unref();
  }

  /** Stops ticking (finishing what is queued), gives every lease up, and stops following. */
  override async stop(): Promise<void> {
    this.stopped = true;
    if (this.beatTimer) clearInterval(this.beatTimer);
    await this.beating;
    await super.stop();
    await this.cluster.leases.leave().catch((err: unknown) => this.cluster.logger.warn({ err }, 'leases not released'));
    for (const off of this.follows.values()) off();
    this.follows.clear();
  }

  /** Whether this node ticks the channel now. */
  owns(channelId: string): boolean {
    return this.cluster.leases.holds(channelId);
  }

  /** A follower never ticks, whatever asks (a refused tick's requeue included). */
  protected override ticks(channelId: string): boolean {
    return this.owns(channelId);
  }

  override submit(channelId: string, op: Op): Promise<OpResult> {
    if (!this.has(channelId)) return super.submit(channelId, op);
    if (!this.owns(channelId)) return this.forward(channelId, op);
    // Queued here, then the channel moved before its tick: the op was not applied, so it goes to the new owner.
    return super.submit(channelId, op).catch((err: unknown) => {
      if (err instanceof AppError && err.message === MOVED_DETAIL) return this.forward(channelId, op);
      throw err;
    });
  }

  override addChannel(record: ChannelRecord, frame = 0): void {
    super.addChannel(record, frame);
    this.follow(record.id);
    this.announce({ kind: 'channel-added', record, frame });
    // Claimed at once if this node is under its share, so the first op does not wait for a beat.
    void this.beat();
  }

  override removeChannel(channelId: string): void {
    this.unfollow(channelId);
    super.removeChannel(channelId);
    this.announce({ kind: 'channel-removed', channelId });
  }

  override updateChannel(record: ChannelRecord): void {
    this.applyRecord(record);
    this.announce({ kind: 'channel-updated', record });
  }

  override upsertScene(scene: SceneRecord): void {
    this.applyScene(scene);
    this.announce({ kind: 'scene-upserted', scene });
  }

  override removeScene(channelId: string, sceneId: string): void {
    this.applySceneRemoval(channelId, sceneId);
    this.announce({ kind: 'scene-removed', channelId, sceneId });
  }

  private applyRecord(record: ChannelRecord): void {
    this.whileLoading(record.id, () => this.applyRecord(record));
    if (this.owns(record.id)) return super.updateChannel(record);
    const rt = this.runtime(record.id);
    const rotated = rt.record.outputToken !== record.outputToken;
    rt.updateRecord(record);
    // Every node that learns of a rotation says so: renderers are closed wherever the new token has arrived, even
    // while the channel has no owner to tick it (a renderer whose token is current is never closed).
    if (rotated) this.revokeOldTokens(record.id);
  }

  private applyScene(scene: SceneRecord): void {
    this.whileLoading(scene.channelId, () => this.applyScene(scene));
    if (this.owns(scene.channelId)) super.upsertScene(scene);
    else this.runtime(scene.channelId).upsertScene(scene);
  }

  private applySceneRemoval(channelId: string, sceneId: string): void {
    this.whileLoading(channelId, () => this.applySceneRemoval(channelId, sceneId));
    if (this.owns(channelId)) super.removeScene(channelId, sceneId);
    else this.runtime(channelId).removeScene(sceneId);
  }

  /**
   * A structural change made while the channel is being loaded from Postgres (a takeover, a reload) may be missing
   * from what the load read: it is applied again to what was loaded.
   */
  private whileLoading(channelId: string, again: () => void): void {
    this.loading.get(channelId)?.push(again);
  }

  /** Loads the channel and installs it, with the structural changes made meanwhile applied again on top. */
  private async loadFresh(channelId: string): Promise<StoredChannel | undefined> {
    const replay: (() => void)[] = [];
    this.loading.set(channelId, replay);
    try {
      return await this.cluster.loadChannel(channelId);
    } finally {
      this.loading.delete(channelId);
      // Run by the caller once installed (see installLoaded).
      this.replays.set(channelId, replay);
    }
  }

  private installLoaded(stored: StoredChannel): void {
    this.install(stored);
    const replay = this.replays.get(stored.channel.id) ?? [];
    this.replays.delete(stored.channel.id);
    for (const again of replay) again();
  }

  private announce(message: Announcement): void {
    this.cluster.bus.broadcast(message).catch((err: unknown) => {
      // The change is in Postgres: other nodes pick it up when they next load the channel.
      this.cluster.logger.warn({ err, kind: message.kind }, 'announcement to other nodes failed');
    });
  }

  /** What another node announced. */
  private hear(message: Announcement): void {
    try {
      switch (message.kind) {
        case 'channel-added':
          // Applied at once (a new channel has no scenes yet): the announcements after it find it here.
          if (!this.has(message.record.id)) {
            super.addChannel(message.record, message.frame);
            this.follow(message.record.id);
          }
          return;
        case 'channel-removed':
          this.unfollow(message.channelId);
          this.drop(message.channelId);
          return;
        case 'channel-updated':
          if (this.has(message.record.id)) this.applyRecord(message.record);
          return;
        case 'scene-upserted':
          if (this.has(message.scene.channelId)) this.applyScene(message.scene);
          return;
        case 'scene-removed':
          if (this.has(message.channelId)) this.applySceneRemoval(message.channelId, message.sceneId);
          return;
      }
    } catch (err) {
      this.cluster.logger.warn({ err, kind: message.kind }, 'announcement not applied');
    }
  }

  /** Renews and claims leases; takes over what it acquired, lets go of what it lost or holds beyond its share. */
  private beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.beating ??= this.runBeat().finally(() => (this.beating = null));
    return this.beating;
  }

  private async runBeat(): Promise<void> {
    try {
      const { acquired, lost, surplus } = await this.cluster.leases.beat();
      for (const id of lost) {
        if (!this.has(id)) continue; // deleted: its lease went with it
        this.cluster.logger.warn({ channelId: id }, 'channel lease lost: another node ticks it now');
        this.demote(id);
        void this.reload(id);
      }
      for (const id of surplus) this.demote(id);
      await this.cluster.leases.release(surplus);
      for (const id of surplus) void this.reload(id);
      for (const id of acquired.keys()) await this.takeOver(id);
    } catch (err) {
      this.cluster.logger.error({ err }, 'lease beat failed');
    }
  }

  private async takeOver(channelId: string): Promise<void> {
    const stored = await this.loadFresh(channelId);
    if (!stored) {
      this.replays.delete(channelId);
      await this.cluster.leases.release([channelId]);
      return;
    }
    // Installed even if it was a follower that was up to date: the store has exactly what was committed.
    this.installLoaded(stored);
    // Scene edits made while the channel had no owner reached no renderer: the first frame carries every scene.
    this.resendScenes(channelId);
    if (!this.follows.has(channelId)) this.follow(channelId);
    this.cluster.logger.info({ channelId, frame: stored.live.frame }, 'channel taken over');
  }

  // ---- forwarding ----

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
    const deadline = Date.now() + (this.cluster.forwardTimeoutMs ?? 5_000);
    const request: ForwardRequest = { kind: 'submit', channelId, ops: batch.map((o) => toWire(o.op)) };
    for (;;) {
      if (!this.has(channelId)) throw new AppError('not_found', 'The channel was deleted.');
      if (this.owns(channelId)) {
        for (const o of batch) super.submit(channelId, o.op).then(o.resolve, o.reject);
        return null;
      }
      const owner = await this.cluster.leases.ownerOf(channelId);
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (owner === null || owner === this.cluster.bus.nodeId) {
        // No owner yet, or this node just took it and is loading it: wait a little and look again.
        await sleep(Math.min(100, left));
        continue;
      }
      try {
        // A live owner answers within a tick or two. One that does not may have died after applying the ops: they
        // are not sent again (that could apply them twice); the caller gets `unavailable`, as from a dropped line.
        const reply = (await this.cluster.bus.call(owner, request, Math.min(left, CALL_TIMEOUT_MS))) as ForwardReply;
        await this.caughtUp(channelId, reply.frame, reply.fps);
        return reply;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'unavailable' && err.message === NOT_OWNER)) throw err;
        await sleep(Math.min(50, Math.max(0, deadline - Date.now())));
      }
    }
    throw new AppError('unavailable', `Channel ${channelId} has no node to tick it right now; retry.`, {
      retryAfter: 1,
    });
  }

  /** Ops forwarded by another node: queued in one turn, so one tick applies them all. */
  private async answer(request: ForwardRequest): Promise<ForwardReply> {
    if (request?.kind !== 'submit' || !Array.isArray(request.ops))
      throw new AppError('invalid_request', 'Unknown request.');
    const { channelId } = request;
    if (!this.has(channelId)) throw new AppError('not_found', 'The channel was deleted.');
    if (!this.owns(channelId)) throw new AppError('unavailable', NOT_OWNER, { retryAfter: 1 });
    const settled = await Promise.allSettled(request.ops.map((op) => super.submit(channelId, fromWire(op))));
    // They moved before their tick: none was applied, so the sender may send them to the new owner.
    if (settled.some((r) => r.status === 'rejected' && isMoved(r.reason))) {
      throw new AppError('unavailable', NOT_OWNER, { retryAfter: 1 });
    }
    const rt = this.has(channelId) ? this.runtime(channelId) : null;
    return {
      results: settled.map((r) =>
        r.status === 'fulfilled' ? { ok: true, result: r.value } : { ok: false, error: errorToWire(r.reason) },
      ),
      frame: rt?.live.frame ?? 0,
      fps: rt?.record.fps ?? 0,
    };
  }

  /**
   * Resolves once this node's copy of the channel has reached `frame` of a `fps` clock (frame numbers count frames of
   * the channel's rate, so they are compared only at the same rate), or after CATCH_UP_MS.
   */
  private caughtUp(channelId: string, frame: number, fps: number): Promise<void> {
    if (!this.has(channelId) || reached(this.runtime(channelId), frame, fps)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(channelId);
      if (!set) this.waiters.set(channelId, (set = new Set()));
      const waiter = { frame, fps, done: () => (clearTimeout(timer), set.delete(waiter), resolve()) };
      const timer = setTimeout(waiter.done, CATCH_UP_MS);
      set.add(waiter);
    });
  }

  // ---- following ----

  private follow(channelId: string): void {
    if (this.follows.has(channelId)) return;
    const subscription = this.cluster.broker.subscribe(channelId, (payload) => this.onFrame(channelId, payload));
    this.follows.set(channelId, subscription);
  }

  private unfollow(channelId: string): void {
    this.follows.get(channelId)?.();
    this.follows.delete(channelId);
    for (const w of this.waiters.get(channelId) ?? []) w.done();
    this.waiters.delete(channelId);
  }

  private onFrame(channelId: string, payload: Uint8Array): void {
    if (this.owns(channelId) || this.reloading.has(channelId) || !this.has(channelId)) return;
    const message = decodeChannelMessage(payload);
    if (message.kind !== 'frame') return;
    const frame = JSON.parse(Buffer.from(message.all).toString('utf8')) as FrameMessage;
    const rt = this.runtime(channelId);
    if (frame.prev !== rt.live.frame) {
      // Already in the copy (a frame from before a reload), unless the frame rate changed (numbers restart lower).
      if (frame.frame <= rt.live.frame && frame.fps === undefined) return;
      void this.reload(channelId);
      return;
    }
    applyFrame(rt, frame);
    for (const w of [...(this.waiters.get(channelId) ?? [])]) if (reached(rt, w.frame, w.fps)) w.done();
  }

  /** Loads a follower afresh from Postgres (a gap in its frames, a lease lost or given up). */
  private reload(channelId: string): Promise<void> {
    const running = this.reloading.get(channelId);
    if (running) return running;
    const done = this.loadFresh(channelId)
      .then((stored) => {
        if (!stored || this.owns(channelId) || this.stopped || !this.has(channelId)) {
          this.replays.delete(channelId);
          return;
        }
        this.installLoaded(stored);
        this.follow(channelId);
        // Loaded after the owner answered: it holds what the answers are waiting for.
        for (const w of [...(this.waiters.get(channelId) ?? [])]) w.done();
      })
      .catch((err: unknown) => this.cluster.logger.warn({ err, channelId }, 'channel reload failed'))
      .finally(() => this.reloading.delete(channelId));
    this.reloading.set(channelId, done);
    return done;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isMoved(err: unknown): boolean {
  return err instanceof AppError && err.message === MOVED_DETAIL;
}
