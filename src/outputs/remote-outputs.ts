/**
 * What the other nodes say of a channel's outputs (docs/outputs.md, "Several nodes"): each node shares a summary of
 * the outputs connected to it when they change and every SHARE_ALIVE_MS; this keeps the latest summary per node and
 * channel, and forgets a node that has not spoken for REMOTE_TTL_MS (a node that died takes its outputs with it).
 */
import type { OutputView, RefusedOutputs } from '@onair/protocol';
import { byHealth, byId } from './output-order.js';

/** A node shares its summaries at least this often while it has outputs. */
export const SHARE_ALIVE_MS = 5_000;
/** A node silent this long (three missed shares) is no longer counted. */
export const REMOTE_TTL_MS = 15_000;

/** One node's outputs of one channel. */
export interface OutputsSummary {
  channelId: string;
  /** Its listed outputs (its least healthy SUMMARY_OUTPUTS when it has more). */
  views: OutputView[];
  /** How many outputs it has listed. */
  total: number;
  refused: RefusedOutputs | null;
  /** Its outputs drawing the program bus. */
  programOutputs: number;
  /** The on-air instances (OnAirWatch keys) its program outputs painted. */
  painted: string[];
}

export function emptySummary(channelId: string): OutputsSummary {
  return { channelId, views: [], total: 0, refused: null, programOutputs: 0, painted: [] };
}

/** Outputs listed in one summary: a node with more shares its least healthy. */
export const SUMMARY_OUTPUTS = 500;

interface Heard {
  summary: OutputsSummary;
  at: number;
}

export class RemoteOutputs {
  private readonly byChannel = new Map<string, Map<string, Heard>>();

  /** Keeps `node`'s summary (an empty one forgets the node for that channel). */
  put(node: string, summary: OutputsSummary, now: number): void {
    const nodes = this.byChannel.get(summary.channelId) ?? new Map<string, Heard>();
    if (summary.total === 0 && summary.refused === null) nodes.delete(node);
    else nodes.set(node, { summary, at: now });
    if (nodes.size > 0) this.byChannel.set(summary.channelId, nodes);
    else this.byChannel.delete(summary.channelId);
  }

  /** The other nodes' current summaries of the channel, by node id. */
  of(channelId: string): ReadonlyMap<string, OutputsSummary> {
    const out = new Map<string, OutputsSummary>();
    for (const [node, heard] of this.byChannel.get(channelId) ?? []) out.set(node, heard.summary);
    return out;
  }

  /**
   * Of the other nodes with program outputs of the channel: how many they have, the instances they painted, and
   * whether one of them has an id smaller than `self` (that one judges the channel's unconfirmed alerts).
   */
  programElsewhere(channelId: string, self: string): { outputs: number; painted: Set<string>; judgedThere: boolean } {
    const found = { outputs: 0, painted: new Set<string>(), judgedThere: false };
    for (const [node, { summary }] of this.byChannel.get(channelId) ?? []) {
      if (summary.programOutputs === 0) continue;
      found.outputs += summary.programOutputs;
      found.judgedThere ||= node < self;
      for (const key of summary.painted) found.painted.add(key);
    }
    return found;
  }

  channels(): string[] {
    return [...this.byChannel.keys()];
  }

  forget(channelId: string): void {
    this.byChannel.delete(channelId);
  }

  /** Drops the summaries of nodes silent for REMOTE_TTL_MS; returns the channels that lost some. */
  expire(now: number): string[] {
    const changed: string[] = [];
    for (const [channelId, nodes] of this.byChannel) {
      for (const [node, heard] of nodes) {
        if (now - heard.at < REMOTE_TTL_MS) continue;
        nodes.delete(node);
        if (!changed.includes(channelId)) changed.push(channelId);
      }
      if (nodes.size === 0) this.byChannel.delete(channelId);
    }
    return changed;
  }
}

/** This node's part of a channel's outputs, as the merged views read it. */
export interface LocalOutputs {
  views(): OutputView[];
  worst(max: number): OutputView[];
  listed(): readonly unknown[];
  refused: RefusedOutputs | null;
}

/** Every node's outputs of a channel in connection order, and their refused pages as one. */
export function allOutputs(
  local: LocalOutputs | undefined,
  remote: readonly OutputsSummary[],
): { data: OutputView[]; refused: RefusedOutputs | null } {
  const data = [...(local?.views() ?? []), ...remote.flatMap((s) => s.views)].sort(byId);
  return { data, refused: mergeRefused([local?.refused ?? null, ...remote.map((s) => s.refused)]) };
}

/** Every node's `max` least healthy outputs of a channel, how many there are in all, and their refused pages. */
export function worstOutputs(
  local: LocalOutputs | undefined,
  remote: readonly OutputsSummary[],
  max: number,
): { outputs: OutputView[]; total: number; refused: RefusedOutputs | null } {
  const outputs = [...(local?.worst(max) ?? []), ...remote.flatMap((s) => s.views)].sort(byHealth).slice(0, max);
  const total = (local?.listed().length ?? 0) + remote.reduce((n, s) => n + s.total, 0);
  return { outputs, total, refused: mergeRefused([local?.refused ?? null, ...remote.map((s) => s.refused)]) };
}

/** The refused pages of several nodes as one: counts added, the latest one shown. */
export function mergeRefused(all: readonly (RefusedOutputs | null)[]): RefusedOutputs | null {
  let merged: RefusedOutputs | null = null;
  for (const r of all) {
    if (r === null) continue;
    if (merged === null) merged = { ...r };
    else {
      const latest: RefusedOutputs = r.lastAt > merged.lastAt ? r : merged;
      merged = { count: merged.count + r.count, lastAt: latest.lastAt, lastAddress: latest.lastAddress };
    }
  }
  return merged;
}
