/**
 * The live client: one WebSocket to one channel (docs/api.md, "Real-time WebSocket").
 *
 * - Keeps `state` from the snapshot and the frames after it; a frame whose `prev` is not the last frame applied
 *   means something was missed: the client asks for a resync and ignores frames until the fresh snapshot.
 * - Sends ops (./ops.ts: patch, preview, program, take, clear, update, continue, undo, redo, trigger, clock, and
 *   the rundown ops), each answered by its ack (resolves) or its error message (rejects with OnairApiError).
 * - Treats 15 s of silence as a dead line (the server sends a heartbeat every 5 s), and reconnects after any drop
 *   with exponential backoff and jitter; the server's snapshot on the new connection resyncs the state.
 * - Does not reconnect after a 4000–4099 close (key revoked, token rotated, channel deleted), a refused upgrade
 *   that will not change (400, 401, 403, 404; visible with the `ws` package only), or `close()`.
 *
 * Ops and drops: an op waiting for a connection is sent once one opens (within its ack timeout). An op already
 * sent when the connection drops is rejected with OnairTransportError `disconnected`: it may or may not have been
 * applied, so it is never re-sent behind your back. Check `state` after the resync and send it again if needed.
 */
import { OnairApiError, OnairTransportError } from '../errors.js';
import { USER_AGENT } from '../http.js';
import { envVar, normalizeBaseUrl } from '../util.js';
import {
  applyFrame,
  HEARTBEAT_DEAD_AFTER_MS,
  isTerminalClose,
  parseServerMessage,
  reconnectDelay,
  stateFromSnapshot,
  SUBPROTOCOL,
  type AckMessage,
  type ClientOp,
  type FrameMessage,
  type LiveState,
  type SnapshotMessage,
} from '../generated/protocol.js';
import { LiveOps } from './ops.js';
import { readRefusal, terminalCloseError } from './refusal.js';
import { DEFAULT_RECONNECT, type ReconnectOptions } from './reconnect.js';
import type { LiveAck, LiveChannelOptions, LiveOpOptions, LiveStatus } from './types.js';
import { asNodeStyle, OPEN, resolveWebSocket, type ResolvedWebSocket, type WebSocketLike } from './socket.js';

interface PendingOp {
  message: ClientOp & { id: string };
  sent: boolean;
  resolve: (ack: LiveAck) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** Refused upgrades that another attempt with the same credentials will not fix. */
const FINAL_REFUSALS = new Set([400, 401, 403, 404]);
/** What a WebSocket reports when the line dies without a close frame. */
const ABNORMAL = 1006;
const RESYNC_RETRY_MS = 1_000;

export class LiveChannel extends LiveOps {
  readonly channelId: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly outputToken: string | undefined;
  private readonly ackTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly heartbeatTimeoutMs: number;
  private readonly reconnectPolicy: Required<ReconnectOptions> | null;
  private readonly options: LiveChannelOptions;

  private currentState: LiveState | null = null;
  private isSynced = false;
  private currentStatus: LiveStatus = 'idle';
  private socket: WebSocketLike | null = null;
  private resolved: ResolvedWebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private finalError: Error | undefined;
  private seq = 0;
  private lastHeard = 0;
  private readonly pending = new Map<string, PendingOp>();
  private readonly offsets: number[] = [];
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private resyncTimer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;

  constructor(options: LiveChannelOptions) {
    super();
    if (!options.channelId) throw new TypeError('onair: LiveChannel needs a channelId');
    this.options = options;
    this.channelId = options.channelId;
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? 'http://localhost:8080');
    this.outputToken = options.outputToken;
    this.apiKey = options.outputToken === undefined ? (options.apiKey ?? envVar('ONAIR_API_KEY')) : undefined;
    if (this.apiKey === undefined && this.outputToken === undefined) {
      throw new TypeError('onair: LiveChannel needs an apiKey (or env ONAIR_API_KEY) or an outputToken');
    }
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_DEAD_AFTER_MS;
    const reconnect = options.reconnect ?? true;
    this.reconnectPolicy =
      reconnect === false ? null : { ...DEFAULT_RECONNECT, ...(reconnect === true ? {} : reconnect) };
    if (options.connect !== false) this.connect();
  }

  /** The channel as last received, or null before the first snapshot. Replaced (never mutated) on each change. */
  get state(): LiveState | null {
    return this.currentState;
  }

  /** False before the first snapshot, while reconnecting, and after a gap until the resync's snapshot. */
  get synced(): boolean {
    return this.isSynced;
  }

  get status(): LiveStatus {
    return this.currentStatus;
  }

  /** Starts connecting (done by the constructor unless `connect: false`). Calling it again does nothing. */
  connect(): this {
    if (this.currentStatus === 'idle' && !this.stopped) void this.open();
    return this;
  }

  /** Resolves with the state once it is in sync (at once if it is); rejects if the client stops first. */
  ready(timeoutMs?: number): Promise<LiveState> {
    return this.waitFor(() => true, timeoutMs);
  }

  /**
   * Resolves with the first in-sync state that satisfies `predicate` (the current one, or a later one);
   * rejects with OnairTransportError `timeout` after `timeoutMs` (default: no limit), or if the client stops.
   */
  waitFor(predicate: (state: LiveState) => boolean, timeoutMs?: number): Promise<LiveState> {
    if (this.isSynced && this.currentState && predicate(this.currentState)) return Promise.resolve(this.currentState);
    if (this.stopped) return Promise.reject(this.stoppedError());
    this.connect();
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        offState();
        offClose();
        if (timer !== undefined) clearTimeout(timer);
      };
      const offState = this.on('state', (state) => {
        if (!predicate(state)) return;
        done();
        resolve(state);
      });
      const offClose = this.on('close', (info) => {
        if (info.reconnecting) return;
        done();
        reject(this.stoppedError());
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          done();
          reject(new OnairTransportError('timeout', `the channel state did not get there within ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
  }

  /** Asks the server for a fresh snapshot (done by itself after a gap). */
  resync(): void {
    this.isSynced = false;
    this.sendRaw({ op: 'resync' });
  }

  /** The server's clock now, in epoch ms, estimated from its messages (for drawing running clocks). */
  serverNow(): number {
    return Date.now() + (this.offsets.length ? Math.max(...this.offsets) : 0);
  }

  /**
   * Closes the connection for good. Ops still waiting are rejected with OnairTransportError `aborted`; a
   * `close` event (code 1000, `reconnecting: false`) follows at once.
   */
  close(): void {
    if (this.stopped) return;
    const socket = this.socket;
    this.stop(
      new OnairTransportError('aborted', 'the live channel was closed by the client'),
      1000,
      'closed by the client',
    );
    try {
      socket?.close(1000, 'client closed');
    } catch {
      // Closing a socket that never opened may throw on some platforms: it is gone either way.
    }
  }

  protected send(op: ClientOp, options?: LiveOpOptions): Promise<LiveAck> {
    if (this.stopped) return Promise.reject(this.stoppedError());
    this.connect();
    const id = String(++this.seq);
    const timeoutMs = options?.timeoutMs ?? this.ackTimeoutMs;
    return new Promise<LiveAck>((resolve, reject) => {
      const entry: PendingOp = {
        message: { ...op, id },
        sent: false,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.pending.delete(id);
          const where = entry.sent ? 'no answer' : 'no connection to send it on';
          reject(new OnairTransportError('timeout', `the ${op.op} op got ${where} within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.pending.set(id, entry);
      if (this.socket?.readyState === OPEN && this.currentStatus === 'open') this.transmit(entry);
    });
  }

  private transmit(entry: PendingOp): void {
    if (this.sendRaw(entry.message)) entry.sent = true;
  }

  private sendRaw(message: object): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return false;
    try {
      socket.send(JSON.stringify(message));
      return true;
    } catch (err) {
      this.emit('error', err instanceof Error ? err : new Error(String(err)));
      return false;
    }
  }

  private async open(): Promise<void> {
    this.setStatus(this.attempt === 0 && this.currentState === null ? 'connecting' : 'reconnecting');
    try {
      this.resolved ??= await resolveWebSocket(this.options.WebSocket);
    } catch (err) {
      this.stop(err instanceof Error ? err : new Error(String(err)), ABNORMAL, 'no WebSocket implementation');
      return;
    }
    if (this.stopped) return;
    const { WebSocket, nodeStyle } = this.resolved;
    const url = new URL(`${this.baseUrl.replace(/^http/i, 'ws')}/v1/ws`);
    url.searchParams.set('channel', this.channelId);
    const protocols = [SUBPROTOCOL];
    let headers: Record<string, string> | undefined;
    url.searchParams.set('scenes', this.options.scenes ?? (this.outputToken === undefined ? 'all' : 'buses'));
    if (this.outputToken !== undefined) url.searchParams.set('token', this.outputToken);
    else if ((this.options.keyTransport ?? (nodeStyle ? 'header' : 'subprotocol')) === 'header') {
      headers = { Authorization: `Bearer ${this.apiKey}`, 'User-Agent': USER_AGENT };
    } else protocols.push(`bearer.${this.apiKey}`);

    let socket: WebSocketLike;
    try {
      socket = headers
        ? new WebSocket(url.toString(), protocols, { headers })
        : new WebSocket(url.toString(), protocols);
    } catch (err) {
      this.emit('error', err instanceof Error ? err : new Error(String(err)));
      this.gone(ABNORMAL, 'the WebSocket could not be created');
      return;
    }
    this.socket = socket;
    let refusal: OnairApiError | undefined;
    const node = asNodeStyle(socket);
    node?.on('unexpected-response', (_req, res) => {
      readRefusal(res).then(
        (error) => {
          refusal = error;
          node.terminate();
        },
        () => node.terminate(),
      );
    });
    this.connectTimer = setTimeout(() => {
      if (this.socket === socket) this.abandon(socket, `not open within ${this.connectTimeoutMs} ms`);
    }, this.connectTimeoutMs);
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return;
      clearTimeout(this.connectTimer);
      this.lastHeard = Date.now();
      this.setStatus('open');
      this.startWatchdog(socket);
      this.emit('open');
      for (const entry of this.pending.values()) if (!entry.sent) this.transmit(entry);
    });
    socket.addEventListener('message', (event) => {
      if (this.socket === socket) this.receive(event.data);
    });
    // Every error is followed by a close, which decides what happens next.
    socket.addEventListener('error', () => undefined);
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.gone(event.code, event.reason, refusal);
    });
  }

  private receive(data: unknown): void {
    const receivedAt = Date.now();
    this.lastHeard = receivedAt;
    const msg = parseServerMessage(data);
    if (!msg) {
      this.emit('error', new Error('onair: ignored a WebSocket message that is not a known JSON message'));
      return;
    }
    if (msg.type === 'snapshot' || msg.type === 'frame' || msg.type === 'heartbeat') this.sample(msg, receivedAt);
    switch (msg.type) {
      case 'snapshot':
        return this.onSnapshot(msg);
      case 'frame':
        return this.onFrame(msg);
      case 'heartbeat':
        return this.emit('heartbeat', msg);
      case 'ack': {
        const entry = this.pending.get(msg.id);
        if (!entry) return;
        this.settle(msg.id);
        return entry.resolve(ackOf(msg));
      }
      case 'error': {
        const error = OnairApiError.fromSocket(msg.code, msg.detail);
        const entry = msg.id === null ? undefined : this.pending.get(msg.id);
        if (entry && msg.id !== null) {
          this.settle(msg.id);
          return entry.reject(error);
        }
        this.emit('error', error);
        // A refused resync (more than 10 in 10 s): ask again a little later, still out of sync.
        if (!this.isSynced) this.scheduleResync();
        return;
      }
    }
  }

  private onSnapshot(msg: SnapshotMessage): void {
    if (msg.channelId !== this.channelId) return;
    clearTimeout(this.resyncTimer);
    this.currentState = stateFromSnapshot(msg);
    this.isSynced = true;
    // A snapshot proves the line works end to end: only now is the backoff forgiven.
    this.attempt = 0;
    this.emit('snapshot', msg);
    this.emit('state', this.currentState, 'snapshot');
  }

  private onFrame(msg: FrameMessage): void {
    if (!this.isSynced || !this.currentState || msg.channelId !== this.channelId) return;
    const next = applyFrame(this.currentState, msg);
    if (next === 'gap') {
      this.resync();
      return;
    }
    this.currentState = next;
    this.emit('frame', msg);
    this.emit('state', next, 'frame');
    for (const trigger of msg.triggers ?? []) this.emit('trigger', trigger);
  }

  private scheduleResync(): void {
    clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(() => {
      if (!this.isSynced) this.resync();
    }, RESYNC_RETRY_MS);
  }

  /** Server time minus local time, from the least delayed of the last few messages. */
  private sample(msg: { serverTime: number }, receivedAt: number): void {
    this.offsets.push(msg.serverTime - receivedAt);
    if (this.offsets.length > 8) this.offsets.shift();
  }

  private settle(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(id);
  }

  private startWatchdog(socket: WebSocketLike): void {
    clearInterval(this.watchdog);
    const every = Math.max(100, Math.min(5_000, Math.floor(this.heartbeatTimeoutMs / 3)));
    this.watchdog = setInterval(() => {
      if (this.socket !== socket) return clearInterval(this.watchdog);
      const silent = Date.now() - this.lastHeard;
      if (silent > this.heartbeatTimeoutMs) this.abandon(socket, `nothing heard for ${silent} ms`);
    }, every);
  }

  /** Gives up on a socket without waiting for its close handshake (a dead line may never answer one). */
  private abandon(socket: WebSocketLike, reason: string): void {
    this.socket = null;
    try {
      const node = asNodeStyle(socket);
      if (node) node.terminate();
      else socket.close();
    } catch {
      // Already closed.
    }
    this.gone(ABNORMAL, reason);
  }

  /** The connection is gone: reject what was in flight, then reconnect or stop. */
  private gone(code: number, reason: string, refusal?: OnairApiError): void {
    this.socket = null;
    clearTimeout(this.connectTimer);
    clearTimeout(this.resyncTimer);
    clearInterval(this.watchdog);
    this.isSynced = false;
    if (this.stopped) return;
    for (const [id, entry] of [...this.pending]) {
      if (!entry.sent) continue;
      this.settle(id);
      entry.reject(
        new OnairTransportError(
          'disconnected',
          `the connection dropped before the ${entry.message.op} op was answered: it may or may not have been applied`,
        ),
      );
    }
    if (refusal && FINAL_REFUSALS.has(refusal.status)) return this.stop(refusal, code, reason);
    if (refusal) this.emit('error', refusal);
    if (isTerminalClose(code)) return this.stop(terminalCloseError(code, reason), code, reason);
    const policy = this.reconnectPolicy;
    if (!policy) {
      return this.stop(
        new OnairTransportError('disconnected', `the connection closed (${code} ${reason})`),
        code,
        reason,
      );
    }
    if (this.attempt >= policy.maxAttempts) {
      const error = new OnairTransportError(
        'network',
        `gave up after ${this.attempt} reconnect attempts (${code} ${reason})`,
      );
      return this.stop(error, code, reason);
    }
    let delayMs = reconnectDelay(this.attempt, code, policy);
    if (refusal?.retryAfter !== undefined) delayMs = Math.max(delayMs, refusal.retryAfter * 1000);
    this.attempt += 1;
    this.setStatus('reconnecting');
    this.emit('close', { code, reason, reconnecting: true, delayMs });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) void this.open();
    }, delayMs);
  }

  /** Stops for good: nothing reconnects, every op still waiting is rejected. */
  private stop(error: Error, code: number, reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.finalError = error;
    this.socket = null;
    this.isSynced = false;
    clearTimeout(this.retryTimer);
    clearTimeout(this.connectTimer);
    clearTimeout(this.resyncTimer);
    clearInterval(this.watchdog);
    for (const [id, entry] of [...this.pending]) {
      this.settle(id);
      entry.reject(error);
    }
    this.setStatus('closed');
    const byClient = error instanceof OnairTransportError && error.code === 'aborted';
    if (!byClient) this.emit('error', error);
    this.emit('close', byClient ? { code, reason, reconnecting: false } : { code, reason, reconnecting: false, error });
  }

  private stoppedError(): Error {
    return this.finalError ?? new OnairTransportError('aborted', 'the live channel is closed');
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.emit('status', status);
  }
}

/** What an ack answers the op's caller: its frame, and the clock, rundown or item it carries. */
function ackOf(msg: AckMessage): LiveAck {
  const ack: LiveAck = { frame: msg.frame };
  if (msg.clock !== undefined) ack.clock = msg.clock;
  if (msg.rundown !== undefined) ack.rundown = msg.rundown;
  if (msg.item !== undefined) ack.item = msg.item;
  return ack;
}
