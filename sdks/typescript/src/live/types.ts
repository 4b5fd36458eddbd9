/** The live client's options, what its ops answer, and the events it emits. */
import type {
  ClockState,
  FiredTrigger,
  FrameMessage,
  HeartbeatMessage,
  LiveState,
  Rundown,
  RundownItem,
  SnapshotMessage,
} from '../generated/protocol.js';
import type { ReconnectOptions } from './reconnect.js';
import type { WebSocketConstructor } from './socket.js';

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface LiveChannelOptions {
  /** The channel to follow (`ch_…`). */
  channelId: string;
  /** The server, with or without `/v1` (default `http://localhost:8080`). */
  baseUrl?: string;
  /** An API key with `channels:read` (and `inputs:write` / `playout:write` for ops). Default: env ONAIR_API_KEY. */
  apiKey?: string;
  /** A channel's output token instead of a key: read-only (ops are refused with `forbidden`). */
  outputToken?: string;
  /**
   * Which scene definitions `state.scenes` holds: `all` (every scene of the channel; needs a key) or `buses` (only
   * the scenes on program or preview, what a renderer draws). Default `all` with a key, `buses` with an output token.
   */
  scenes?: 'all' | 'buses';
  /** The WebSocket class to use. Default: the global one (browsers, Node 22+), else the `ws` package (Node 20). */
  WebSocket?: WebSocketConstructor;
  /**
   * How the API key travels: `header` (`Authorization: Bearer`, needs the `ws` package) or `subprotocol`
   * (`Sec-WebSocket-Protocol: onair.v1, bearer.<key>`, the only way in browsers). Default: `header` with `ws`,
   * `subprotocol` otherwise.
   */
  keyTransport?: 'header' | 'subprotocol';
  /** How long an op may wait for its ack (including for a connection to send it on). Default 10,000 ms. */
  ackTimeoutMs?: number;
  /** A connection not open within this long is abandoned and retried. Default 10,000 ms. */
  connectTimeoutMs?: number;
  /** Silence for this long means a dead line: reconnect. Default 15,000 ms (the server speaks every 5 s). */
  heartbeatTimeoutMs?: number;
  /** `false`: never reconnect. Default: reconnect forever with backoff (250 ms doubling to 5 s, jittered). */
  reconnect?: boolean | ReconnectOptions;
  /** Start connecting at once (default true); otherwise call `connect()`. */
  connect?: boolean;
}

/**
 * An op's ack: the frame that applied it; for a clock op, the clock's state after it; for a rundown op that answers
 * a record, the rundown or the item after it (item states as of that frame).
 */
export interface LiveAck {
  frame: number;
  clock?: ClockState;
  rundown?: Rundown;
  item?: RundownItem;
}

/** The ack of a rundown op that answers the rundown (create, update, focus). */
export interface LiveRundownAck extends LiveAck {
  rundown: Rundown;
}

/** The ack of an item op that answers the item (add, update, duplicate). */
export interface LiveItemAck extends LiveAck {
  item: RundownItem;
}

export interface LiveOpOptions {
  /** Overrides `ackTimeoutMs` for this op. */
  timeoutMs?: number;
}

export interface LiveCloseInfo {
  code: number;
  reason: string;
  /** True when the client will reconnect, after `delayMs`. */
  reconnecting: boolean;
  delayMs?: number;
  /** Why the client stopped for good (refused upgrade, key revoked, channel deleted…). */
  error?: Error;
}

/** The events of a LiveChannel, with their listener arguments. */
export interface LiveEvents {
  /** A connection opened (the snapshot follows). */
  open: [];
  /** The state changed: after a snapshot (connect, reconnect, resync) or a frame. */
  state: [state: LiveState, cause: 'snapshot' | 'frame'];
  snapshot: [message: SnapshotMessage];
  /** A frame was applied (not emitted for frames skipped after a gap). */
  frame: [message: FrameMessage];
  /** A trigger fired in an applied frame: play it once (a snapshot never replays one). */
  trigger: [trigger: FiredTrigger];
  heartbeat: [message: HeartbeatMessage];
  status: [status: LiveStatus];
  /** A connection closed; `reconnecting` says whether another follows. */
  close: [info: LiveCloseInfo];
  /** Something went wrong that the client reports but works around (or the reason it stopped). */
  error: [error: Error];
}
