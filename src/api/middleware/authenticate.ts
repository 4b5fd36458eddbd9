import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../../auth/authenticate.js';
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
    const principal = await auth.fromRequest({
      authorization: c.req.header('authorization'),
      cookie: c.req.header('cookie'),
      workspace: c.req.header('x-workspace'),
    });
    if (principal.kind === 'user' && !SAFE_METHODS.has(c.req.method))
      assertSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'));
    c.set('principal', principal);
    return next();
  };
}
