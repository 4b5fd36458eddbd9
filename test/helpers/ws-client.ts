/**
 * A render WebSocket client for tests: it records every message, lets a test wait for one, and keeps a mirror of the
 * channel with the reducer every client uses (docs/api.md, "Real-time WebSocket"; @onair/protocol, frame-reducer):
 * a snapshot replaces everything; a frame applies only when its `prev` is the last frame applied, otherwise the
 * client has missed something, asks for a resync and ignores frames until the next snapshot.
 */
import WebSocket from 'ws';
import {
  applyFrame,
  stateFromSnapshot,
  type AckMessage,
  type ErrorMessage,
  type FiredTrigger,
  type FrameMessage,
  type LiveState,
  type ServerMessage,
  type SnapshotMessage,
} from '@onair/protocol';

export type { AckMessage, ErrorMessage, FrameMessage, ServerMessage, SnapshotMessage };

/** How long a wait for a message lasts by default: a server round trip, with room for a busy machine. */
export const WAIT_MS = 15_000;

/** The channel as the client has it: the protocol's state, but for the time of its last message (each connection's own). */
export type Mirror = Omit<LiveState, 'serverTime'>;

export interface WsAuth {
  /** Output token (read-only renderer). */
  token?: string;
  /** API key, sent as `Authorization: Bearer`. */
  key?: string;
  /** Other upgrade headers: a dashboard session's `cookie` and the page's `origin`. */
  headers?: Record<string, string>;
  /** The `scenes` query parameter: which scene definitions the connection gets (default: the server's, `buses`). */
  scenes?: string;
  /** The `channels` query parameter (several channels on one connection); the channel argument is then left out when ''. */
  channels?: string;
}

/** The upgrade was answered with an HTTP status instead of 101. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
    readonly body: string,
  ) {
    super(`WebSocket upgrade refused with HTTP ${status}: ${body}`);
  }
}

export function wsUrl(baseUrl: string, channelId: string, token?: string, scenes?: string, channels?: string): string {
  const url = new URL('/v1/ws', baseUrl.replace(/^http/, 'ws'));
  if (channelId !== '' || channels === undefined) url.searchParams.set('channel', channelId);
  if (channels !== undefined) url.searchParams.set('channels', channels);
  if (token !== undefined) url.searchParams.set('token', token);
  if (scenes !== undefined) url.searchParams.set('scenes', scenes);
  return url.toString();
}

export class RenderClient {
  readonly messages: ServerMessage[] = [];
  private live: LiveState | null = null;
  synced = false;
  /** Frames whose `prev` did not match: each one made the client ask for a resync. */
  gaps = 0;
  /** Payload bytes of every message received. */
  bytesReceived = 0;
  snapshots = 0;
  /** Triggers fired in the frames applied, in order (a snapshot never replays them). */
  readonly fired: FiredTrigger[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters = new Set<() => void>();

  get mirror(): Mirror | null {
    if (!this.live) return null;
    const mirror: Mirror & { serverTime?: number } = { ...this.live };
    delete mirror.serverTime;
    return mirror;
  }

  private constructor(private readonly ws: WebSocket) {
    // A socket error also closes it; tests look at the close code, so the error itself needs no handler.
    ws.on('error', () => undefined);
    // Text messages arrive as Buffers (the default binaryType).
    ws.on('message', (data: Buffer) => {
      this.bytesReceived += data.byteLength;
      this.receive(JSON.parse(data.toString('utf8')) as ServerMessage);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      });
    });
  }

  /** Resolves once open; rejects with UpgradeRefused when the server answers the upgrade with a status. */
  static connect(baseUrl: string, channelId: string, auth: WsAuth): Promise<RenderClient> {
    const headers: Record<string, string> = {
      ...(auth.key ? { authorization: `Bearer ${auth.key}` } : {}),
      ...auth.headers,
    };
    const ws = new WebSocket(wsUrl(baseUrl, channelId, auth.token, auth.scenes, auth.channels), { headers });
    const client = new RenderClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          reject(new UpgradeRefused(res.statusCode ?? 0, res.headers, body));
          ws.terminate();
        });
      });
      ws.once('error', reject);
    });
  }

  send(msg: object): void {
    this.ws.send(JSON.stringify(msg));
  }

  sendText(text: string): void {
    this.ws.send(text);
  }

  /** Sends a binary frame (the server takes JSON text only). */
  sendBinary(data: Uint8Array): void {
    this.ws.send(data, { binary: true });
  }

  /** Stops reading from the socket (the server's send buffer fills up); resume() reads again. */
  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  close(): void {
    this.ws.close();
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  /** Index to pass as `since`, so that only messages received from now on count. */
  mark(): number {
    return this.messages.length;
  }

  /** The first message (at index ≥ since) matching `pred`, waiting for it if needed. */
  next<M extends ServerMessage = ServerMessage>(
    pred: (m: ServerMessage) => boolean,
    { since = 0, timeoutMs = WAIT_MS }: { since?: number; timeoutMs?: number } = {},
  ): Promise<M> {
    return this.until(() => this.messages.slice(since).find(pred) as M | undefined, timeoutMs, 'a matching message');
  }

  /** The ack or error answering the op sent with this id. */
  reply(id: string, timeoutMs = WAIT_MS): Promise<AckMessage | ErrorMessage> {
    return this.next((m) => (m.type === 'ack' || m.type === 'error') && m.id === id, { timeoutMs });
  }

  /** Resolves when `check()` returns something other than undefined, re-checked after every message. */
  until<T>(check: () => T | undefined, timeoutMs = WAIT_MS, what = 'a condition'): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const found = check();
        if (found === undefined) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const recent = this.messages.slice(-3).map((m) => JSON.stringify(m).slice(0, 300));
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last messages: ${recent.join(' | ')}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter = () => void attempt();
      if (!attempt()) this.waiters.add(waiter);
    });
  }

  /**
   * Waits `ms` (a bounded wait is the only way to see that nothing arrives) and returns what arrived from
   * index `since` on, leaving out heartbeats: they keep the line alive on a timer and say nothing about
   * the channel.
   */
  async collectFor(ms: number, since = this.mark()): Promise<ServerMessage[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.messages.slice(since).filter((m) => (m.type as string) !== 'heartbeat');
  }

  private receive(msg: ServerMessage): void {
    this.messages.push(msg);
    if (msg.type === 'snapshot') this.applySnapshot(msg);
    else if (msg.type === 'frame') this.applyFrame(msg);
    this.wake();
  }

  private applySnapshot(msg: SnapshotMessage): void {
    this.snapshots++;
    this.synced = true;
    this.live = stateFromSnapshot(msg);
  }

  private applyFrame(msg: FrameMessage): void {
    if (!this.live || !this.synced) return;
    const next = applyFrame(this.live, msg);
    if (next === 'gap') {
      this.gaps++;
      this.synced = false;
      this.send({ op: 'resync' });
      return;
    }
    this.live = next;
    this.fired.push(...(msg.triggers ?? []));
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** The frame number of an ack; throws with the message when the reply is an error instead. */
export function ackedFrame(reply: AckMessage | ErrorMessage): number {
  if (reply.type !== 'ack') throw new Error(`expected an ack, got ${JSON.stringify(reply)}`);
  return reply.frame;
}

export function isFrame(m: ServerMessage): m is FrameMessage {
  return m.type === 'frame';
}

export function isSnapshot(m: ServerMessage): m is SnapshotMessage {
  return m.type === 'snapshot';
}

/**
 * Open WebSocket connections by kind (output, key, session), as the server counts them: its `onair_connections`
 * gauge at GET /metrics (served without a token unless ONAIR_METRICS_TOKEN is set). A connection leaves the count
 * when the server closes it, whether or not the client has read the close yet.
 */
export async function openConnections(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(new URL('/metrics', baseUrl))).text();
  const open: Record<string, number> = {};
  for (const match of text.matchAll(/^onair_connections\{kind="(\w+)"\} (\d+)$/gm)) open[match[1]!] = Number(match[2]);
  return open;
}
