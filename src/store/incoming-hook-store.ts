/**
 * Incoming webhooks in storage: each hook of a channel (its URL token kept only as a SHA-256 hash, its
 * signing secret sealed) and its last deliveries (docs/incoming-hooks.md).
 *
 * Guarantees every implementation keeps (incoming-hook-store.contract.ts runs against each), besides Store's
 * (durable when the promise resolves):
 * - A token hash finds at most one hook; deleting a hook (or its channel) deletes it and its log.
 * - logDelivery keeps the newest `keep` lines of a hook and drops older ones in the same transaction.
 */

export interface IncomingHookRecord {
  id: string;
  orgId: string;
  channelId: string;
  name: string;
  /** SHA-256 hex of the URL token; the token itself is never stored. */
  tokenHash: string;
  /** Field path → input name; empty: every field names its input. */
  mapping: Record<string, string>;
  requireSignature: boolean;
  /** The signing secret, sealed (webhooks/secret-box.ts), when the hook has one. */
  sealedSecret: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface HookDeliveryRecord {
  at: string;
  status: number;
  applied: Record<string, unknown>;
  ignored: string[];
  error: string | null;
  /** The start of the body as received (at most a few KiB). */
  payload: string;
  dryRun: boolean;
}

export type HookChanges = Partial<Pick<IncomingHookRecord, 'name' | 'mapping'>> & { updatedAt: string };

export interface IncomingHookStore {
  insertHook(hook: IncomingHookRecord): Promise<void>;
  getHook(id: string): Promise<IncomingHookRecord | undefined>;
  findHookByTokenHash(hash: string): Promise<IncomingHookRecord | undefined>;
  /** A channel's hooks in creation order. */
  listHooks(channelId: string): Promise<IncomingHookRecord[]>;
  updateHook(id: string, changes: HookChanges): Promise<void>;
  deleteHook(id: string): Promise<void>;
  logDelivery(hookId: string, entry: HookDeliveryRecord, keep: number): Promise<void>;
  /** The hook's log, newest first. */
  listDeliveries(hookId: string): Promise<HookDeliveryRecord[]>;
}
