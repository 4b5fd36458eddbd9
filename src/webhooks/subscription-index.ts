/**
 * The enabled subscriptions in memory, by workspace, with their secrets opened: the dispatcher matches every
 * event against them and the worker signs with them, without a read per event. The subscriptions service
 * keeps it in step with storage (create, delete, disable).
 */
import type { EngineEvent } from '../engine/index.js';
import type { SubscriptionRecord } from '../store/webhook-store.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { AttemptTarget } from './send-attempt.js';

export interface LiveSubscription extends AttemptTarget {
  id: string;
  orgId: string;
  events: ReadonlySet<string> | null;
  channelId: string | null;
  /** What the secrets were opened from: a record with other sealed values replaces this one. */
  sealed: string;
}

/** A subscription's secrets, opened: the current one and, after a roll, the previous one with its expiry. */
export function openSecrets(
  box: SecretBox,
  record: SubscriptionRecord,
): Pick<AttemptTarget, 'secret' | 'previousSecret'> {
  const previous = record.previousSecret;
  return {
    secret: box.open(record.sealedSecret, record.id),
    previousSecret: previous
      ? { secret: box.open(previous.sealed, record.id), expiresAtMs: Date.parse(previous.expiresAt) }
      : null,
  };
}

const sealedOf = (r: SubscriptionRecord) =>
  [r.sealedSecret, r.previousSecret?.sealed ?? '', r.previousSecret?.expiresAt ?? ''].join(' ');

export class SubscriptionIndex {
  private readonly byOrg = new Map<string, LiveSubscription[]>();
  private readonly byId = new Map<string, LiveSubscription>();

  /**
   * `onChange`: a subscription was added or removed (several nodes tell each other). `onRemove`: this one left
   * (deleted, disabled, or gone on another node): the worker forgets its slots and closes its connections.
   */
  constructor(
    private readonly box: SecretBox,
    private readonly onChange: () => void = () => {},
    private readonly onRemove: (id: string) => void = () => {},
  ) {}

  add(record: SubscriptionRecord): void {
    if (record.status !== 'enabled' || this.byId.has(record.id)) return;
    const live = this.live(record);
    this.byId.set(live.id, live);
    const list = this.byOrg.get(live.orgId);
    if (list) list.push(live);
    else this.byOrg.set(live.orgId, [live]);
    this.onChange();
  }

  /** Adds `record`, or takes its secrets in place of those held for its id (a roll); a disabled one leaves. */
  put(record: SubscriptionRecord): void {
    const held = this.byId.get(record.id);
    if (record.status !== 'enabled') return this.remove(record.id);
    if (!held) return this.add(record);
    if (held.sealed === sealedOf(record)) return;
    Object.assign(held, openSecrets(this.box, record), { sealed: sealedOf(record) });
    this.onChange();
  }

  private live(record: SubscriptionRecord): LiveSubscription {
    return {
      id: record.id,
      orgId: record.orgId,
      url: record.url,
      events: record.events.length === 0 ? null : new Set(record.events),
      channelId: record.channelId,
      sealed: sealedOf(record),
      ...openSecrets(this.box, record),
    };
  }

  remove(id: string): void {
    const live = this.byId.get(id);
    if (!live) return;
    this.byId.delete(id);
    const rest = (this.byOrg.get(live.orgId) ?? []).filter((s) => s.id !== id);
    if (rest.length > 0) this.byOrg.set(live.orgId, rest);
    else this.byOrg.delete(live.orgId);
    this.onRemove(id);
    this.onChange();
  }

  get(id: string): LiveSubscription | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<LiveSubscription> {
    return this.byId.values();
  }

  /** The enabled subscriptions, one list per workspace (in the order they were added). */
  workspaces(): LiveSubscription[][] {
    return [...this.byOrg.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  /** The subscriptions an event goes to: its workspace's, whose type list and channel limit match. */
  matching(event: EngineEvent): LiveSubscription[] {
    const list = this.byOrg.get(event.orgId);
    if (!list) return [];
    return list.filter(
      (s) =>
        (s.events === null || s.events.has(event.type)) && (s.channelId === null || s.channelId === event.channelId),
    );
  }
}
