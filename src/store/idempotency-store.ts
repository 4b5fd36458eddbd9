/**
 * Idempotency keys (docs/api.md, "Idempotent requests"): what a request sent with an `Idempotency-Key` answered,
 * kept for 24 hours so a retry gets the first answer instead of acting twice.
 *
 * Guarantees every implementation keeps (idempotency-store.contract.ts runs against each):
 * - claim is atomic: of any number of concurrent claims for one scope and key, exactly one is `claimed`; the
 *   others see the record it made.
 * - A record older than `expiredBefore` counts as absent: claiming it replaces it.
 * - A completed record keeps its response until pruned; release removes a pending one, so the key may be
 *   claimed again (a refused request, such as a 429, did nothing worth replaying).
 * - Every method's effect is durable when its promise resolves.
 */

export interface StoredResponse {
  status: number;
  /** The few headers a replay repeats (content-type, location). */
  headers: Record<string, string>;
  /** The body as the caller stored it (the API seals it: it may hold a secret shown once). */
  body: string;
}

export interface IdempotencyRecord {
  /** What the first request was (method, path, body), to refuse the key's reuse for another request. */
  fingerprint: string;
  /** The server process that claimed it: a pending record of another process was cut off by a restart. */
  owner: string;
  createdAt: string;
  /** null while the first request is still running. */
  response: StoredResponse | null;
}

export type Claim = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyClaim {
  /** Who sent it: a key's or a user's id within a workspace. Keys of different scopes never meet. */
  scope: string;
  key: string;
  fingerprint: string;
  owner: string;
  now: string;
  /** Records created before this are expired. */
  expiredBefore: string;
}

export interface IdempotencyStore {
  claim(claim: IdempotencyClaim): Promise<Claim>;
  /** Stores the answer of a claimed key. */
  complete(scope: string, key: string, response: StoredResponse): Promise<void>;
  /** Forgets a claimed key whose request should not be replayed. */
  release(scope: string, key: string): Promise<void>;
  /** Deletes records created before `before`; returns how many. */
  prune(before: string): Promise<number>;
}
