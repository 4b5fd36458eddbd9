/**
 * How a node keeps its copies of the channels it does not tick (docs/architecture/several-nodes.md, "Routing"): it
 * subscribes to every channel on the broker and hands each frame of a channel owned elsewhere to the engine
 * (EngineHost.applyRemoteFrame, a pure reducer over the copy: engine/follow-frame.ts). A frame that does not follow the
 * copy's (one was missed) makes ownership.ts load the channel afresh from Postgres.
 *
 * caughtUp() lets a forwarded op's answer wait until this node's copy has the owner's frame that applied it, so a read
 * on this node after the answer sees the change.
 */
import type { Logger } from 'pino';
import { parseFrame, type Broker, type BrokerSubscription, type EngineHost } from '../engine/index.js';
import type { Ownership } from './ownership.js';

export interface FollowingDeps {
  broker: Broker;
  host: EngineHost;
  ownership: Pick<Ownership, 'owns' | 'isReloading' | 'reload'>;
  logger: Logger;
}

interface Waiter {
  frame: number;
  fps: number;
  done: () => void;
}

/** How long an answer waits for this node's copy to catch up with the owner's frame. */
const CATCH_UP_MS = 1_000;

export class Following {
  private readonly follows = new Map<string, BrokerSubscription>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(private readonly deps: FollowingDeps) {}

  /** Follows every channel the engine holds. */
  followAll(): void {
    for (const id of this.deps.host.channelIds()) this.follow(id);
  }

  /** Idempotent. */
  follow(channelId: string): void {
    if (this.follows.has(channelId)) return;
    const subscription = this.deps.broker.subscribe(channelId, (payload) => this.onFrame(channelId, payload));
    this.follows.set(channelId, subscription);
  }

  /** The channel is gone: no more frames, and whoever waits for it is let go. */
  unfollow(channelId: string): void {
    this.follows.get(channelId)?.();
    this.follows.delete(channelId);
    this.release(channelId);
  }

  /** The channel was just loaded from Postgres: it has what any answer is waiting for. */
  installed(channelId: string): void {
    this.follow(channelId);
    this.release(channelId);
  }

  stop(): void {
    for (const id of [...this.follows.keys()]) this.unfollow(id);
  }

  /**
   * Resolves once this node's copy has reached `frame` of a `fps` clock (frame numbers count frames of the channel's
   * rate, so they are compared only at the same rate), or after CATCH_UP_MS.
   */
  caughtUp(channelId: string, frame: number, fps: number): Promise<void> {
    if (this.reached(channelId, { frame, fps })) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(channelId);
      if (!set) this.waiters.set(channelId, (set = new Set()));
      const waiter: Waiter = { frame, fps, done: () => (clearTimeout(timer), set.delete(waiter), resolve()) };
      const timer = setTimeout(waiter.done, CATCH_UP_MS);
      set.add(waiter);
    });
  }

  private onFrame(channelId: string, payload: Uint8Array): void {
    if (this.deps.ownership.owns(channelId) || this.deps.ownership.isReloading(channelId)) return;
    let frame;
    try {
      frame = parseFrame(payload);
    } catch (err) {
      this.deps.logger.warn({ err, channelId }, 'message on the broker not understood');
      return;
    }
    if (!frame) return; // a revoke: the transport acts on it
    const outcome = this.deps.host.applyRemoteFrame(channelId, frame);
    if (outcome === 'gap') void this.deps.ownership.reload(channelId);
    if (outcome !== 'applied') return;
    for (const w of [...(this.waiters.get(channelId) ?? [])]) if (this.reached(channelId, w)) w.done();
  }

  private reached(channelId: string, target: { frame: number; fps: number }): boolean {
    const at = this.deps.host.position(channelId);
    return !at || (at.fps === target.fps && at.frame >= target.frame);
  }

  private release(channelId: string): void {
    for (const w of [...(this.waiters.get(channelId) ?? [])]) w.done();
    this.waiters.delete(channelId);
  }
}
