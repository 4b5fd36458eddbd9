import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../../auth/authenticate.js';
import type { ApiEnv } from '../env.js';

/** Every /v1 route but the public ones needs a principal; this sets it or answers 401. */
export function authenticate(auth: Authenticator): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set('principal', await auth.fromAuthorization(c.req.header('authorization')));
    return next();
  };
}
