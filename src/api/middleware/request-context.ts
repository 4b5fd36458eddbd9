/**
 * Request id (echoed when the client sent a sane one), a child logger carrying it, one access log line
 * per request, and the request's route, method, status and duration for metrics (when main.ts passed
 * an observer in the bindings). Paths are logged without their query string (renderer URLs carry tokens
 * there), and graphic files' paths without their capability.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Logger } from 'pino';
import { requestIdFrom } from '../../http/request-id.js';
import type { ApiEnv, RequestObserver } from '../env.js';
import { asAppError } from '../problem.js';

const CHANNEL_PATH = /^\/v1\/channels\/(ch_[A-Za-z0-9]+)/;
/** A graphic's files are served under its capability (api/graphics/file-routes.ts): the path is the credential. */
const GRAPHIC_CAPABILITY = /^\/ograf\/files\/[^/]+/;
/** A client chooses the path (up to about 8 KB): the log keeps its start. */
const LOGGED_PATH_LENGTH = 256;

/** The route label of a request that matched no endpoint (404 not_found, or a method the path lacks). */
export const UNMATCHED_ROUTE = 'unmatched';

export function requestContext(logger: Logger): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const log = logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    try {
      await next();
    } catch (err) {
      // Only the not-found handler's throw gets here (Hono catches a handler's own): onError answers it
      // once this middleware has let it through, so its status is the one onError will give it.
      finish(c, log, started, asAppError(err).status);
      throw err;
    }
    c.res.headers.set('X-Request-Id', requestId);
    finish(c, log, started, c.res.status);
  };
}

/** Metrics and the access log line, once the status is known. */
function finish(c: Context<ApiEnv>, log: Logger, started: number, status: number): void {
  recordRequest(log, c.env?.observeRequest, {
    route: routeOf(c),
    method: c.req.method,
    path: c.req.path,
    status,
    started,
  });
}

export interface AnsweredRequest {
  /** The route template (`/v1/channels/:id/inputs`), never the raw path: metrics labels stay few. */
  route: string;
  method: string;
  path: string;
  status: number;
  /** performance.now() when the request arrived. */
  started: number;
}

/**
 * The metrics and the access log line of an answered request: every request path records its answers with this
 * (the Hono app here, the transport's fast route too). `log` carries the request id.
 */
export function recordRequest(log: Logger, observe: RequestObserver | undefined, r: AnsweredRequest): void {
  const elapsed = performance.now() - r.started;
  observe?.(r.route, r.method, r.status, elapsed / 1000);
  if (!log.isLevelEnabled('info')) return;
  const ms = Math.round(elapsed * 100) / 100;
  const channelId = CHANNEL_PATH.exec(r.path)?.[1];
  const shown = r.path.replace(GRAPHIC_CAPABILITY, '/ograf/files/…');
  const path = shown.length > LOGGED_PATH_LENGTH ? `${shown.slice(0, LOGGED_PATH_LENGTH)}…` : shown;
  log.info({ method: r.method, path, status: r.status, ms, channelId }, 'request');
}

/**
 * The template of the endpoint the request was routed to, even when a middleware answered first (a 401
 * before the handler is still counted under its route). Middleware is registered for every method
 * (`ALL`); an endpoint for its own. No endpoint: UNMATCHED_ROUTE.
 */
function routeOf(c: Context<ApiEnv>): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method !== 'ALL') return route.path;
  }
  return UNMATCHED_ROUTE;
}
