/**
 * What users would pick instead of onair's render path: a server that publishes a frame to a channel's
 * renderers as soon as a control message (or, for `uws`, a REST PATCH) asks for it.
 * - `uws`: raw uWebSockets.js pub/sub (app.publish to a topic);
 * - `ws`: the `ws` library, looping over the channel's sockets;
 * - `socketio`: socket.io, emitting to a room (what NodeCG and SPX use).
 * Frames have onair's JSON shape and size. Renderers and control sockets connect with ?channel=<id>.
 * For fan-out, `drive` publishes one frame per channel per event-loop turn. uWS skips subscribers past
 * maxBackpressure by itself (onair instead closes a subscriber past 256 KiB with 4100); `ws` and socket.io would
 * buffer without bound, so their round
 * is skipped while a sampled renderer has more than that buffered.
 *
 * `tickHz` (uws only) is the frame-clocked variant the latency target is stated against ("publish →
 * receive at 60 Hz"): values are kept as they arrive and each channel's latest is published on the next
 * frame boundary, all channels of a frame in one burst, as onair does; serverTime is then the publish
 * time with sub-millisecond precision, so the client can measure publish → receive.
 */
import http, { type IncomingMessage } from 'node:http';
import { Server as SocketIo } from 'socket.io';
import uWS from 'uWebSockets.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { childConfig, LOCALHOST, memorySnapshot, ready, serveParent } from '../lib/child.js';
import { driveLoop, driven, type Stop } from './driver.js';

type Kind = 'uws' | 'ws' | 'socketio';
const MAX_BACKPRESSURE = 256 * 1024; // as onair's render socket

let frame = 107_719_055_134;
function frameFor(channelId: string, seq: number) {
  frame++;
  return { type: 'frame', channelId, frame, prev: frame - 1, serverTime: Date.now(), inputs: { scoreA: seq } };
}

interface Started {
  port: number;
  /** Publishes a round (one frame per channel); false when it was skipped for backpressure. */
  round: (channels: string[], seq: number) => boolean;
}

/** The clocked baseline's own timer lateness, counted as onair's FrameClock counts it (> 2 ms). */
const baselineClock = { ticks: 0, late: 0 };

/** Keeps each channel's latest value and publishes them all at every 1/hz boundary (no drift). */
function clocked(hz: number, publishNow: (channel: string, seq: number, at: number) => void) {
  const period = 1000 / hz;
  const pending = new Map<string, number>();
  const wallNow = () => performance.timeOrigin + performance.now();
  let armed = false;
  const arm = () => {
    armed = true;
    const next = (Math.floor(wallNow() / period) + 1) * period;
    setTimeout(() => {
      armed = false;
      const at = wallNow();
      baselineClock.ticks++;
      if (at - next > 2) baselineClock.late++;
      for (const [channel, seq] of pending) publishNow(channel, seq, at);
      pending.clear();
    }, next - wallNow());
  };
  return (channel: string, seq: number) => {
    pending.set(channel, seq);
    if (!armed) arm();
  };
}

function startUws(tickHz?: number): Promise<Started> {
  const app = uWS.App();
  const publishNow = (channel: string, seq: number, at?: number) => {
    const f = frameFor(channel, seq);
    if (at !== undefined) f.serverTime = Math.round(at * 1000) / 1000;
    app.publish(channel, JSON.stringify(f), false);
  };
  const publish = tickHz ? clocked(tickHz, publishNow) : publishNow;
  const round = (channels: string[], seq: number) => {
    for (const c of channels) publish(c, seq);
    return true;
  };
  app.ws<{ channel: string }>('/*', {
    compression: uWS.DISABLED,
    maxBackpressure: MAX_BACKPRESSURE,
    idleTimeout: 32,
    upgrade: (res, req, context) => {
      const channel = new URLSearchParams(req.getQuery() ?? '').get('channel') ?? '';
      res.upgrade(
        { channel },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => void ws.subscribe(ws.getUserData().channel),
    message: (ws, msg) => void publish(ws.getUserData().channel, Number(Buffer.from(msg).toString())),
  });
  // REST input for the latency benchmark: read the body, publish, answer.
  app.patch('/v1/channels/:id/inputs', (res, req) => {
    const channel = req.getParameter(0) ?? '';
    let aborted = false;
    res.onAborted(() => (aborted = true));
    let body = '';
    res.onData((chunk, last) => {
      body += Buffer.from(chunk).toString();
      if (!last || aborted) return;
      const seq = (JSON.parse(body) as { scoreA: number }).scoreA;
      publish(channel, seq);
      res.cork(() => res.writeHeader('Content-Type', 'application/json').end(`{"channelId":"${channel}"}`));
    });
  });
  return new Promise((resolve, reject) =>
    app.listen(LOCALHOST, 0, (s) =>
      s ? resolve({ port: uWS.us_socket_local_port(s), round }) : reject(new Error('listen')),
    ),
  );
}

function congested<T>(sets: Iterable<Set<T>>, buffered: (s: T) => number): boolean {
  for (const set of sets) {
    const first = set.values().next();
    if (!first.done && buffered(first.value) > MAX_BACKPRESSURE) return true;
  }
  return false;
}

function startWs(): Promise<Started> {
  const wss = new WebSocketServer({ host: LOCALHOST, port: 0, perMessageDeflate: false });
  const topics = new Map<string, Set<WebSocket>>();
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const channel = new URL(req.url ?? '/', 'http://x').searchParams.get('channel') ?? '';
    let set = topics.get(channel);
    if (!set) topics.set(channel, (set = new Set()));
    set.add(ws);
    ws.on('close', () => set.delete(ws));
    ws.on('message', (data: Buffer) => send(channel, Number(data.toString())));
  });
  const send = (channel: string, seq: number) => {
    const text = JSON.stringify(frameFor(channel, seq));
    for (const client of topics.get(channel) ?? []) client.send(text);
  };
  const round = (channels: string[], seq: number) => {
    if (congested(topics.values(), (ws) => ws.bufferedAmount)) return false;
    for (const c of channels) send(c, seq);
    return true;
  };
  return new Promise((resolve) =>
    wss.on('listening', () => resolve({ port: (wss.address() as { port: number }).port, round })),
  );
}

type EioSocket = { conn: { writeBuffer: unknown[]; transport: { socket?: { bufferedAmount?: number } } } };

function startSocketIo(): Promise<Started> {
  const io = new SocketIo({ transports: ['websocket'], perMessageDeflate: false, serveClient: false });
  const rooms = new Map<string, Set<EioSocket>>();
  io.on('connection', (socket) => {
    const channel = String(socket.handshake.query.channel ?? '');
    void socket.join(channel);
    let set = rooms.get(channel);
    if (!set) rooms.set(channel, (set = new Set()));
    set.add(socket as unknown as EioSocket);
    socket.on('disconnect', () => set.delete(socket as unknown as EioSocket));
    socket.on('pub', (seq: number) => io.to(channel).emit('frame', frameFor(channel, seq)));
  });
  // engine.io queues in writeBuffer while its ws transport is busy; count both.
  const buffered = (s: EioSocket) => (s.conn.transport.socket?.bufferedAmount ?? 0) + s.conn.writeBuffer.length * 160;
  const round = (channels: string[], seq: number) => {
    if (congested(rooms.values(), buffered)) return false;
    for (const c of channels) io.to(c).emit('frame', frameFor(c, seq));
    return true;
  };
  const server = http.createServer();
  io.attach(server);
  return new Promise((resolve) =>
    server.listen(0, LOCALHOST, () => resolve({ port: (server.address() as { port: number }).port, round })),
  );
}

const { kind, tickHz } = childConfig<{ kind: Kind; tickHz?: number }>();
const starters: Record<Kind, () => Promise<Started>> = {
  uws: () => startUws(tickHz),
  ws: startWs,
  socketio: startSocketIo,
};
const started = await starters[kind]();
let stopDriving: Stop = () => {};
serveParent({
  stats: () => ({ cpu: process.cpuUsage(), at: performance.now(), ...driven, baselineClock: { ...baselineClock } }),
  memory: () => memorySnapshot(),
  driveStart: (args) => {
    const channels = args.channels as string[];
    stopDriving = driveLoop((n) => started.round(channels, n), Number(args.maxMs), Number(args.perTurn ?? 1));
  },
  driveStop: () => stopDriving(),
});
ready({ port: started.port });
