/**
 * What several nodes (src/cluster/) need of a FrameEngine beyond the Engine interface: `engine.host`. The engine knows
 * nothing of nodes; the cluster decides what to install, demote or forget, and feeds a channel's copy with the frames
 * of the node that ticks it. One node never uses it.
 */
import type { FrameMessage } from '@onair/protocol';
import type { FrameRate } from './frame-rate.js';
import type { StoredChannel } from './model.js';

/** Where a channel's copy stands: the frame it last reached, counted in frames of its rate. */
export interface ChannelPosition {
  frame: number;
  fps: FrameRate;
}

/**
 * What applying another node's frame did: `applied`; `stale`, already in the copy (a frame from before a reload);
 * `gap`, a frame was missed (the caller loads the channel afresh); `unknown`, the engine does not hold the channel.
 */
export type RemoteFrameOutcome = 'applied' | 'stale' | 'gap' | 'unknown';

/**
 * Each call is synchronous and takes effect at once; none throws for a channel the engine does not hold (it does
 * nothing, or answers undefined / `unknown`). Refusals of queued ops carry a reason (src/errors.ts), so that the
 * caller can tell "not applied, send it elsewhere" from "deleted".
 */
export interface EngineHost {
  /** The ids of every channel the engine holds, ticked here or not. */
  channelIds(): string[];
  position(channelId: string): ChannelPosition | undefined;
  /**
   * Puts a channel in as stored (loaded from the store), replacing the engine's copy: ops queued on the old copy
   * are refused as by demote(). If the placement says the channel is ticked here, its next frame carries every scene
   * again, so renderers that missed an edit made while nobody ticked the channel draw it.
   */
  install(stored: StoredChannel): void;
  /**
   * The channel stops being ticked here (its copy stays, for reads): ops queued on it are refused `unavailable`
   * with reason `channel_moved` (none of them was applied: the caller may send them to the channel's new owner).
   */
  demote(channelId: string): void;
  /**
   * Forgets a channel deleted by another node: ops queued on it are refused `not_found`. Nothing is sent to
   * renderers: the node that deleted it told them.
   */
  forget(channelId: string): void;
  /**
   * Moves the copy of a channel ticked elsewhere forward by its owner's frame (the `scenes=all` frame, which carries
   * every change). Only for channels the placement does not tick here; nothing is sent to renderers.
   */
  applyRemoteFrame(channelId: string, frame: FrameMessage): RemoteFrameOutcome;
}
