/**
 * Turns a request's credential into a Principal: a bearer API key, or a dashboard session cookie acting
 * in one workspace (`X-Workspace`, default the first). Keys are looked up by the SHA-256 of the secret; a
 * small cache keeps the lookup off the hot path, and lastUsedAt is written at most once a minute per key.
 */
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import type { SessionRecord } from '../store/account-store.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { ROLE_GRANTS, type Grant, type Principal } from './permissions.js';
import { readSessionCookie } from './sessions.js';

const CACHE_LIMIT = 10_000;
const TOUCH_INTERVAL_MS = 60_000;

export interface Credentials {
  authorization: string | undefined;
  cookie: string | undefined;
  workspace: string | undefined;
}

export interface Authenticator {
  /** Bearer key first, then the session cookie; throws unauthorized. */
  fromRequest(credentials: Credentials): Promise<Principal>;
  fromAuthorization(header: string | undefined): Promise<Principal>;
  fromApiKey(secret: string): Promise<Principal>;
  /** The live session a cookie header carries, whatever the user's workspaces; undefined when none. */
  sessionOf(cookie: string | undefined): Promise<SessionRecord | undefined>;
  /**
   * The principal of a bearer key already in the cache and not due a lastUsedAt write, without a promise;
   * undefined otherwise (then call fromRequest). For the hottest route.
   */
  cachedBearer(authorization: string | undefined): Principal | undefined;
  /** A key was revoked: forget cached keys and tell listeners (open WebSockets close). */
  revoked(keyId: string): void;
  onRevoked(listener: (keyId: string) => void): () => void;
}

/**
 * `cacheTtlMs`: how long a key stays cached before it is read again. One node needs no limit (a revocation clears the
 * cache at once); several nodes use 1 s, so a revocation announcement that went missing costs at most a second.
 */
export function createAuthenticator(
  store: Store,
  now: () => number = Date.now,
  options: { cacheTtlMs?: number } = {},
): Authenticator {
  const ttl = options.cacheTtlMs ?? Infinity;
  const cache = new Map<string, { key: ApiKeyRecord; principal: Principal; touchedAt: number; cachedAt: number }>();
  const revokeListeners = new Set<(keyId: string) => void>();

  async function fromApiKey(secret: string): Promise<Principal> {
    const hash = sha256Hex(secret);
    let entry = cache.get(hash);
    if (entry && now() - entry.cachedAt >= ttl) {
      cache.delete(hash);
      entry = undefined;
    }
    if (!entry) {
      const key = await store.findKeyByHash(hash);
      if (!key || key.revokedAt) throw unauthorized();
      entry = { key, principal: keyPrincipal(key), touchedAt: 0, cachedAt: now() };
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

  async function fromAuthorization(header: string | undefined): Promise<Principal> {
    const secret = bearerSecret(header);
    if (!secret) throw unauthorized();
    return fromApiKey(secret);
  }

  function cachedBearer(header: string | undefined): Principal | undefined {
    const secret = bearerSecret(header);
    const entry = secret ? cache.get(sha256Hex(secret)) : undefined;
    if (!entry || now() - entry.touchedAt >= TOUCH_INTERVAL_MS || now() - entry.cachedAt >= ttl) return undefined;
    return entry.principal;
  }

  async function sessionOf(cookie: string | undefined): Promise<SessionRecord | undefined> {
    const token = readSessionCookie(cookie);
    if (!token) return undefined;
    const session = await store.accounts.findSession(sha256Hex(token));
    return session && session.expiresAt > new Date(now()).toISOString() ? session : undefined;
  }

  async function fromSession(cookie: string, workspace: string | undefined): Promise<Principal> {
    const session = await sessionOf(cookie);
    if (!session) throw unauthorized('Your session has expired; log in again.');
    const [memberships, user] = await Promise.all([
      store.accounts.membershipsOf(session.userId),
      store.accounts.getUser(session.userId),
    ]);
    const m = workspace ? memberships.find((x) => x.orgId === workspace) : memberships[0];
    if (!m)
      throw new AppError(
        workspace ? 'not_found' : 'forbidden',
        workspace ? `Workspace ${workspace} does not exist.` : 'You are not a member of any workspace.',
      );
    return {
      kind: 'user',
      userId: session.userId,
      email: user?.email ?? '',
      sessionId: session.hash,
      role: m.role,
      orgId: m.orgId,
      grants: new Set(ROLE_GRANTS[m.role]),
      channelIds: null,
    };
  }

  return {
    fromApiKey,
    fromAuthorization,
    cachedBearer,
    sessionOf,
    async fromRequest({ authorization, cookie, workspace }) {
      if (authorization) return fromAuthorization(authorization);
      if (cookie && readSessionCookie(cookie)) return fromSession(cookie, workspace);
      throw unauthorized();
    },
    revoked(keyId) {
      cache.clear();
      for (const listener of revokeListeners) listener(keyId);
    },
    onRevoked(listener) {
      revokeListeners.add(listener);
      return () => revokeListeners.delete(listener);
    },
  };
}

function bearerSecret(header: string | undefined): string | undefined {
  return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

function keyPrincipal(key: ApiKeyRecord): Principal {
  return {
    kind: 'key',
    keyId: key.id,
    name: key.name,
    orgId: key.orgId,
    grants: new Set(key.permissions as Grant[]),
    channelIds: key.channelIds ? new Set(key.channelIds) : null,
  };
}

function unauthorized(detail = 'Send a valid API key as "Authorization: Bearer onair_sk_…", or log in.'): AppError {
  return new AppError('unauthorized', detail);
}
