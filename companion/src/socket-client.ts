/**
 * One WebSocket for every followed channel, reconnecting with the shared backoff. It knows nothing of channels or
 * Companion: it reports the link's state and each server message, and sends ops that resolve on their ack.
 */
import WebSocket from 'ws';
import {
  CloseCode,
  HEARTBEAT_DEAD_AFTER_MS,
  SUBPROTOCOL,
  parseServerMessage,
  reconnectDelay,
  type AckMessage,
  type ServerMessage,
} from '@onair/protocol';

export type LinkState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /** The key was refused (401 at the upgrade, or 4001): retried slowly, since the operator may fix it. */
  | { kind: 'unauthorized'; detail: string }
  /** Refused for a reason the settings must fix (403/404/400 at the upgrade, or another 40xx close). */
  | { kind: 'refused'; detail: string }
  | { kind: 'unreachable'; detail: string };

/** An op's failure as the server answered it (`code` from the error catalogue), or a lost link (`code` null). */
export class OpError extends Error {
  constructor(
    readonly code: string | null,
    detail: string,
  ) {
    super(detail);
  }
}

/** How long an op waits for its ack; an ack comes once the change is durable, well inside this. */
export const ACK_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: (ack: AckMessage) => void;
  reject: (err: OpError) => void;
  timer: NodeJS.Timeout;
}

export interface SocketEvents {
  state(state: LinkState): void;
  message(msg: ServerMessage): void;
}

export class OnairSocket {
  #ws: WebSocket | null = null;
  #attempt = 0;
  #retry: NodeJS.Timeout | null = null;
  #deadline: NodeJS.Timeout | null = null;
  #pending = new Map<string, Pending>();
  #nextId = 1;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly events: SocketEvents,
  ) {}

  get isOpen(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.#closed = false;
    this.#connect();
  }

  stop(): void {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#deadline) clearTimeout(this.#deadline);
    this.#ws?.terminate();
    this.#ws = null;
    this.#failPending('stopped');
  }

  /** Sends a message that has no ack (`resync`); dropped when the link is down (the next snapshot repairs all). */
  sendRaw(msg: Record<string, unknown>): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify(msg));
  }

  /** Sends an op and resolves with its ack; rejects with the server's error, or when the link drops first. */
  send(op: Record<string, unknown>): Promise<AckMessage> {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new OpError(null, 'not connected'));
    const id = `c${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new OpError('timeout', `no answer within ${ACK_TIMEOUT_MS} ms`));
      }, ACK_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...op, id }));
    });
  }

  #connect(): void {
    this.events.state({ kind: 'connecting' });
    const ws = new WebSocket(this.url, [SUBPROTOCOL], { headers: { Authorization: `Bearer ${this.key}` } });
    this.#ws = ws;
    ws.on('open', () => {
      this.#attempt = 0;
      this.#alive();
      this.events.state({ kind: 'open' });
    });
    ws.on('message', (data: Buffer) => this.#receive(data));
    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      ws.terminate();
      this.#dropped(ws, upgradeRefusal(status), { status });
    });
    ws.on('error', () => undefined);
    ws.on('close', (code: number, reason: Buffer) => this.#dropped(ws, code, { reason: reason.toString() }));
  }

  #receive(data: Buffer): void {
    this.#alive();
    const text = data.toString('utf8');
    const msg = parseServerMessage(text);
    if (!msg) return;
    if (msg.type === 'ack' || (msg.type === 'error' && msg.id !== null)) {
      const pending = this.#pending.get(msg.id!);
      if (pending) {
        this.#pending.delete(msg.id!);
        clearTimeout(pending.timer);
        if (msg.type === 'ack') pending.resolve(msg);
        else pending.reject(new OpError(msg.code, msg.detail));
        return;
      }
    }
    this.events.message(msg);
  }

  /** A silent line is a dead one: the server sends a heartbeat every 5 s. */
  #alive(): void {
    if (this.#deadline) clearTimeout(this.#deadline);
    const ws = this.#ws;
    this.#deadline = setTimeout(() => ws?.terminate(), HEARTBEAT_DEAD_AFTER_MS);
  }

  #dropped(ws: WebSocket, code: number, why: { status?: number; reason?: string }): void {
    if (this.#ws !== ws) return;
    this.#ws = null;
    if (this.#deadline) clearTimeout(this.#deadline);
    this.#failPending('connection lost');
    if (this.#closed) return;
    const detail = why.status ? `HTTP ${why.status}` : `closed ${code}${why.reason ? `: ${why.reason}` : ''}`;
    if (code === CloseCode.unauthorized) this.events.state({ kind: 'unauthorized', detail });
    else if (code >= 4000 && code < 4100) this.events.state({ kind: 'refused', detail });
    else this.events.state({ kind: 'unreachable', detail });
    const delay = reconnectDelay(this.#attempt++, code);
    this.#retry = setTimeout(() => this.#connect(), delay);
  }

  #failPending(why: string): void {
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new OpError(null, why));
    }
    this.#pending.clear();
  }
}

/**
 * A refused upgrade as the close code that means the same: a refused key (401) is 4001; what the settings must fix
 * (400 bad parameters, 403 permission, 404 channel, 422 too many channels) a 40xx; anything else (429 full, 503
 * draining) a drop, retried soon.
 */
function upgradeRefusal(status: number): number {
  if (status === 401) return CloseCode.unauthorized;
  if ([400, 403, 404, 422].includes(status)) return CloseCode.forbidden;
  return 1006;
}
