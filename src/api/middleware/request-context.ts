/**
 * Request id (echoed when the client sent a sane one), a child logger carrying it, and one access log
 * line per request. Paths are logged without their query string: renderer URLs carry tokens there.
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { requestIdFrom } from '../../http/request-id.js';
import type { ApiEnv } from '../env.js';

const CHANNEL_PATH = /^\/v1\/channels\/(ch_[A-Za-z0-9]+)/;

export function requestContext(logger: Logger): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const log = logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const channelId = CHANNEL_PATH.exec(c.req.path)?.[1];
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms, channelId }, 'request');
  };
}
