/**
 * The as-run log in storage (docs/as-run.md): per channel, every interval an instance was on program, written by the
 * ticks that bounded it (the `asRun` of their ChannelChanges, in the tick's own transaction), closed by the server
 * itself when it stops or restarts, and confirmed by the outputs that painted it.
 *
 * Guarantees every implementation keeps (as-run-store.contract.ts runs against each), besides Store's (durable when
 * the promise resolves):
 * - A channel has at most one open interval (no end) per layer: a tick's ends are applied before its starts, and an
 *   end or an update names the layer's open interval. An end or update for a layer with none changes nothing.
 * - Intervals go with their channel when it is deleted; otherwise they stay until pruned, and an open one is never
 *   pruned.
 * - An interval closed once is never closed again nor reopened: `close` leaves a closed one as it is.
 * - `confirm` keeps the earliest time it is given and each output once, at most MAX_CONFIRMING_OUTPUTS of them.
 */
import type { AsRunStart } from '../engine/index.js';
import type { Actor, InputValue } from '@onair/protocol';

/** Outputs an interval lists as having painted it, at most (the first ones to say so). */
export const MAX_CONFIRMING_OUTPUTS = 32;

export interface AsRunRecord extends Omit<AsRunStart, 'id'> {
  id: string;
  channelId: string;
  /** The instance's own values after the last update on air; null when it had none. */
  updatedValues: Record<string, InputValue> | null;
  /** null while on air. */
  endAt: string | null;
  endFrame: number | null;
  clearedBy: Actor | null;
  /** When an output first said it had painted the interval; null until one does. */
  confirmedAt: string | null;
  /** The outputs that did, in the order they first said so. */
  confirmedBy: string[];
  /** The server died while the interval was on air: its end is the last time it was seen on air, not an op's. */
  endInferred: boolean;
}

export interface AsRunQuery {
  limit: number;
  /** Exclusive id cursor. */
  after?: string | undefined;
  /** Only intervals on air at or after this time (ISO 8601 in UTC, as toISOString writes it)... */
  from?: string | undefined;
  /** ...and before this one. */
  to?: string | undefined;
}

export interface AsRunPage {
  /** At most `limit`, in id order (the order they began). */
  records: AsRunRecord[];
  /** The id to pass as `after` for the next page, or null at the end. */
  nextCursor: string | null;
}

/** An interval still on air, as a restart or a stop finds it. */
export interface OpenInterval {
  id: string;
  channelId: string;
  layer: number;
  startAt: string;
  startFrame: number;
  /** The last time the server saw it on air (`seen`), or null when it has not since it began. */
  seenAt: string | null;
}

/** How the server ends an interval it did not see cleared: at its stop, or (inferred) after it died. */
export interface IntervalClose {
  id: string;
  endAt: string;
  endFrame: number;
  inferred: boolean;
}

/** Where a painted frame falls: the interval of that layer, scene and item that was on air in it. */
export interface PaintedFrame {
  channelId: string;
  layer: number;
  sceneId: string;
  itemId: string | null;
  frame: number;
}

export interface IntervalFrames {
  id: string;
  startFrame: number;
  endFrame: number | null;
}

export interface AsRunStore {
  /** A channel's intervals that overlap [from, to) (an open one reaches to now), in the order they began. */
  list(channelId: string, query: AsRunQuery): Promise<AsRunPage>;
  /** Every open interval, of every channel. */
  listOpen(): Promise<OpenInterval[]>;
  /** Ends the given intervals (with no one who cleared them) and opens `started`, in one transaction. */
  close(ends: readonly IntervalClose[], started: readonly { channelId: string; start: AsRunStart }[]): Promise<void>;
  /** Every open interval was on air at `at`: what an inferred end will be, should the server die. */
  seen(at: string): Promise<void>;
  /** Output `outputId` painted interval `id` at `at`; false when there is no such interval. */
  confirm(id: string, outputId: string, at: string): Promise<boolean>;
  /** The interval a painted frame belongs to, among the layer's newest few, or undefined. */
  findPainted(painted: PaintedFrame): Promise<IntervalFrames | undefined>;
  /** Deletes intervals that ended before `olderThan` (ISO 8601); returns how many. */
  prune(olderThan: string): Promise<number>;
}
