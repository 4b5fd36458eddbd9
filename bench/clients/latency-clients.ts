/**
 * Latency load in its own process: `perChannel` renderers per channel, and every channel updated `rate`
 * times a second (staggered evenly) by REST PATCH or by a WebSocket control op. A sample is the time from
 * sending a value to a renderer receiving a frame that carries it (or a newer value, when two updates
 * share one frame), measured on this process's clock. A second set of samples, one per frame received,
 * is publish → receive: from the frame's serverTime (the wall clock of the server's process when it sent
 * the frame) to its arrival (this process's wall clock; same machine).
 */
import http from 'node:http';
import { childConfig, LOCALHOST, ready, serveParent, sleep } from '../lib/child.js';
import {
  connectControl,
  connectRenderer,
  readFrame,
  patchMessage,
  type ChannelRef,
  type Target,
} from '../lib/endpoints.js';
import { summary } from '../lib/stats.js';
import { connectMany, type LiteSocket } from '../lib/ws-lite.js';

export interface LatencyConfig {
  target: Target;
  channels: ChannelRef[];
  perChannel: number;
  rate: number;
}

export interface LatencyRun {
  input: 'rest' | 'ws';
  seconds: number;
  warmupMs: number;
}

const RING = 1024;
const cfg = childConfig<LatencyConfig>();
const { kind } = cfg.target;
/** Send time by channel and value (ring); NaN when the value was refused or sent outside the window. */
const sentAt = cfg.channels.map(() => new Float64Array(RING).fill(NaN));
const samples: number[] = [];
const fromPublish: number[] = [];
const state = { recording: false, sent: 0, refused: 0, errors: 0 };
/** Renderer sockets the server closed during the run: as slow consumers (4100), or for another reason. */
const closes = { slow: 0, other: 0 };
// noDelay: without it Nagle holds the body back until the server's delayed ACK, adding ~40 ms.
// Up to 4 requests in flight per channel: onair answers once the tick is on disk (a frame and a flush,
// 10–30 ms), and a channel is updated every 33 ms; a shared pool any smaller queues updates in the client.
const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.channels.length * 4, noDelay: true });
let controls: LiteSocket[] = [];

function onFrame(ch: number, last: { seq: number }, text: string | null): void {
  const frame = text === null ? null : readFrame(kind, text);
  if (frame === null) return;
  const { seq } = frame;
  const now = performance.now();
  if (state.recording) fromPublish.push(performance.timeOrigin + now - frame.serverTime);
  for (let q = Math.max(last.seq + 1, seq - RING + 1); q <= seq; q++) {
    const t = sentAt[ch]![q % RING]!;
    if (!Number.isNaN(t)) samples.push(now - t);
  }
  last.seq = Math.max(last.seq, seq);
}

function refuse(ch: number, seq: number): void {
  sentAt[ch]![seq % RING] = NaN;
  state.refused++;
}

function sendRest(ch: number, seq: number): void {
  const body = `{"scoreA":${seq}}`;
  const req = http.request(
    {
      host: LOCALHOST,
      port: cfg.target.port,
      method: 'PATCH',
      path: `/v1/channels/${cfg.channels[ch]!.id}/inputs`,
      agent,
      headers: { authorization: `Bearer ${cfg.target.key ?? ''}`, 'content-type': 'application/json' },
    },
    (res) => {
      if (res.statusCode !== 200) refuse(ch, seq);
      res.resume();
    },
  );
  req.on('error', () => state.errors++);
  req.end(body);
}

function send(input: LatencyRun['input'], ch: number, seq: number): void {
  sentAt[ch]![seq % RING] = state.recording ? performance.now() : NaN;
  if (state.recording) state.sent++;
  if (input === 'rest') sendRest(ch, seq);
  else controls[ch]!.send(patchMessage(kind, seq));
}

/** Sends every channel's updates on an even stagger until `until`; a 1 ms timer checks what is due. */
async function drive(input: LatencyRun['input'], until: number, seqs: number[]): Promise<void> {
  const period = 1000 / cfg.rate;
  const start = performance.now();
  const next = cfg.channels.map((_, i) => start + (i * period) / cfg.channels.length);
  while (performance.now() < until) {
    const now = performance.now();
    for (let i = 0; i < next.length; i++) {
      if (next[i]! > now) continue;
      next[i]! += period;
      send(input, i, ++seqs[i]!);
    }
    await sleep(1);
  }
}

const seqs = cfg.channels.map(() => 0);

async function run(r: LatencyRun) {
  samples.length = 0;
  fromPublish.length = 0;
  Object.assign(state, { recording: false, sent: 0, refused: 0, errors: 0 });
  Object.assign(closes, { slow: 0, other: 0 });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  setTimeout(() => (state.recording = true), r.warmupMs);
  await drive(r.input, t0 + r.warmupMs + r.seconds * 1000, seqs);
  state.recording = false;
  await sleep(300); // let the last frames arrive
  const cpu = process.cpuUsage(cpu0);
  const expected = (state.sent - state.refused) * cfg.perChannel;
  return {
    ...summary(samples),
    publish: summary(fromPublish),
    sent: state.sent,
    refused: state.refused,
    errors: state.errors,
    missing: Math.max(0, expected - samples.length),
    closedSlow: closes.slow,
    closedOther: closes.other,
    clientCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - t0),
  };
}

async function connectAll(): Promise<LiteSocket[]> {
  const n = cfg.perChannel;
  const renderers = await connectMany(cfg.channels.length * n, 64, (i) => {
    const ch = Math.floor(i / n);
    const last = { seq: 0 };
    return connectRenderer(cfg.target, cfg.channels[ch]!, {
      wantText: true,
      onMessage: (t) => onFrame(ch, last, t),
      // A renderer closed mid-run misses every frame after it: the run counts why (slow-consumer.ts closes at 4100).
      onCloseFrame: (code) => void (code === 4100 ? closes.slow++ : closes.other++),
    });
  });
  controls = await connectMany(cfg.channels.length, 16, (i) =>
    connectControl(cfg.target, cfg.channels[i]!, {
      wantText: kind === 'onair',
      onMessage: (t) => {
        if (t?.startsWith('{"type":"error"')) refuse(i, Number((JSON.parse(t) as { id: string }).id));
      },
    }),
  );
  return [...renderers, ...controls];
}

const sockets = await connectAll();
serveParent({ run: (args) => run(args as unknown as LatencyRun) }, () => {
  for (const s of sockets) s.close();
  agent.destroy();
});
ready({ connected: sockets.length });
