/**
 * One public port: uWebSockets.js owns the listening socket, bound exclusively (a second server on the same
 * port fails to start instead of sharing it); HTTP goes to the Hono app through the bridge, /v1/ws to the
 * render socket.
 */
import net from 'node:net';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Broker, Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Runner } from '../operations/index.js';
import { createFastRoute, type FastRouteHandler } from './fast-route.js';
import { createHttpBridge, type FetchHandler } from './http-bridge.js';
import { attachRenderSocket } from './render-socket.js';
import type { SocketLimits } from './socket-limits.js';
import { assertNativeUws, closeApp, listenExclusive, uWS, type us_listen_socket } from './uws.js';

export interface TransportDeps {
  fetch: FetchHandler;
  engine: Engine;
  runner: Runner;
  broker: Broker;
  auth: Authenticator;
  limiter: RateLimiter;
  logger: Logger;
  maxBodyBytes: number;
  /** Uploads (POST /v1/assets, POST /v1/graphics) have their own caps on the body, and what a 413 past each says. */
  uploads?: readonly { path: string; maxBodyBytes: number; rule: string }[] | undefined;
  /** Proxies whose X-Forwarded-For is believed (canonical addresses); empty: none. */
  trustedProxies?: ReadonlySet<string> | undefined;
  heartbeatMs?: number | undefined;
  /** WebSocket connection limits and idle timeout (config.ts, ONAIR_WS_*); the defaults when absent. */
  socketLimits?: SocketLimits | undefined;
  /** Answers PATCH /v1/channels/:id/inputs without Fetch objects (the hottest route). */
  fastPatchInputs?: FastRouteHandler | undefined;
}

export interface Transport {
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting connections; open sockets stay until closeSockets(). */
  stopAccepting(): void;
  /**
   * Closes the WebSockets with 1001, waits (at most a second) for their closing handshakes, then closes every
   * connection left, idle HTTP keep-alive ones too: each would otherwise answer 503 from a stopped server.
   */
  closeSockets(): Promise<void>;
  connections(): number;
}

/** How long closeSockets() lets WebSockets answer their close frame before every connection is cut. */
const CLOSING_HANDSHAKE_MS = 1_000;

export function createTransport(deps: TransportDeps): Transport {
  assertNativeUws();
  let accepting = true;
  let listenSocket: us_listen_socket | null = null;
  const app = uWS.App();
  const sockets = attachRenderSocket(app, { ...deps, accepting: () => accepting });
  if (deps.fastPatchInputs) {
    app.patch(
      '/v1/channels/:id/inputs',
      createFastRoute({
        handler: deps.fastPatchInputs,
        maxBodyBytes: deps.maxBodyBytes,
        trustedProxies: deps.trustedProxies ?? new Set(),
        accepting: () => accepting,
        onError: (err) => deps.logger.error({ err }, 'fast route error'),
      }),
    );
  }
  for (const upload of deps.uploads ?? []) {
    app.post(
      upload.path,
      createHttpBridge({
        fetch: deps.fetch,
        maxBodyBytes: upload.maxBodyBytes,
        bodyLimitRule: upload.rule,
        trustedProxies: deps.trustedProxies ?? new Set(),
        accepting: () => accepting,
        onError: (err) => deps.logger.error({ err }, 'http bridge error'),
      }),
    );
  }
  app.any(
    '/*',
    createHttpBridge({
      fetch: deps.fetch,
      maxBodyBytes: deps.maxBodyBytes,
      trustedProxies: deps.trustedProxies ?? new Set(),
      accepting: () => accepting,
      onError: (err) => deps.logger.error({ err }, 'http bridge error'),
    }),
  );

  return {
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        listenExclusive(app, host, port, (socket) => {
          if (!socket) return void listenFailure(host, port).then(reject);
          listenSocket = socket;
          resolve(uWS.us_socket_local_port(socket));
        });
      }),
    stopAccepting() {
      accepting = false;
      if (listenSocket) uWS.us_listen_socket_close(listenSocket);
      listenSocket = null;
    },
    async closeSockets() {
      sockets.closeAll();
      const deadline = Date.now() + CLOSING_HANDSHAKE_MS;
      while (sockets.connections() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      closeApp(app);
    },
    connections: () => sockets.connections(),
  };
}

/** The server could not listen; the message says why (the CLI prints it without a stack). */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    message: string,
    /** The system's reason (`EADDRINUSE`, `EACCES`, …), when it gave one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use (by another onair, or another program)',
  EACCES: 'this user may not listen there (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'this machine has no such address',
};

/**
 * Why uWS could not listen: it reports only failure, so the same bind is tried once with node:net to learn
 * the system's reason.
 */
function listenFailure(host: string, port: number): Promise<Error> {
  const error = (reason: string, code?: string) =>
    new ListenError(`could not listen on ${host}:${port}: ${reason}.`, code);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      resolve(error(LISTEN_ERRORS[err.code ?? ''] ?? `the system refused (${err.code ?? err.message})`, err.code)),
    );
    probe.listen({ host, port, exclusive: true }, () =>
      probe.close(() => resolve(error('uWebSockets.js refused, though the system allows it'))),
    );
  });
}
