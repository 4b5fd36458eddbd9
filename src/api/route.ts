/**
 * Every /v1 route is declared through defineRoute with the permission it needs. The permission guard runs
 * before validation and the handler, resolves the `:id` channel (404 outside the caller's workspace or
 * lock), and the permission is written into the OpenAPI document as `x-onair-permission`, where a test
 * checks that no route lacks one.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { authorize, type Permission } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import type { ApiEnv } from './env.js';
import { ProblemSchema } from './schemas/common.js';

export const PERMISSION_EXTENSION = 'x-onair-permission';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

export const ERROR_RESPONSES = {
  400: problem('invalid_request or unknown_input'),
  401: problem('unauthorized'),
  403: problem('forbidden'),
  404: problem('not_found'),
  413: problem('payload_too_large'),
  415: problem('unsupported_media_type'),
  429: problem('rate_limited'),
  500: problem('internal'),
  503: problem('unavailable'),
} as const;

export function permissionGuard(engine: Engine, permission: Permission): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    const channelId = c.req.param('id');
    if (channelId === undefined) {
      authorize(principal, permission);
    } else {
      // Unknown channel and foreign channel answer the same 404.
      const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
      authorize(principal, permission, { orgId, channelId });
    }
    return next();
  };
}

export function routeDefiner(engine: Engine) {
  return <P extends string, R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P }>(
    permission: Permission,
    config: R,
  ) =>
    createRoute({
      ...config,
      [PERMISSION_EXTENSION]: permission,
      security: [{ bearer: [] }],
      middleware: [permissionGuard(engine, permission)] as const,
      responses: { ...ERROR_RESPONSES, ...config.responses },
    });
}
