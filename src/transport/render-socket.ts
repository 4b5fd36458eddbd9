/**
 * The render WebSocket (docs/api.md, "Real-time WebSocket"). Each connection subscribes to its channel's topic and gets
 * a snapshot; committed frames are serialised once and published to the topic (uWS fans out natively).
 *
 * What keeps one client from costing the server without bound: connection limits at the upgrade
 * (socket-limits.ts), a cap on the data waiting for each connection (slow-consumer.ts, close 4100), a budget of
 * error replies (error-budget.ts, close 4029), pings that find half-open connections (uWS idleTimeout), and
 * snapshots whose scene definitions are serialised once per change (snapshot-encoder.ts).
 */
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Principal } from '../auth/permissions.js';
import type { Broker, Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Runner } from '../operations/index.js';
import { AppError, toProblem } from '../errors.js';
import { decodeChannelMessage, frameNumberOf } from '../engine/index.js';
import type { Outputs } from '../outputs/outputs.js';
import { CloseCode, HEARTBEAT_INTERVAL_MS, MAX_BODY_BYTES, type ErrorMessage, type SceneScope } from '@onair/protocol';
import { admitCustom } from '../limits/enforce.js';
import { ErrorBudget } from './error-budget.js';
import { admitsMore } from './slow-consumer.js';
import { SnapshotEncoder } from './snapshot-encoder.js';
import type { SocketData } from './socket-data.js';
import { ClientMessageError, parseClientMessage, runOp } from './socket-ops.js';
import { ConnectionLimits, DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket-limits.js';
import { linkOutputs } from './socket-outputs.js';
import { createUpgradeHandler } from './socket-upgrade.js';
import { uWS, type TemplatedApp, type WebSocket } from './uws.js';

export type { SocketData } from './socket-data.js';
export { SLOW_CONSUMER_BYTES } from './slow-consumer.js';

/** A renderer resyncs after a gap; more than this per window is a client bug or abuse (snapshots cost). */
const RESYNC_LIMIT = { limit: 10, windowMs: 10_000 };

export interface RenderSocketDeps {
  engine: Engine;
  /** Runs the ops clients send (../operations), and checks who may open a channel's socket. */
  runner: Runner;
  broker: Broker;
  auth: Authenticator;
  limiter: RateLimiter;
  logger: Logger;
  accepting: () => boolean;
  /** Heartbeat period; the protocol's default unless a test shortens it. */
  heartbeatMs?: number | undefined;
  /** Where connections and sent messages are counted, for metrics; nothing is counted without it. */
  counters?: SocketCounters | undefined;
  /** Connection limits and idle timeout (ONAIR_WS_*); DEFAULT_SOCKET_LIMITS when absent. */
  socketLimits?: SocketLimits | undefined;
  /** Proxies whose X-Forwarded-For is believed (canonical addresses); empty: none. */
  trustedProxies?: ReadonlySet<string> | undefined;
  /** Where output pages' reports go and whose changes key and session connections follow; none: reports are dropped. */
  outputs?: Outputs | undefined;
}

/** Who holds a connection, as metrics name it: output-token renderers, API keys, dashboard sessions. */
export type ConnectionKind = 'output' | 'key' | 'session';
/** What was sent: frame messages, snapshots, replies to ops (acks and errors), heartbeats, outputs messages. */
export type SentKind = 'frame' | 'snapshot' | 'reply' | 'heartbeat' | 'outputs';

/**
 * Plain numbers the send path adds to and metrics read when scraped: counting costs an addition, not a
 * metrics-library call per message. Bytes are the UTF-8 payload handed to uWS for each recipient (queued
 * there; a socket closed as a slow consumer may not read all of it).
 */
export class SocketCounters {
  readonly open: Record<ConnectionKind, number> = { output: 0, key: 0, session: 0 };
  readonly messages: Record<SentKind, number> = { frame: 0, snapshot: 0, reply: 0, heartbeat: 0, outputs: 0 };
  readonly bytes: Record<SentKind, number> = { frame: 0, snapshot: 0, reply: 0, heartbeat: 0, outputs: 0 };

  sent(kind: SentKind, recipients: number, payload: string | Uint8Array): void {
    this.messages[kind] += recipients;
    this.bytes[kind] += recipients * (typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);
  }
}

const KIND_OF: Record<Principal['kind'], ConnectionKind> = { output: 'output', key: 'key', user: 'session' };

/** A channel's frames: `buses` connections subscribe to one topic, `scenes=all` connections to the other. */
export const topicOf = (channelId: string, scope: SceneScope = 'buses') =>
  scope === 'all' ? `ch/${channelId}/all` : `ch/${channelId}`;
const HEARTBEAT_TOPIC = 'heartbeat';

type Socket = WebSocket<SocketData>;

export function attachRenderSocket(app: TemplatedApp, deps: RenderSocketDeps) {
  /** Open sockets by channel, with their data (read without a call into uWS). */
  const sockets = new Map<string, Map<Socket, SocketData>>();
  const counters = deps.counters;
  const socketLimits = deps.socketLimits ?? DEFAULT_SOCKET_LIMITS;
  const limits = new ConnectionLimits(socketLimits, deps.limiter);
  const encoder = new SnapshotEncoder();

  const send = (ws: Socket, data: SocketData, msg: object, kind: SentKind) => {
    if (!admitsMore(ws, data)) return;
    const text = JSON.stringify(msg);
    ws.send(text, false);
    counters?.sent(kind, 1, text);
  };
  const sendSnapshot = (ws: Socket, data: SocketData) => {
    if (!admitsMore(ws, data)) return;
    const bytes = encoder.encode(deps.engine.snapshot(data.channelId, data.scenes), data.scenes);
    ws.send(bytes, false);
    data.snapshotGrace = bytes.byteLength;
    counters?.sent('snapshot', 1, bytes);
  };
  /** Answers with an error, unless the connection has used its error budget: then it is closed instead. */
  const sendError = (ws: Socket, data: SocketData, id: string | null, err: unknown) => {
    // A bug is logged with what finds it, as on REST (under the request id there): the connection and the op id.
    if (!(err instanceof AppError) || err.code === 'internal') {
      deps.logger.error(
        { err, connectionId: data.connectionId, opId: id, channelId: data.channelId },
        'unhandled error',
      );
    }
    if (data.closed) return;
    if (!(data.errors ??= new ErrorBudget()).take()) return ws.end(CloseCode.tooManyErrors, 'too many bad messages');
    send(ws, data, errorMessage(id, err), 'reply');
  };
  /** Publishes to every subscriber of a topic (uWS fans out natively) and counts one copy per subscriber. */
  const publish = (topic: string, msg: object, kind: SentKind) => publishText(topic, JSON.stringify(msg), kind);
  const publishText = (topic: string, text: string | Uint8Array, kind: SentKind) => {
    app.publish(topic, text, false);
    counters?.sent(kind, app.numSubscribers(topic), text);
  };
  /** What the channel's broker topic brings: frames to send on, as they are, or renderers to disconnect. */
  const onChannelMessage = (channelId: string, payload: Uint8Array) => {
    const msg = decodeChannelMessage(payload);
    if (msg.kind === 'frame') {
      // Before any page can have it: a report of this frame is never taken for one ahead of the channel.
      outputs.sent(channelId, frameNumberOf(msg.buses));
      sweepSlow(sockets.get(channelId));
      publishText(topicOf(channelId, 'buses'), msg.buses, 'frame');
      publishText(topicOf(channelId, 'all'), msg.all, 'frame');
      return;
    }
    for (const [ws, data] of [...(sockets.get(channelId) ?? [])]) {
      if (msg.reason === 'channel_deleted') ws.end(CloseCode.channelDeleted, 'channel deleted');
      else if (data.principal.kind === 'output' && data.token !== currentToken(channelId))
        ws.end(CloseCode.tokenRotated, 'output token rotated');
    }
  };
  /** The channel's output token now; undefined once it is gone (then every renderer of it goes too). */
  const currentToken = (channelId: string) =>
    deps.engine.has(channelId) ? deps.engine.channelRecord(channelId).outputToken : undefined;
  /** One broker subscription per channel with connections here, from the first connection to the last. */
  const subscriptions = new Map<string, () => void>();
  /** Closes the slow consumers among these sockets before anything more is published to them. */
  const sweepSlow = (channel: Map<Socket, SocketData> | undefined) => {
    for (const [ws, data] of channel ?? []) admitsMore(ws, data);
  };
  const outputs = linkOutputs(
    deps.outputs,
    (channelId, topic, text) => {
      sweepSlow(sockets.get(channelId));
      publishText(topic, text, 'outputs');
    },
    (topic) => app.numSubscribers(topic),
  );

  app.ws<SocketData>('/v1/ws', {
    compression: uWS.DISABLED,
    maxPayloadLength: MAX_BODY_BYTES,
    // Off: uWS would drop messages, close frame included; slow-consumer.ts closes with 4100 instead.
    maxBackpressure: 0,
    closeOnBackpressureLimit: 0,
    idleTimeout: socketLimits.idleTimeoutS,
    sendPingsAutomatically: true,
    upgrade: createUpgradeHandler({
      outputs: deps.outputs,
      engine: deps.engine,
      runner: deps.runner,
      auth: deps.auth,
      logger: deps.logger,
      accepting: deps.accepting,
      limits,
      trustedProxies: deps.trustedProxies ?? new Set(),
    }),
    open: (ws) => {
      const data = ws.getUserData();
      // Counted before anything can end it: close() always follows open() and takes it off again.
      if (counters) counters.open[KIND_OF[data.principal.kind]]++;
      limits.opened(data.channelId, data.address);
      if (!deps.engine.has(data.channelId)) return ws.end(CloseCode.channelDeleted, 'channel deleted');
      let channel = sockets.get(data.channelId);
      if (!channel) {
        sockets.set(data.channelId, (channel = new Map<Socket, SocketData>()));
        const id = data.channelId;
        subscriptions.set(
          id,
          deps.broker.subscribe(id, (payload) => onChannelMessage(id, payload)),
        );
      }
      channel.set(ws, data);
      // Subscribe and snapshot in one turn: no frame can fall between them.
      ws.subscribe(topicOf(data.channelId, data.scenes));
      ws.subscribe(HEARTBEAT_TOPIC);
      sendSnapshot(ws, data);
      outputs.opened(
        data,
        (topic) => ws.subscribe(topic),
        (msg) => send(ws, data, msg, 'outputs'),
      );
    },
    message: (ws, message, isBinary) => {
      const data = ws.getUserData();
      if (isBinary) return sendError(ws, data, null, new AppError('invalid_request', 'Messages must be JSON text.'));
      let msg;
      try {
        msg = parseClientMessage(Buffer.from(message).toString('utf8'));
      } catch (err) {
        return sendError(ws, data, err instanceof ClientMessageError ? err.id : null, unwrap(err));
      }
      if (msg.op === 'painted') {
        try {
          outputs.painted(data, msg.input);
        } catch (err) {
          sendError(ws, data, null, err);
        }
        return;
      }
      if (msg.op === 'resync') {
        admitCustom(deps.limiter, `resync:${data.connectionId}`, RESYNC_LIMIT).then(
          () => sendSnapshot(ws, data),
          (err: unknown) => sendError(ws, data, null, err),
        );
        return;
      }
      const id = msg.id;
      currentPrincipal(data)
        .then((principal) => runOp(msg, principal, data.channelId, deps.runner))
        .then(
          (ack) => send(ws, data, ack, 'reply'),
          (err: unknown) => {
            sendError(ws, data, id, err);
            if (err instanceof AppError && err.code === 'unauthorized' && !data.closed)
              ws.end(CloseCode.unauthorized, 'session ended');
          },
        );
    },
    close: (ws, code) => {
      const data = ws.getUserData();
      data.closed = true;
      outputs.closed(data, code);
      if (counters) counters.open[KIND_OF[data.principal.kind]]--;
      limits.closed(data.channelId, data.address);
      const channel = sockets.get(data.channelId);
      channel?.delete(ws);
      if (channel?.size === 0) {
        sockets.delete(data.channelId);
        encoder.forget(data.channelId);
        subscriptions.get(data.channelId)?.();
        subscriptions.delete(data.channelId);
      }
    },
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
    for (const channel of sockets.values()) {
      for (const [ws, data] of channel) {
        if (data.principal.kind !== 'user') continue;
        currentPrincipal(data).catch(() => {
          if (!data.closed) ws.end(CloseCode.unauthorized, 'session ended');
        });
      }
    }
  };

  const heartbeat = setInterval(() => {
    for (const channel of sockets.values()) sweepSlow(channel);
    publish(HEARTBEAT_TOPIC, { type: 'heartbeat', serverTime: Date.now() }, 'heartbeat');
    sweepSessions();
  }, deps.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();

  // A revoked key loses its open connections at once, not at its next operation.
  const stopRevokes = deps.auth.onRevoked((keyId) => {
    for (const channel of sockets.values()) {
      for (const [ws, { principal: p }] of [...channel]) {
        if (p.kind === 'key' && p.keyId === keyId) ws.end(CloseCode.unauthorized, 'API key revoked');
      }
    }
  });

  return {
    connections: () => [...sockets.values()].reduce((n, s) => n + s.size, 0),
    /** Closes every socket with 1001 so renderers reconnect (to this node after restart, or another). */
    closeAll(code: number = CloseCode.goingAway, reason = 'server restarting'): void {
      for (const channel of sockets.values()) for (const ws of [...channel.keys()]) ws.end(code, reason);
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
      stopRevokes();
      outputs.stop();
      clearInterval(heartbeat);
    },
  };
}

/** A message that could not be read carries the error to answer with. */
function unwrap(err: unknown): unknown {
  return err instanceof ClientMessageError ? err.error : err;
}

function errorMessage(id: string | null, err: unknown): ErrorMessage {
  const problem = toProblem(err);
  return { type: 'error', id, code: problem.code, detail: problem.detail };
}
