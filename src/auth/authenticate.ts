/**
 * Turns a bearer credential into a Principal. Keys are looked up by the SHA-256 of the secret; a small
 * cache keeps the lookup off the hot path, and lastUsedAt is written at most once a minute per key.
 */
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import type { Grant, Principal } from './permissions.js';

const CACHE_LIMIT = 10_000;
const TOUCH_INTERVAL_MS = 60_000;

export interface Authenticator {
  /** Resolves the `Authorization` header value; throws unauthorized. */
  fromAuthorization(header: string | undefined): Promise<Principal>;
  fromApiKey(secret: string): Promise<Principal>;
  /** Forget cached keys (after a key is revoked). */
  invalidate(): void;
}

export function createAuthenticator(store: Store, now: () => number = Date.now): Authenticator {
  const cache = new Map<string, { key: ApiKeyRecord; principal: Principal; touchedAt: number }>();

  async function fromApiKey(secret: string): Promise<Principal> {
    const hash = sha256Hex(secret);
    let entry = cache.get(hash);
    if (!entry) {
      const key = await store.findKeyByHash(hash);
      if (!key || key.revokedAt) throw unauthorized();
      entry = { key, principal: toPrincipal(key), touchedAt: 0 };
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(hash, entry);
    }
    const t = now();
    if (t - entry.touchedAt >= TOUCH_INTERVAL_MS) {
      entry.touchedAt = t;
      await store.touchKey(entry.key.id, new Date(t).toISOString());
    }
    return entry.principal;
  }

  return {
    fromApiKey,
    async fromAuthorization(header) {
      const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match?.[1]) throw unauthorized();
      return fromApiKey(match[1]);
    },
    invalidate: () => cache.clear(),
  };
}

function toPrincipal(key: ApiKeyRecord): Principal {
  return {
    kind: 'key',
    keyId: key.id,
    orgId: key.orgId,
    grants: new Set(key.permissions as Grant[]),
    channelIds: key.channelIds ? new Set(key.channelIds) : null,
  };
}

function unauthorized(): AppError {
  return new AppError('unauthorized', 'Send a valid API key as "Authorization: Bearer onair_sk_…".');
}
