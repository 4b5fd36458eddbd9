import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/permissions.js';
import { assertSameOrigin } from '../../http/same-origin.js';
import type { ApiEnv } from '../env.js';

/** Routes that answer without credentials (they check their own: a one-time token, a password). */
export const PUBLIC_PATHS = new Set([
  '/v1/openapi.json',
  '/v1/auth/setup',
  '/v1/auth/login',
  '/v1/auth/accept-invite',
  '/v1/auth/logout',
  '/v1/auth/reset-password',
]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every /v1 route but the public ones needs a principal; this sets it or answers 401. */
export function authenticate(auth: Authenticator): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    // Incoming webhooks: the token in the path is the credential, checked by the route.
    if (PUBLIC_PATHS.has(c.req.path) || c.req.path.startsWith('/v1/hooks/')) return next();
    c.set('principal', await principalOf(auth, c.req, c.req.method));
    return next();
  };
}

/**
 * Who a request acts as: a bearer key (from the cache when it is there, without a promise on the hot path), else
 * the session cookie in the workspace `X-Workspace` names; a session's writes must come from this server's own
 * pages (CSRF). Throws unauthorized, forbidden or not_found. Every request path authenticates with this.
 */
export async function principalOf(
  auth: Authenticator,
  req: { header(name: string): string | undefined },
  method: string,
): Promise<Principal> {
  const authorization = req.header('authorization');
  const principal =
    auth.cachedBearer(authorization) ??
    (await auth.fromRequest({ authorization, cookie: req.header('cookie'), workspace: req.header('x-workspace') }));
  if (principal.kind === 'user' && !SAFE_METHODS.has(method))
    assertSameOrigin(req.header('origin'), req.header('sec-fetch-site'), req.header('host'));
  return principal;
}
