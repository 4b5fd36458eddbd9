/**
 * When this node tells the other nodes about its outputs of a channel (docs/outputs.md, "Several nodes"): soon after
 * they change, at most once per SHARE_EVERY_MS, and every SHARE_ALIVE_MS while it has any, so that the others can
 * tell a silent node from one whose outputs did not change.
 */
import { SHARE_ALIVE_MS } from './remote-outputs.js';

export const SHARE_EVERY_MS = 500;

export class ShareSchedule {
  private readonly dirty = new Set<string>();
  private readonly sharedAt = new Map<string, number>();

  changed(channelId: string): void {
    this.dirty.add(channelId);
  }

  /** The channels to share now; `held` are the channels this node has outputs (or refused pages) of. */
  due(now: number, held: Iterable<string>): string[] {
    const due = new Set<string>();
    const since = (id: string) => now - (this.sharedAt.get(id) ?? -Infinity);
    for (const id of this.dirty) if (since(id) >= SHARE_EVERY_MS) due.add(id);
    for (const id of held) if (since(id) >= SHARE_ALIVE_MS) due.add(id);
    for (const id of due) {
      this.dirty.delete(id);
      this.sharedAt.set(id, now);
    }
    return [...due];
  }

  /** Nothing more to share of the channel (its empty summary went out). */
  forget(channelId: string): void {
    if (!this.dirty.has(channelId)) this.sharedAt.delete(channelId);
  }
}
