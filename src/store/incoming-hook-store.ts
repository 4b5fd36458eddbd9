/**
 * Incoming webhooks in storage: each hook of a channel (its URL token kept only as a SHA-256 hash, its
 * signing secret sealed) and its last deliveries (docs/incoming-hooks.md).
 *
 * Guarantees every implementation keeps (incoming-hook-store.contract.ts runs against each), besides Store's
 * (durable when the promise resolves):
 * - A token hash finds at most one hook; deleting a hook (or its channel) deletes it and its log.
 * - logDelivery keeps the newest `keep` lines of a hook and drops older ones in the same transaction; so does
 *   logRefusal with its own lines, so refused posts never push accepted ones out.
 * - logRefusal folds lines of the same second into one: the first line's details stay, the counts add up
 *   (several nodes writing the same second end with one line).
 * - claimPost is atomic per key across every node sharing the store: of posts claiming the same key while it has
 *   not expired, exactly one succeeds; a claim that fails takes none of its keys.
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
  /** The signing secret, sealed (src/crypto/secret-box.ts), when the hook has one. */
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

/** Posts refused before they were read (rate limited, bad signature, replayed), folded one line per second. */
export interface HookRefusalRecord {
  /** The second the refusals fall in (ISO 8601, milliseconds 000). */
  at: string;
  /** The first refusal of that second: its status, `code: detail`, and the start of its body. */
  status: number;
  error: string;
  payload: string;
  /** How many posts were refused in that second (the first included). */
  count: number;
}

/** A replay key (a signature, a delivery id) a signed post claims, remembered until `expiresAt` (epoch ms). */
export interface PostClaim {
  key: string;
  expiresAt: number;
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
  /** Adds `entry.count` refusals to the line of `entry.at` (creating it), keeping the newest `keep` lines. */
  logRefusal(hookId: string, entry: HookRefusalRecord, keep: number): Promise<void>;
  /** The hook's refusal lines, newest second first. */
  listRefusals(hookId: string): Promise<HookRefusalRecord[]>;
  /**
   * Claims every key for the hook, or none: answers null when all were free (absent, or expired at `now`), else
   * the first key (in the order given) that another post holds. A hook deleted meanwhile claims nothing (null).
   */
  claimPost(hookId: string, claims: PostClaim[], now: number): Promise<string | null>;
  /** Frees keys a post claimed (it applied nothing, so the same post may come again). */
  releasePost(hookId: string, keys: string[]): Promise<void>;
  /** Deletes the keys expired at `now`, of every hook; answers how many. */
  pruneClaims(now: number): Promise<number>;
}
