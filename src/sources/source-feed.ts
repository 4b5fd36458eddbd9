/**
 * Who hears that a channel's data sources changed (the `sources` message of the real-time WebSocket): every write
 * on this node tells the feed — a source stored or deleted by the operations, a fetch recorded by a round — and the
 * feed tells its listeners at most once per CHANGED_EVERY_MS per channel, the last change always told. The message
 * is read from the store only when asked for, so a channel nobody follows costs no read.
 */
import type { SourceSummary, SourcesMessage } from '@onair/protocol';
import { ChangeThrottle } from '../outputs/change-throttle.js';
import type { SourceRecord, SourceStore } from '../store/source-store.js';

/** At most twice a second per channel. */
const CHANGED_EVERY_MS = 500;

export interface SourceFeed {
  /** Something of the channel's sources may have changed (written on this node). */
  changed(channelId: string): void;
  /** Called at most once per CHANGED_EVERY_MS per channel, after the changes it tells of. */
  onChanged(listener: (channelId: string) => void): () => void;
  /** The channel's sources now, in creation order. */
  message(channelId: string): Promise<SourcesMessage>;
  stop(): void;
}

export function createSourceFeed(store: Pick<SourceStore, 'listSources'>, now: () => number): SourceFeed {
  const changes = new ChangeThrottle(CHANGED_EVERY_MS, now);
  return {
    changed: (channelId) => changes.changed(channelId),
    onChanged: (listener) => changes.listen(listener),
    async message(channelId) {
      const sources = await store.listSources(channelId);
      return { type: 'sources', channelId, sources: sources.map(sourceSummary) };
    },
    stop: () => changes.stop(),
  };
}

/** What the message shows of a source: its state, not its configuration nor when it was last fetched. */
export function sourceSummary(s: SourceRecord): SourceSummary {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    paused: s.paused,
    state: s.paused ? 'paused' : s.state,
    lastError: s.lastError,
    lastChangeAt: s.lastChangeAt,
    cursor: s.row?.by === 'cursor' ? s.cursor : null,
  };
}
