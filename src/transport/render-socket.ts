/**
 * The render WebSocket (docs/api.md, "Real-time WebSocket"). Each connection subscribes to its channel's topic and gets
 * a snapshot; committed frames are serialised once and published to the topic (uWS fans out natively).
 *
 * Slow consumers: a socket whose unsent buffer passes MAX_BACKPRESSURE (after the kernel's own buffer is
 * full) is closed by uWS instead of being skipped silently. A skipped client could sit on stale values
 * until the next change; a closed one reconnects (the output page does so at once) and resumes from a
 * fresh snapshot. Server memory per client stays bounded either way.
 */
import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Principal } from '../auth/permissions.js';
import type { Broker, Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { AppError, toProblem } from '../errors.js';
import { CloseCode, HEARTBEAT_INTERVAL_MS, type ErrorMessage } from '../protocol/index.js';
import { admitCustom } from '../limits/enforce.js';
import { requestIdFrom } from '../http/request-id.js';
import { ClientMessageError, parseClientMessage, runOp } from './socket-ops.js';
import { authorizeUpgrade } from './socket-auth.js';
import { uWS, type TemplatedApp, type WebSocket } from './uws.js';

export const MAX_BACKPRESSURE = 256 * 1024;

export interface SocketData {
  principal: Principal;
  channelId: string;
  closed: boolean;
  /** Per-connection id, for per-connection limits. */
  connectionId: number;
  /** A dashboard session's Cookie header, copied at the upgrade: its ops are authorized afresh each time. */
  cookie?: string | undefined;
}

/** A renderer resyncs after a gap; more than this per window is a client bug or abuse (snapshots cost). */
const RESYNC_LIMIT = { limit: 10, windowMs: 10_000 };

export interface RenderSocketDeps {
  engine: Engine;
  broker: Broker;
  auth: Authenticator;
  limiter: RateLimiter;
  logger: Logger;
  accepting: () => boolean;
  /** Heartbeat period; the protocol's default unless a test shortens it. */
  heartbeatMs?: number | undefined;
  /** Where connections and sent messages are counted, for metrics; nothing is counted without it. */
  counters?: SocketCounters | undefined;
}

/** Who holds a connection, as metrics name it: output-token renderers, API keys, dashboard sessions. */
export type ConnectionKind = 'output' | 'key' | 'session';
/** What was sent: frame messages, snapshots, replies to ops (acks and errors), heartbeats. */
export type SentKind = 'frame' | 'snapshot' | 'reply' | 'heartbeat';

/**
 * Plain numbers the send path adds to and metrics read when scraped: counting costs an addition, not a
 * metrics-library call per message. Bytes are the UTF-8 text handed to uWS for each recipient (queued
 * there; a socket closed for backpressure may not receive all of it).
 */
export class SocketCounters {
  readonly open: Record<ConnectionKind, number> = { output: 0, key: 0, session: 0 };
  readonly messages: Record<SentKind, number> = { frame: 0, snapshot: 0, reply: 0, heartbeat: 0 };
  readonly bytes: Record<SentKind, number> = { frame: 0, snapshot: 0, reply: 0, heartbeat: 0 };

  sent(kind: SentKind, recipients: number, text: string): void {
    this.messages[kind] += recipients;
    this.bytes[kind] += recipients * Buffer.byteLength(text);
  }
}

const KIND_OF: Record<Principal['kind'], ConnectionKind> = { output: 'output', key: 'key', user: 'session' };

export const topicOf = (channelId: string) => `ch/${channelId}`;
const HEARTBEAT_TOPIC = 'heartbeat';

export function attachRenderSocket(app: TemplatedApp, deps: RenderSocketDeps) {
  const sockets = new Map<string, Set<WebSocket<SocketData>>>();
  let connections = 0;
  const counters = deps.counters;
  const send = (ws: WebSocket<SocketData>, msg: object, kind: SentKind) => {
    if (ws.getUserData().closed) return;
    const text = JSON.stringify(msg);
    // 2: dropped (over the backpressure limit), not sent.
    if (ws.send(text, false) !== 2) counters?.sent(kind, 1, text);
  };
  /** Publishes to every subscriber of a topic (uWS fans out natively) and counts one copy per subscriber. */
  const publish = (topic: string, msg: object, kind: SentKind) => {
    const text = JSON.stringify(msg);
    app.publish(topic, text, false);
    counters?.sent(kind, app.numSubscribers(topic), text);
  };

  app.ws<SocketData>('/v1/ws', {
    compression: uWS.DISABLED,
    maxPayloadLength: 64 * 1024,
    maxBackpressure: MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 1,
    idleTimeout: 32,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const aborted = { value: false };
      res.onAborted(() => (aborted.value = true));
      const params = new URLSearchParams(req.getQuery() ?? '');
      const key = req.getHeader('sec-websocket-key');
      const protocols = req
        .getHeader('sec-websocket-protocol')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const extensions = req.getHeader('sec-websocket-extensions');
      const authorization = req.getHeader('authorization') || undefined;
      const requestId = requestIdFrom(req.getHeader('x-request-id'));
      const request = {
        channelId: params.get('channel'),
        token: params.get('token'),
        authorization,
        protocols,
        cookie: req.getHeader('cookie') || undefined,
        origin: req.getHeader('origin') || undefined,
        host: req.getHeader('host') || undefined,
      };
      const refuse = (err: unknown) => {
        if (aborted.value) return;
        const appError = err instanceof AppError ? err : new AppError('internal');
        if (appError.code === 'internal') deps.logger.error({ err, reqId: requestId }, 'websocket upgrade failed');
        else deps.logger.info({ reqId: requestId, status: appError.status, code: appError.code }, 'websocket refused');
        res.cork(() => {
          res.writeStatus(`${appError.status} ${STATUS_CODES[appError.status] ?? 'Refused'}`);
          res.writeHeader('Content-Type', 'application/problem+json').writeHeader('X-Request-Id', requestId);
          if (appError.retryAfter !== undefined) res.writeHeader('Retry-After', String(appError.retryAfter));
          res.end(JSON.stringify(toProblem(appError)), true);
        });
      };
      if (!deps.accepting())
        return refuse(new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 }));
      authorizeUpgrade(request, deps.engine, deps.auth).then((grant) => {
        if (aborted.value) return;
        const data: SocketData = {
          principal: grant.principal,
          channelId: grant.channelId,
          closed: false,
          connectionId: ++connections,
          cookie: grant.principal.kind === 'user' ? request.cookie : undefined,
        };
        deps.logger.info({ reqId: requestId, channelId: grant.channelId, as: grant.principal.kind }, 'websocket open');
        // Not inside res.cork(): this uWS build mishandles an upgrade made while corked.
        res.upgrade(data, key, grant.protocol, extensions, context);
      }, refuse);
    },
    open: (ws) => {
      const data = ws.getUserData();
      // Counted before anything can end it: close() always follows open() and takes it off again.
      if (counters) counters.open[KIND_OF[data.principal.kind]]++;
      if (!deps.engine.has(data.channelId)) return ws.end(CloseCode.channelDeleted, 'channel deleted');
      let set = sockets.get(data.channelId);
      if (!set) sockets.set(data.channelId, (set = new Set()));
      set.add(ws);
      // Subscribe and snapshot in one turn: no frame can fall between them.
      ws.subscribe(topicOf(data.channelId));
      ws.subscribe(HEARTBEAT_TOPIC);
      send(ws, deps.engine.snapshot(data.channelId), 'snapshot');
    },
    message: (ws, message) => {
      const data = ws.getUserData();
      const text = Buffer.from(message).toString('utf8');
      let msg;
      try {
        msg = parseClientMessage(text);
      } catch (err) {
        if (err instanceof ClientMessageError) return send(ws, errorMessage(err.id, err.error), 'reply');
        return send(ws, errorMessage(null, err), 'reply');
      }
      if (msg.op === 'resync') {
        admitCustom(deps.limiter, `resync:${data.connectionId}`, RESYNC_LIMIT).then(
          () => send(ws, deps.engine.snapshot(data.channelId), 'snapshot'),
          (err: unknown) => send(ws, errorMessage(null, err), 'reply'),
        );
        return;
      }
      const id = msg.id;
      currentPrincipal(data)
        .then((principal) => runOp(msg, principal, data.channelId, deps))
        .then(
          (ack) => send(ws, ack, 'reply'),
          (err: unknown) => {
            send(ws, errorMessage(id, err), 'reply');
            if (err instanceof AppError && err.code === 'unauthorized' && !data.closed)
              ws.end(CloseCode.unauthorized, 'session ended');
          },
        );
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.closed = true;
      if (counters) counters.open[KIND_OF[data.principal.kind]]--;
      sockets.get(data.channelId)?.delete(ws);
      if (sockets.get(data.channelId)?.size === 0) sockets.delete(data.channelId);
    },
  });

  const unsubscribe = deps.broker.subscribe((channelId, msg) => {
    if (msg.kind === 'frame') return publish(topicOf(channelId), msg.message, 'frame');
    for (const ws of [...(sockets.get(channelId) ?? [])]) {
      const data = ws.getUserData();
      if (msg.reason === 'channel_deleted') ws.end(CloseCode.channelDeleted, 'channel deleted');
      else if (data.principal.kind === 'output') ws.end(CloseCode.tokenRotated, 'output token rotated');
    }
  });

  /**
   * A session's role may change and the session may end (logout, password change, removal from the
   * workspace) while its socket is open: each op is authorized with what holds now.
   */
  const currentPrincipal = async (data: SocketData): Promise<Principal> => {
    if (data.principal.kind !== 'user') return data.principal;
    data.principal = await deps.auth.fromRequest({
      authorization: undefined,
      cookie: data.cookie,
      workspace: data.principal.orgId,
    });
    return data.principal;
  };

  /** Closes session sockets whose session ended or lost the channel's workspace (checked every heartbeat). */
  const sweepSessions = () => {
    for (const set of sockets.values()) {
      for (const ws of set) {
        const data = ws.getUserData();
        if (data.principal.kind !== 'user') continue;
        currentPrincipal(data).catch(() => {
          if (!data.closed) ws.end(CloseCode.unauthorized, 'session ended');
        });
      }
    }
  };

  const heartbeat = setInterval(() => {
    publish(HEARTBEAT_TOPIC, { type: 'heartbeat', serverTime: Date.now() }, 'heartbeat');
    sweepSessions();
  }, deps.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();

  // A revoked key loses its open connections at once, not at its next operation.
  const stopRevokes = deps.auth.onRevoked((keyId) => {
    for (const set of sockets.values()) {
      for (const ws of [...set]) {
        const p = ws.getUserData().principal;
        if (p.kind === 'key' && p.keyId === keyId) ws.end(CloseCode.unauthorized, 'API key revoked');
      }
    }
  });

  return {
    connections: () => [...sockets.values()].reduce((n, s) => n + s.size, 0),
    /** Closes every socket with 1001 so renderers reconnect (to this node after restart, or another). */
    closeAll(code: number = CloseCode.goingAway, reason = 'server restarting'): void {
      for (const set of sockets.values()) for (const ws of [...set]) ws.end(code, reason);
      unsubscribe();
      stopRevokes();
      clearInterval(heartbeat);
    },
  };
}

function errorMessage(id: string | null, err: unknown): ErrorMessage {
  const problem = toProblem(err);
  return { type: 'error', id, code: problem.code, detail: problem.detail };
}
