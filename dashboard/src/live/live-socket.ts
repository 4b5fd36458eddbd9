/**
 * The live view's WebSocket (/v1/ws with the session cookie): keeps the channel's state from snapshots and
 * frames (the output page's state: the protocol's reducer with the page's clock estimate), sends operations and
 * tracks each one until the server answers. Nothing is sent while the line is down: an action then fails at once
 * and says so, and an action in flight when the line drops is reported as unconfirmed, never as done.
 * Reconnects by itself with jittered backoff and resyncs from a fresh snapshot.
 */
import { signal, type Signal } from '@preact/signals';
import { describe } from '../api.js';
import {
  CloseCode,
  HEARTBEAT_DEAD_AFTER_MS,
  HEARTBEAT_INTERVAL_MS,
  parseServerMessage,
  reconnectDelay,
  type AckMessage,
  type ClientOp,
  type OutputsMessage,
} from '@onair/protocol';
import {
  applyMessage,
  initialState,
  markDisconnected,
  type ChannelState,
} from '../../../renderer/src/channel-state.js';

export type LineStatus = 'connecting' | 'open' | 'down' | 'ended';

export interface Action {
  id: string;
  label: string;
  state: 'pending' | 'done' | 'failed';
  detail: string;
  at: number;
}

export class OpError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const CONNECT_TIMEOUT_MS = 10_000;
const KEPT_ACTIONS = 8;

export interface LiveChannel {
  state: Signal<ChannelState>;
  status: Signal<LineStatus>;
  /** Why the line ended for good (session over, channel deleted), when it did. */
  endedBecause: Signal<string | null>;
  /** The latest actions, newest first, with their outcome. */
  actions: Signal<Action[]>;
  /** The channel's outputs as the server last said (docs/outputs.md); null until it says, on each connection. */
  outputs: Signal<OutputsMessage | null>;
  send(label: string, op: ClientOp): Promise<AckMessage>;
  /** Lists an action the page refused itself (nothing to act on), as failed, saying why; nothing is sent. */
  refuse(label: string, detail: string): void;
  /** Lists an action made over HTTP (a data source's row move): pending until `call` settles, then how it went. */
  track<T>(label: string, call: () => Promise<T>): Promise<T>;
  close(): void;
}

export function openLiveChannel(channelId: string): LiveChannel {
  const state = signal(initialState());
  const status = signal<LineStatus>('connecting');
  const endedBecause = signal<string | null>(null);
  const actions = signal<Action[]>([]);
  const outputs = signal<OutputsMessage | null>(null);
  const waiting = new Map<string, { resolve: (a: AckMessage) => void; reject: (e: OpError) => void }>();
  let socket: WebSocket | null = null;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lastHeard = 0;
  let closed = false;
  let counter = 0;

  const watchdog = setInterval(() => {
    if (socket && status.value === 'open' && Date.now() - lastHeard > HEARTBEAT_DEAD_AFTER_MS) socket.close();
  }, HEARTBEAT_INTERVAL_MS);

  function url(): string {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // Every scene, not only those on the buses: the live view lists them all, with their inputs and triggers.
    return `${scheme}://${location.host}/v1/ws?channel=${encodeURIComponent(channelId)}&scenes=all`;
  }

  function connect(): void {
    retryTimer = undefined;
    status.value = status.value === 'down' ? 'down' : 'connecting';
    const ws = new WebSocket(url());
    socket = ws;
    const timeout = setTimeout(() => ws.close(), CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      clearTimeout(timeout);
      lastHeard = Date.now();
      // The server says at once if the channel has outputs; silence on a new connection means none.
      outputs.value = null;
    };
    ws.onmessage = (event: MessageEvent) => {
      if (socket === ws) receive(ws, event.data);
    };
    ws.onclose = (event: CloseEvent) => {
      clearTimeout(timeout);
      if (socket !== ws) return;
      socket = null;
      lost(event.code);
    };
  }

  function receive(ws: WebSocket, data: unknown): void {
    const receivedAt = Date.now();
    lastHeard = receivedAt;
    const msg = parseServerMessage(data);
    if (!msg) return;
    if (msg.type === 'outputs') {
      outputs.value = msg;
      return;
    }
    if (msg.type === 'ack') return settle(msg.id, (w) => w.resolve(msg));
    // Sent only on a connection following several channels; the live view follows one.
    if (msg.type === 'channel_removed') return;
    // The sources page reads its sources over REST.
    if (msg.type === 'sources') return;
    if (msg.type === 'error') {
      if (msg.id) settle(msg.id, (w) => w.reject(new OpError(msg.code, msg.detail)));
      return;
    }
    const result = applyMessage(state.value, msg, receivedAt);
    if (result.outcome === 'gap') ws.send(JSON.stringify({ op: 'resync' }));
    if (result.state !== state.value) state.value = result.state;
    if (msg.type === 'snapshot') {
      attempt = 0;
      status.value = 'open';
    }
  }

  function settle(id: string, how: (w: { resolve: (a: AckMessage) => void; reject: (e: OpError) => void }) => void) {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    how(w);
  }

  function lost(code: number): void {
    state.value = markDisconnected(state.value);
    for (const [id, w] of waiting) {
      waiting.delete(id);
      w.reject(
        new OpError(
          'connection_lost',
          'The connection dropped before the server answered: check the result once it is back.',
        ),
      );
    }
    if (closed) return;
    if (code === CloseCode.unauthorized || code === CloseCode.channelDeleted) {
      status.value = 'ended';
      endedBecause.value =
        code === CloseCode.unauthorized ? 'Your session has ended: sign in again.' : 'This channel has been deleted.';
      return;
    }
    status.value = 'down';
    const delay = reconnectDelay(attempt, code);
    attempt += 1;
    retryTimer = setTimeout(connect, delay);
  }

  function record(action: Action): void {
    actions.value = [action, ...actions.value.filter((a) => a.id !== action.id)].slice(0, KEPT_ACTIONS);
  }

  function send(label: string, op: ClientOp): Promise<AckMessage> {
    const id = `a${++counter}`;
    const action: Action = { id, label, state: 'pending', detail: '', at: Date.now() };
    record(action);
    const promise = new Promise<AckMessage>((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN || status.value !== 'open') {
        reject(new OpError('offline', 'Not sent: the connection to the server is down.'));
        return;
      }
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ ...op, id }));
    });
    promise.then(
      () => record({ ...action, state: 'done', detail: '' }),
      (err: OpError) => record({ ...action, state: 'failed', detail: err.detail }),
    );
    return promise;
  }

  addEventListener('online', nudge);
  document.addEventListener('visibilitychange', nudge);
  function nudge(): void {
    if (retryTimer === undefined || closed) return;
    clearTimeout(retryTimer);
    connect();
  }

  connect();
  return {
    state,
    status,
    endedBecause,
    actions,
    outputs,
    send,
    refuse(label, detail) {
      record({ id: `a${++counter}`, label, state: 'failed', detail, at: Date.now() });
    },
    async track(label, call) {
      const action: Action = { id: `a${++counter}`, label, state: 'pending', detail: '', at: Date.now() };
      record(action);
      try {
        const result = await call();
        record({ ...action, state: 'done' });
        return result;
      } catch (err) {
        record({ ...action, state: 'failed', detail: describe(err) });
        throw err;
      }
    },
    close() {
      closed = true;
      clearInterval(watchdog);
      clearTimeout(retryTimer);
      removeEventListener('online', nudge);
      document.removeEventListener('visibilitychange', nudge);
      socket?.close(1000);
      socket = null;
    },
  };
}
