/**
 * Refuses a URL whose path or query spells U+0000 (`%00`) with 400 invalid_request, before anything reads it: an id,
 * a name or a filter holding a NUL would reach a store that cannot hold one (../../nul-char.ts). A raw NUL byte never
 * gets this far: the HTTP parser refuses it.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../errors.js';
import { NUL_RULE } from '../../nul-char.js';
import type { ApiEnv } from '../env.js';

export function refuseNulInUrl(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (c.req.url.includes('%00')) throw new AppError('invalid_request', `The URL ${NUL_RULE}, written %00.`);
    return next();
  };
}
