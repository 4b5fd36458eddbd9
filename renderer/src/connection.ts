/**
 * The render WebSocket: connects, hands snapshots and frames to the page, asks for a resync when told
 * to, and reconnects forever with jittered backoff. It never gives up: a page in a host's browser
 * source has nobody to press reload.
 */
import {
  HEARTBEAT_DEAD_AFTER_MS,
  HEARTBEAT_INTERVAL_MS,
  parseServerMessage,
  reconnectDelay,
  type ClientMessage,
  type FrameMessage,
  type HeartbeatMessage,
  type SnapshotMessage,
} from '@onair/protocol';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface ConnectionOptions {
  url: string;
  /** Applies a message; returns 'resync' when a gap means the server must send a fresh snapshot. */
  onMessage(msg: SnapshotMessage | FrameMessage | HeartbeatMessage, receivedAt: number): 'resync' | 'ok';
  /**
   * Called once per lost socket, before the reconnect is scheduled, with its close code and whether it ever opened
   * (a refused upgrade never opens, and a browser reports it as 1006, like a server that cannot be reached).
   */
  onDisconnect(closeCode: number, opened: boolean): void;
}

export interface Connection {
  start(): void;
  /** Reconnects now if waiting to retry (the page became visible, the network came back). */
  nudge(): void;
  status(): ConnectionStatus;
  /** Sends on the open socket; false when none is open. */
  send(msg: ClientMessage): boolean;
}

/** A socket stuck connecting (half-open network, dead proxy) is abandoned and retried. */
const CONNECT_TIMEOUT_MS = 10_000;
/** What a browser reports when a socket dies without a close frame. */
const ABNORMAL_CLOSE = 1006;

export function createConnection(options: ConnectionOptions): Connection {
  let socket: WebSocket | null = null;
  let status: ConnectionStatus = 'closed';
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lastHeard = 0;

  // The server speaks at least every HEARTBEAT_INTERVAL_MS; a silent open socket is a dead line.
  setInterval(() => {
    if (socket && status === 'open' && Date.now() - lastHeard > HEARTBEAT_DEAD_AFTER_MS) socket.close();
  }, HEARTBEAT_INTERVAL_MS);

  function connect(): void {
    retryTimer = undefined;
    status = 'connecting';
    let ws: WebSocket;
    try {
      ws = new WebSocket(options.url);
    } catch (err) {
      console.warn('onair: cannot open the render socket', err);
      retry(ABNORMAL_CLOSE);
      return;
    }
    socket = ws;
    let opened = false;
    const timeout = setTimeout(() => ws.close(), CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      clearTimeout(timeout);
      opened = true;
      lastHeard = Date.now();
      if (socket === ws) status = 'open';
    };
    ws.onmessage = (event: MessageEvent) => {
      if (socket === ws) receive(ws, event.data);
    };
    ws.onclose = (event: CloseEvent) => {
      clearTimeout(timeout);
      if (socket !== ws) return;
      socket = null;
      options.onDisconnect(event.code, opened);
      retry(event.code);
    };
  }

  function receive(ws: WebSocket, data: unknown): void {
    // Taken before parsing: the parse is ours, not the line's, and would only blur the clock estimate.
    const receivedAt = Date.now();
    lastHeard = receivedAt;
    const msg = parseServerMessage(data);
    if (!msg) {
      console.warn('onair: ignoring a message that is not a known JSON message');
      return;
    }
    // Output pages are never sent `outputs`, `sources` nor `channel_removed` (one channel each): nothing to draw.
    if (msg.type === 'ack' || msg.type === 'outputs' || msg.type === 'sources' || msg.type === 'channel_removed')
      return;
    if (msg.type === 'error') {
      console.warn(`onair: server error ${msg.code}: ${msg.detail}`);
      return;
    }
    // A snapshot proves the line works end to end; only then is the backoff forgiven.
    if (msg.type === 'snapshot') attempt = 0;
    if (options.onMessage(msg, receivedAt) === 'resync') send(ws, { op: 'resync' });
  }

  function retry(closeCode: number): void {
    status = 'closed';
    const delay = reconnectDelay(attempt, closeCode);
    attempt += 1;
    retryTimer = setTimeout(connect, delay);
  }

  return {
    start() {
      if (!socket && retryTimer === undefined) connect();
    },
    nudge() {
      if (retryTimer === undefined) return;
      clearTimeout(retryTimer);
      connect();
    },
    status: () => status,
    send: (msg) => (socket !== null && status === 'open' ? send(socket, msg) : false),
  };
}

function send(ws: WebSocket, msg: ClientMessage): boolean {
  if (ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(msg));
  return true;
}
