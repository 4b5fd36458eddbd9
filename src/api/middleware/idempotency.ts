/**
 * `Idempotency-Key` on POST (docs/api.md, "Idempotent requests"): the first request with a key runs and, when it
 * succeeds, its answer is kept for 24 hours; a repeat with the same key and the same request gets that answer
 * again (`Idempotent-Replayed: true`) without acting twice, so a client may retry a create after a timeout or a
 * dropped connection. The same key with another request, or while the first is still running, is 409 conflict.
 *
 * Keys are per caller (API key, or user in a workspace). The claim is written before the request runs: a request
 * cut off by a crash leaves it pending, and its key then answers 409 rather than risk creating twice. Answers
 * are sealed (they may hold a secret shown once). Only 2xx answers are kept: a refused request (400, 404, 429…)
 * did nothing, and its retry runs again.
 *
 * A replay is authorised as the caller is now: every route runs `idempotent(check)` before its guard, with the
 * check its guard makes (permission, channel, session or owner; not the rate limit, which a replay does not
 * count against), so a caller demoted since the first request is refused what it may no longer do. An answer
 * that cannot be opened any more (the database restored without its secret.key) is not an answer: the request
 * runs as new, with a warning in the log.
 */
import crypto from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Principal } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import { IDEMPOTENCY_RETENTION_MS } from '../../store/event-retention.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../store/idempotency-store.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { ApiEnv } from '../env.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Visible ASCII, as Stripe and the IETF draft allow; long enough for a UUID with a prefix. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['content-type', 'location'];

export interface IdempotencyDeps {
  store: IdempotencyStore;
  box: SecretBox;
  now?: () => number;
}

/** Throws the AppError the route's guard would for this caller now (403, 404); rate limits aside. */
export type ReplayCheck = (c: Context<ApiEnv>) => void | Promise<void>;

/** Runs or replays one request; set on the context for the routes by `idempotency()`. */
export type IdempotencyKeeper = (c: Context<ApiEnv>, next: Next, check: ReplayCheck) => Promise<Response | void>;

/** Gives the routes below the server's keeper (one per app: its claims say which process made them). */
export function idempotency(deps: IdempotencyDeps): MiddlewareHandler<ApiEnv> {
  const keeper = createKeeper(deps);
  return async (c, next) => {
    c.set('idempotency', keeper);
    await next();
  };
}

/** On a route, before its guard: applies an Idempotency-Key, replaying only what `check` lets the caller have. */
export function idempotent(check: ReplayCheck): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const keeper = c.get('idempotency') as IdempotencyKeeper | undefined;
    return keeper ? keeper(c, next, check) : next();
  };
}

interface Request {
  scope: string;
  key: string;
  fingerprint: string;
}

function createKeeper(deps: IdempotencyDeps): IdempotencyKeeper {
  // Claims of this process; a pending claim of another one was cut off by a restart.
  const owner = crypto.randomUUID();
  const now = deps.now ?? Date.now;
  const claim = (req: Request, expiredBefore: number) => {
    const at = now();
    const iso = (ms: number) => new Date(ms).toISOString();
    return deps.store.claim({
      ...req,
      owner,
      now: iso(at),
      expiredBefore: iso(Math.max(expiredBefore, at - IDEMPOTENCY_RETENTION_MS)),
    });
  };
  return async (c, next, check) => {
    const req = requestOf(c);
    if (!req) return next();
    let expiredBefore = 0;
    // At most twice: a second claim only after an answer that could not be opened.
    for (let tries = 0; tries < 2; tries++) {
      const claimed = await claim(req, expiredBefore);
      if (claimed.claimed) return runAndKeep(deps.store, deps.box, c, next, req);
      await check(c);
      refuseConflicts(claimed.record, req, owner);
      const replay = replayOf(deps.box, claimed.record, req);
      if (replay) return replay;
      c.get('log').warn(
        { idempotencyKey: req.key },
        'the kept answer of an idempotent request cannot be opened (secret.key changed): running it as new',
      );
      // Replaces exactly this record: a request that took it over meanwhile made a newer one.
      expiredBefore = Date.parse(claimed.record.createdAt) + 1;
    }
    throw new AppError('conflict', 'A request with this Idempotency-Key is still running: retry when it has answered.');
  };
}

/** The key, its scope and the request's fingerprint; null when the request takes no key. */
function requestOf(c: Context<ApiEnv>): Request | null {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const principal = c.get('principal') as Principal | undefined;
  if (c.req.method !== 'POST' || key === undefined || principal === undefined || principal.kind === 'output') {
    return null;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1–255 visible ASCII characters.', {
      errors: [{ path: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }],
    });
  }
  const scope = principal.kind === 'key' ? `key:${principal.keyId}` : `user:${principal.userId}:${principal.orgId}`;
  const url = new URL(c.req.url);
  const fingerprint = crypto
    .createHash('sha256')
    .update(`POST ${url.pathname}${url.search}\n${JSON.stringify(c.get('body') ?? null)}`)
    .digest('hex');
  return { scope, key, fingerprint };
}

function refuseConflicts(record: IdempotencyRecord, req: Request, owner: string): void {
  if (record.response === null) {
    throw new AppError(
      'conflict',
      record.owner === owner
        ? 'A request with this Idempotency-Key is still running: retry when it has answered.'
        : 'A request with this Idempotency-Key was cut off by a server restart, so whether it took effect is unknown: check, then retry with a new key.',
    );
  }
  if (record.fingerprint !== req.fingerprint) {
    throw new AppError(
      'conflict',
      'This Idempotency-Key was used for a different request (method, path or body) in the last 24 hours: use a new key for a new request.',
    );
  }
}

/** The kept answer again; null when it cannot be opened (sealed with another key). */
function replayOf(box: SecretBox, record: IdempotencyRecord, req: Request): Response | null {
  const { status, headers, body } = record.response!;
  let text: string | null = null;
  if (body.length > 0) {
    try {
      text = box.open(body, `${req.scope}\n${req.key}`);
    } catch {
      return null;
    }
  }
  return new Response(text, { status, headers: { ...headers, [REPLAYED_HEADER]: 'true' } });
}

async function runAndKeep(
  store: IdempotencyStore,
  box: SecretBox,
  c: Context<ApiEnv>,
  next: Next,
  req: Request,
): Promise<void> {
  let kept = false;
  try {
    await next();
    const res = c.res;
    if (res.status >= 200 && res.status < 300) {
      const text = await res.clone().text();
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      // The request took effect: its answer goes out even if storage refuses to keep it (a full disk). The
      // claim then stays pending, and a retry with the key gets 409 rather than a second create.
      kept = true;
      await store
        .complete(req.scope, req.key, {
          status: res.status,
          headers,
          body: text.length === 0 ? '' : box.seal(text, `${req.scope}\n${req.key}`),
        })
        .catch((err: unknown) => c.get('log').warn({ err }, 'could not keep the answer of an idempotent request'));
    }
  } finally {
    if (!kept) await store.release(req.scope, req.key);
  }
}
