/**
 * The render WebSocket (docs/api.md, "Real-time WebSocket"). Each connection subscribes to its channel's topic and gets
 * a snapshot; committed frames are serialised once and published to the topic (uWS fans out natively).
 *
 * What keeps one client from costing the server without bound: connection limits at the upgrade
 * (socket-limits.ts), a cap on the data waiting for each connection (slow-consumer.ts, close 4100), a budget of
 * error replies (error-budget.ts, close 4029), pings that find half-open connections (uWS idleTimeout), and
 * snapshots whose scene definitions are serialised once per change (snapshot-encoder.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Principal } from '../auth/permissions.js';
import type { Broker, Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Runner } from '../operations/index.js';
import { AppError, toProblem } from '../errors.js';
import { decodeChannelMessage, frameNumberOf } from '../engine/index.js';
import type { Outputs } from '../outputs/outputs.js';
import type { SourceFeed } from '../sources/source-feed.js';
import {
  CloseCode,
  HEARTBEAT_INTERVAL_MS,
  MAX_BODY_BYTES,
  type ChannelRemovedMessage,
  type ErrorMessage,
  type SceneScope,
} from '@onair/protocol';
import { admitCustom } from '../limits/enforce.js';
import { ErrorBudget } from './error-budget.js';
import { admitsMore } from './slow-consumer.js';
import { SnapshotEncoder } from './snapshot-encoder.js';
import type { SocketData } from './socket-data.js';
import { ClientMessageError, parseClientMessage, runOp } from './socket-ops.js';
import { ConnectionLimits, DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket-limits.js';
import { channelOfMessage, mayFollow, tooManyChannels } from './socket-channels.js';
import { linkOutputs, outputsTopic } from './socket-outputs.js';
import { linkSources, sourcesTopic } from './socket-sources.js';
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
  /** The channels' data sources, which key and session connections follow; none: no `sources` message. */
  sources?: SourceFeed | undefined;
}

/** Who holds a connection, as metrics name it: output-token renderers, API keys, dashboard sessions. */
export type ConnectionKind = 'output' | 'key' | 'session';
/** What was sent: frame messages, snapshots, replies to ops (acks and errors), heartbeats, outputs and sources messages. */
export type SentKind = 'frame' | 'snapshot' | 'reply' | 'heartbeat' | 'outputs' | 'sources';

/**
 * Plain numbers the send path adds to and metrics read when scraped: counting costs an addition, not a
 * metrics-library call per message. Bytes are the UTF-8 payload handed to uWS for each recipient (queued
 * there; a socket closed as a slow consumer may not read all of it).
 */
export class SocketCounters {
  readonly open: Record<ConnectionKind, number> = { output: 0, key: 0, session: 0 };
  readonly messages: Record<SentKind, number> = { ...NONE_SENT };
  readonly bytes: Record<SentKind, number> = { ...NONE_SENT };

  sent(kind: SentKind, recipients: number, payload: string | Uint8Array): void {
    this.messages[kind] += recipients;
    this.bytes[kind] += recipients * (typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);
  }
}

const NONE_SENT: Record<SentKind, number> = { frame: 0, snapshot: 0, reply: 0, heartbeat: 0, outputs: 0, sources: 0 };

const KIND_OF: Record<Principal['kind'], ConnectionKind> = { output: 'output', key: 'key', user: 'session' };

/** A channel's frames: `buses` connections subscribe to one topic, `scenes=all` connections to the other. */
export const topicOf = (channelId: string, scope: SceneScope = 'buses') =>
  scope === 'all' ? `ch/${channelId}/all` : `ch/${channelId}`;
const HEARTBEAT_TOPIC = 'heartbeat';

type Socket = WebSocket<SocketData>;

export function attachRenderSocket(app: TemplatedApp, deps: RenderSocketDeps) {
  /** Every open socket, with its data (read without a call into uWS). */
  const all = new Map<Socket, SocketData>();
  /** Open sockets by channel followed (a socket following several channels is under each). */
  const sockets = new Map<string, Map<Socket, SocketData>>();
  /** `channels=*` sockets: the channels created while they are open join them. */
  const followingAll = new Map<Socket, SocketData>();
  const counters = deps.counters;
  const socketLimits = deps.socketLimits ?? DEFAULT_SOCKET_LIMITS;
  const limits = new ConnectionLimits(socketLimits, deps.limiter);
  const encoder = new SnapshotEncoder();
  /**
   * Names this process's connections in the rate limiter, which nodes share: each node numbers its connections from 1,
   * and a connection's resyncs are its own.
   */
  const instance = randomUUID();

  const send = (ws: Socket, data: SocketData, msg: object, kind: SentKind) => {
    if (!admitsMore(ws, data)) return;
    const text = JSON.stringify(msg);
    ws.send(text, false);
    counters?.sent(kind, 1, text);
  };
  /**
   * `joining`: one of the snapshots a connection is sent as it starts following its channels; the grace covers all
   * of them, not only the last (a `resync` is one snapshot again).
   */
  const sendSnapshot = (ws: Socket, data: SocketData, channelId: string, joining = false) => {
    if (!admitsMore(ws, data)) return;
    const bytes = encoder.encode(deps.engine.snapshot(channelId, data.scenes), data.scenes);
    ws.send(bytes, false);
    data.snapshotGrace = (joining ? data.snapshotGrace : 0) + bytes.byteLength;
    counters?.sent('snapshot', 1, bytes);
  };
  /** Answers with an error, unless the connection has used its error budget: then it is closed instead. */
  const sendError = (ws: Socket, data: SocketData, id: string | null, err: unknown, channelId?: string) => {
    // A bug is logged with what finds it, as on REST (under the request id there): the connection and the op id.
    if (!(err instanceof AppError) || err.code === 'internal') {
      deps.logger.error(
        { err, connectionId: data.connectionId, opId: id, channelId: channelId ?? data.channelId },
        'unhandled error',
      );
    }
    if (data.closed) return;
    if (!(data.errors ??= new ErrorBudget()).take()) return ws.end(CloseCode.tooManyErrors, 'too many bad messages');
    send(ws, data, errorMessage(id, err, data.follows === 'one' ? undefined : channelId), 'reply');
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
      if (msg.reason === 'channel_deleted' && data.follows !== 'one') drop(ws, data, channelId);
      else if (msg.reason === 'channel_deleted') ws.end(CloseCode.channelDeleted, 'channel deleted');
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
  const sources = linkSources(
    deps.sources,
    (channelId, topic, text) => {
      sweepSlow(sockets.get(channelId));
      publishText(topic, text, 'sources');
    },
    (topic) => app.numSubscribers(topic),
    deps.logger,
  );

  /**
   * Starts following a channel on a connection: its frames, a snapshot now, its outputs and its sources. One path for
   * every channel.
   */
  const follow = (ws: Socket, data: SocketData, channelId: string) => {
    // A send below may close the connection as a slow consumer (the close takes this channel off again): uWS throws on
    // any later call to a closed socket, which would break the channel's creation, or the server from inside open().
    if (data.closed) return;
    data.channels.add(channelId);
    limits.joined(channelId);
    let channel = sockets.get(channelId);
    if (!channel) {
      sockets.set(channelId, (channel = new Map<Socket, SocketData>()));
      subscriptions.set(
        channelId,
        deps.broker.subscribe(channelId, (payload) => onChannelMessage(channelId, payload)),
      );
    }
    channel.set(ws, data);
    // Subscribe and snapshot in one turn: no frame can fall between them.
    ws.subscribe(topicOf(channelId, data.scenes));
    sendSnapshot(ws, data, channelId, true);
    if (data.closed) return;
    outputs.opened(
      data,
      channelId,
      (topic) => ws.subscribe(topic),
      (msg) => send(ws, data, msg, 'outputs'),
    );
    if (data.closed) return;
    sources.opened(
      data,
      channelId,
      (topic) => ws.subscribe(topic),
      (msg) => (!data.closed && data.channels.has(channelId) ? send(ws, data, msg, 'sources') : undefined),
    );
  };
  /** Stops following a channel: the connection closed, or the channel left a connection following several. */
  const unfollow = (ws: Socket, data: SocketData, channelId: string) => {
    data.channels.delete(channelId);
    limits.left(channelId);
    const channel = sockets.get(channelId);
    channel?.delete(ws);
    if (channel?.size !== 0) return;
    sockets.delete(channelId);
    encoder.forget(channelId);
    subscriptions.get(channelId)?.();
    subscriptions.delete(channelId);
  };
  /** A channel leaves an open connection following several (deleted, no longer visible): it is told so. */
  const drop = (ws: Socket, data: SocketData, channelId: string) => {
    if (data.closed || !data.channels.has(channelId)) return;
    unfollow(ws, data, channelId);
    ws.unsubscribe(topicOf(channelId, data.scenes));
    ws.unsubscribe(outputsTopic(channelId));
    ws.unsubscribe(sourcesTopic(channelId));
    send(ws, data, { type: 'channel_removed', channelId } satisfies ChannelRemovedMessage, 'snapshot');
  };
  // A channel created while `channels=*` connections are open joins those that may see it.
  const stopAdded = deps.engine.onChannelAdded((channelId) => {
    const limit = socketLimits.channelsPerSocket;
    for (const [ws, data] of [...followingAll]) {
      if (data.closed || data.channels.has(channelId) || !mayFollow(deps.runner, data.principal, channelId)) continue;
      if (limit > 0 && data.channels.size >= limit) ws.end(CloseCode.forbidden, tooManyChannels(limit).message);
      else follow(ws, data, channelId);
    }
  });

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
      channelsPerSocket: socketLimits.channelsPerSocket,
      trustedProxies: deps.trustedProxies ?? new Set(),
    }),
    open: (ws) => {
      const data = ws.getUserData();
      // Counted before anything can end it: close() always follows open() and takes it off again.
      if (counters) counters.open[KIND_OF[data.principal.kind]]++;
      limits.opened(data.address);
      all.set(ws, data);
      if (data.follows === 'one' && !deps.engine.has(data.channelId))
        return ws.end(CloseCode.channelDeleted, 'channel deleted');
      if (data.follows === 'all') followingAll.set(ws, data);
      ws.subscribe(HEARTBEAT_TOPIC);
      for (const channelId of data.opening) {
        // Deleted since the upgrade was granted: the connection hears it as it would have a moment later.
        if (deps.engine.has(channelId)) follow(ws, data, channelId);
        else send(ws, data, { type: 'channel_removed', channelId } satisfies ChannelRemovedMessage, 'snapshot');
      }
    },
    message: (ws, message, isBinary) => {
      const data = ws.getUserData();
      if (isBinary) return sendError(ws, data, null, new AppError('invalid_request', 'Messages must be JSON text.'));
      let msg;
      try {
        msg = parseClientMessage(Buffer.from(message).toString('utf8'));
      } catch (err) {
        if (!(err instanceof ClientMessageError)) return sendError(ws, data, null, err);
        return sendError(ws, data, err.id, err.error, err.channelId);
      }
      if (msg.op === 'painted') {
        try {
          outputs.painted(data, msg.input);
        } catch (err) {
          sendError(ws, data, null, err);
        }
        return;
      }
      const id = msg.op === 'resync' ? null : msg.id;
      let channelId: string;
      try {
        channelId = channelOfMessage(data, msg.channelId);
      } catch (err) {
        return sendError(ws, data, id, err, msg.channelId);
      }
      if (msg.op === 'resync') {
        // The channel may have gone meanwhile (a node can forget a deleted channel before its socket hears of it):
        // no snapshot then; and whatever throws is answered, never left to end the process as an unhandled rejection.
        admitCustom(deps.limiter, `resync:${instance}:${data.connectionId}`, RESYNC_LIMIT)
          .then(() => {
            if (data.channels.has(channelId) && deps.engine.has(channelId)) sendSnapshot(ws, data, channelId);
          })
          .catch((err: unknown) => sendError(ws, data, null, err, channelId));
        return;
      }
      const named = data.follows === 'one' ? {} : { channelId };
      currentPrincipal(data)
        .then((principal) => runOp(msg, principal, channelId, deps.runner))
        .then(
          (ack) => send(ws, data, { ...ack, ...named }, 'reply'),
          (err: unknown) => {
            sendError(ws, data, id, err, channelId);
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
      limits.closed(data.address);
      all.delete(ws);
      followingAll.delete(ws);
      for (const channelId of [...data.channels]) unfollow(ws, data, channelId);
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
    for (const [ws, data] of all) {
      if (data.principal.kind !== 'user') continue;
      currentPrincipal(data).catch(() => {
        if (!data.closed) ws.end(CloseCode.unauthorized, 'session ended');
      });
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
    for (const [ws, { principal: p }] of [...all]) {
      if (p.kind === 'key' && p.keyId === keyId) ws.end(CloseCode.unauthorized, 'API key revoked');
    }
  });

  return {
    connections: () => all.size,
    /** Closes every socket with 1001 so renderers reconnect (to this node after restart, or another). */
    closeAll(code: number = CloseCode.goingAway, reason = 'server restarting'): void {
      for (const ws of [...all.keys()]) ws.end(code, reason);
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
      stopRevokes();
      stopAdded();
      outputs.stop();
      sources.stop();
      clearInterval(heartbeat);
    },
  };
}

function errorMessage(id: string | null, err: unknown, channelId: string | undefined): ErrorMessage {
  const problem = toProblem(err);
  const named = channelId === undefined ? {} : { channelId };
  return { type: 'error', id, ...named, code: problem.code, detail: problem.detail };
}
