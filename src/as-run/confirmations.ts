/**
 * Outputs confirming what they painted (docs/as-run.md, "Confirmations"): each report of a frame an output drew, per
 * layer, names the interval it belongs to, whose first confirmation time and list of outputs the store keeps.
 *
 * Reports arrive several times a second per output and say the same thing while nothing changes, so the intervals
 * are known here (the last few of each layer, from the ticks this node commits) and an output already counted for
 * one costs nothing. A frame of an interval not known here (a channel ticked by another node, an older interval) is
 * looked for in the store, at most once a second per output and layer.
 */
import type { Logger } from 'pino';
import type { AsRunChange, Engine } from '../engine/index.js';
import { repeatedOnce } from '../logger.js';
import { MAX_CONFIRMING_OUTPUTS, type AsRunStore } from '../store/as-run-store.js';

/** What an output painted: on `layer` of its channel, that scene (and item) in `frame`, at `at`. */
export interface Confirmation {
  channelId: string;
  outputId: string;
  layer: number;
  sceneId: string;
  itemId: string | null;
  /** The channel's frame the output drew. */
  frame: number;
  /** When it drew it: epoch milliseconds, or ISO 8601. */
  at: number | string;
}

/** Intervals kept per layer: the open one and those just before it (a report may come after the next take). */
const KEPT = 4;
const LOOKUP_EVERY_MS = 1000;
/** Lookups remembered at most; past it the memory starts again. */
const LOOKUPS_KEPT = 10_000;

interface Known {
  id: string;
  sceneId: string;
  itemId: string | null;
  startFrame: number;
  endFrame: number | null;
  /** Ended or not, the interval is known to run at least to this frame (inclusive). */
  seenTo: number;
  /** Opened by a tick of this node: its end will be heard of while this node ticks the channel. */
  local: boolean;
  outputs: Set<string>;
}

export interface ConfirmationDeps {
  store: AsRunStore;
  engine: Pick<Engine, 'ticks'>;
  logger: Logger;
  now: () => number;
}

export class Confirmations {
  private readonly layers = new Map<string, Known[]>();
  private readonly lookups = new Map<string, number>();
  private readonly failed: (err: unknown, context: { intervalId?: string }) => void;

  constructor(private readonly deps: ConfirmationDeps) {
    this.failed = repeatedOnce((err, ctx, repeats) =>
      deps.logger.warn({ err, ...ctx, ...(repeats ? { repeats } : {}) }, 'as-run confirmation not recorded'),
    );
  }

  /** A tick of this node wrote these lines (the engine's onAsRun), or a restart began them. */
  committed(channelId: string, asRun: AsRunChange): void {
    for (const e of asRun.ended) {
      const open = this.layers.get(key(channelId, e.layer))?.find((k) => k.endFrame === null);
      if (open) open.endFrame = e.endFrame;
    }
    for (const s of asRun.started) {
      this.add(channelId, s.layer, { ...s, endFrame: null, seenTo: s.startFrame, local: true });
    }
  }

  /** Records the confirmation in the interval it belongs to; never rejects (a failure is logged). */
  async confirm(c: Confirmation): Promise<void> {
    const at = new Date(c.at);
    if (!Number.isSafeInteger(c.frame) || !Number.isSafeInteger(c.layer) || Number.isNaN(at.getTime())) return;
    try {
      const known = this.find(c) ?? (await this.lookUp(c));
      if (!known || known.outputs.has(c.outputId) || known.outputs.size >= MAX_CONFIRMING_OUTPUTS) return;
      known.outputs.add(c.outputId);
      const recorded = await this.deps.store.confirm(known.id, c.outputId, at.toISOString()).catch((err: unknown) => {
        known.outputs.delete(c.outputId);
        throw err;
      });
      if (!recorded) this.forget(c.channelId, c.layer, known.id);
    } catch (err) {
      this.failed(err, {});
    }
  }

  private find(c: Confirmation): Known | undefined {
    return this.layers.get(key(c.channelId, c.layer))?.find((k) => {
      if (k.sceneId !== c.sceneId || k.itemId !== c.itemId || c.frame < k.startFrame) return false;
      if (k.endFrame !== null) return c.frame < k.endFrame;
      // Still open as far as this node knows: certain only while its ticks would have ended it.
      return c.frame <= k.seenTo || (k.local && this.deps.engine.ticks(c.channelId));
    });
  }

  private async lookUp(c: Confirmation): Promise<Known | undefined> {
    const ask = `${key(c.channelId, c.layer)}\u0000${c.outputId}`;
    const now = this.deps.now();
    const last = this.lookups.get(ask);
    if (last !== undefined && now - last < LOOKUP_EVERY_MS) return undefined;
    if (this.lookups.size >= LOOKUPS_KEPT) this.lookups.clear();
    this.lookups.set(ask, now);
    const found = await this.deps.store.findPainted(c);
    if (!found) return undefined;
    const list = this.layers.get(key(c.channelId, c.layer));
    const same = list?.find((k) => k.id === found.id);
    if (same) {
      same.endFrame = found.endFrame;
      same.seenTo = Math.max(same.seenTo, c.frame);
      return same;
    }
    const known = {
      ...found,
      sceneId: c.sceneId,
      itemId: c.itemId,
      seenTo: c.frame,
      local: false,
      outputs: new Set<string>(),
    };
    this.add(c.channelId, c.layer, known);
    return known;
  }

  private add(channelId: string, layer: number, k: Omit<Known, 'outputs'> & { outputs?: Set<string> }): void {
    const list = this.layers.get(key(channelId, layer)) ?? [];
    const { id, sceneId, itemId, startFrame, endFrame, seenTo, local } = k;
    list.push({ id, sceneId, itemId, startFrame, endFrame, seenTo, local, outputs: k.outputs ?? new Set() });
    list.sort((a, b) => a.startFrame - b.startFrame);
    this.layers.set(key(channelId, layer), list.slice(-KEPT));
  }

  private forget(channelId: string, layer: number, id: string): void {
    const list = this.layers.get(key(channelId, layer));
    if (list)
      this.layers.set(
        key(channelId, layer),
        list.filter((k) => k.id !== id),
      );
  }
}

const key = (channelId: string, layer: number) => `${channelId}\u0000${layer}`;
