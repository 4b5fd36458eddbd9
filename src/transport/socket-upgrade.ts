/**
 * The HTTP upgrade to the render WebSocket (docs/api.md, "Real-time WebSocket", "Connecting"), checked in this order:
 * the server is accepting (503), the address's upgrade window (429), the credentials (socket-auth.ts, or
 * socket-channels.ts for several channels: 400, 401, 403, 404, 422), room on the channels and for the address (429). A refusal is an HTTP answer with a problem+json body. Request
 * data is copied before the first await: uWS objects die with their callback.
 */
import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import { AppError, toProblem } from '../errors.js';
import type { Outputs } from '../outputs/outputs.js';
import { clientAddress } from '../http/client-address.js';
import { requestIdFrom } from '../http/request-id.js';
import { NUL_RULE } from '../nul-char.js';
import { authorizeUpgrade, type SocketGrant, type UpgradeAuth, type UpgradeRequest } from './socket-auth.js';
import { authorizeChannels } from './socket-channels.js';
import type { SocketData } from './socket-data.js';
import { limitAddress, type ConnectionLimits } from './socket-limits.js';
import type { HttpRequest, HttpResponse, us_socket_context_t } from './uws.js';

export interface UpgradeDeps extends UpgradeAuth {
  logger: Logger;
  accepting: () => boolean;
  limits: ConnectionLimits;
  /** Proxies whose X-Forwarded-For is believed (../http/client-address.ts). */
  trustedProxies: ReadonlySet<string>;
  /** Told of an output page refused for its token, so the channel's outputs show it (docs/outputs.md). */
  outputs?: Pick<Outputs, 'refused'> | undefined;
}

/** What the upgrade needs from uWS's request, copied while the callback runs. */
interface CopiedUpgrade {
  request: UpgradeRequest;
  requestId: string;
  address: string;
  key: string;
  extensions: string;
}

export function createUpgradeHandler(deps: UpgradeDeps) {
  let connections = 0;
  return (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    const aborted = { value: false };
    res.onAborted(() => (aborted.value = true));
    const copied = copyUpgrade(res, req, deps.trustedProxies);
    const refuse = (err: unknown) => {
      if (isRefusedToken(err, copied.request, deps)) deps.outputs?.refused(copied.request.channelId!, copied.address);
      if (!aborted.value) answerRefusal(res, err, copied.requestId, deps.logger);
    };
    const upgrade = (grant: SocketGrant) => {
      if (aborted.value) return;
      // Checked here and counted in open(), which res.upgrade calls at once: no other upgrade can come between.
      try {
        deps.limits.assertRoom(grant.channelIds, copied.address);
      } catch (err) {
        return refuse(err);
      }
      const data: SocketData = {
        principal: grant.principal,
        channelId: grant.channelId,
        follows: grant.follows,
        opening: grant.channelIds,
        channels: new Set(),
        scenes: grant.scenes,
        address: copied.address,
        closed: false,
        connectionId: ++connections,
        cookie: grant.principal.kind === 'user' ? copied.request.cookie : undefined,
        token: grant.principal.kind === 'output' ? (copied.request.token ?? undefined) : undefined,
        snapshotGrace: 0,
      };
      const channels = grant.follows === 'one' ? undefined : grant.channelIds.length;
      const log = { reqId: copied.requestId, channelId: grant.channelId, channels, as: grant.principal.kind };
      deps.logger.info(log, 'websocket open');
      // Not inside res.cork(): this uWS build mishandles an upgrade made while corked.
      res.upgrade(data, copied.key, grant.protocol, copied.extensions, context);
    };
    if (!deps.accepting())
      return refuse(new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 }));
    const { channelId, channels, scenes, token } = copied.request;
    if ([channelId, channels, scenes, token].some((v) => v?.includes('\0')))
      return refuse(new AppError('invalid_request', `The URL ${NUL_RULE}, written %00.`));
    deps.limits
      .admitUpgrade(copied.address)
      .then(() =>
        copied.request.channels === null
          ? authorizeUpgrade(copied.request, deps)
          : authorizeChannels(copied.request, deps),
      )
      .then(upgrade, refuse);
  };
}

/** A wrong (or rotated) output token for a channel that exists: a page out there with an old URL. */
function isRefusedToken(err: unknown, req: UpgradeRequest, deps: UpgradeDeps): boolean {
  if (!(err instanceof AppError) || err.code !== 'unauthorized' || req.token === null || !req.channelId) return false;
  return deps.engine.has(req.channelId);
}

function copyUpgrade(res: HttpResponse, req: HttpRequest, trustedProxies: ReadonlySet<string>): CopiedUpgrade {
  const params = new URLSearchParams(req.getQuery() ?? '');
  const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
  const forwardedFor = req.getHeader('x-forwarded-for') || null;
  return {
    request: {
      channelId: params.get('channel'),
      channels: params.get('channels'),
      scenes: params.get('scenes'),
      token: params.get('token'),
      authorization: req.getHeader('authorization') || undefined,
      protocols: req
        .getHeader('sec-websocket-protocol')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
      cookie: req.getHeader('cookie') || undefined,
      origin: req.getHeader('origin') || undefined,
      host: req.getHeader('host') || undefined,
    },
    requestId: requestIdFrom(req.getHeader('x-request-id')),
    address: limitAddress(clientAddress(peer, forwardedFor, trustedProxies)),
    key: req.getHeader('sec-websocket-key'),
    extensions: req.getHeader('sec-websocket-extensions'),
  };
}

function answerRefusal(res: HttpResponse, err: unknown, requestId: string, logger: Logger): void {
  const appError = err instanceof AppError ? err : new AppError('internal');
  if (appError.code === 'internal') logger.error({ err, reqId: requestId }, 'websocket upgrade failed');
  else {
    const setting = appError.extra?.setting;
    logger.info({ reqId: requestId, status: appError.status, code: appError.code, setting }, 'websocket refused');
  }
  res.cork(() => {
    res.writeStatus(`${appError.status} ${STATUS_CODES[appError.status] ?? 'Refused'}`);
    res.writeHeader('Content-Type', 'application/problem+json').writeHeader('X-Request-Id', requestId);
    if (appError.retryAfter !== undefined) res.writeHeader('Retry-After', String(appError.retryAfter));
    res.end(JSON.stringify(toProblem(appError)), true);
  });
}
