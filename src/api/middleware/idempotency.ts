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
 */
import crypto from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Principal } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import { IDEMPOTENCY_RETENTION_MS } from '../../store/event-retention.js';
import type { IdempotencyStore } from '../../store/idempotency-store.js';
import type { SecretBox } from '../../webhooks/secret-box.js';
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

export function idempotency(deps: IdempotencyDeps): MiddlewareHandler<ApiEnv> {
  // Claims of this process; a pending claim of another one was cut off by a restart.
  const owner = crypto.randomUUID();
  const now = deps.now ?? Date.now;
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    const principal = c.get('principal') as Principal | undefined;
    if (c.req.method !== 'POST' || key === undefined || principal === undefined || principal.kind === 'output')
      return next();
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
    const at = now();
    const claim = await deps.store.claim({
      scope,
      key,
      fingerprint,
      owner,
      now: new Date(at).toISOString(),
      expiredBefore: new Date(at - IDEMPOTENCY_RETENTION_MS).toISOString(),
    });
    if (!claim.claimed) {
      const { record } = claim;
      if (record.response === null) {
        throw new AppError(
          'conflict',
          record.owner === owner
            ? 'A request with this Idempotency-Key is still running: retry when it has answered.'
            : 'A request with this Idempotency-Key was cut off by a server restart, so whether it took effect is unknown: check, then retry with a new key.',
        );
      }
      if (record.fingerprint !== fingerprint) {
        throw new AppError(
          'conflict',
          'This Idempotency-Key was used for a different request (method, path or body) in the last 24 hours: use a new key for a new request.',
        );
      }
      const { status, headers, body } = record.response;
      return new Response(body.length === 0 ? null : deps.box.open(body, `${scope}\n${key}`), {
        status,
        headers: { ...headers, [REPLAYED_HEADER]: 'true' },
      });
    }
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
        await deps.store
          .complete(scope, key, {
            status: res.status,
            headers,
            body: text.length === 0 ? '' : deps.box.seal(text, `${scope}\n${key}`),
          })
          .catch((err: unknown) => c.get('log').warn({ err }, 'could not keep the answer of an idempotent request'));
      }
    } finally {
      if (!kept) await deps.store.release(scope, key);
    }
  };
}
