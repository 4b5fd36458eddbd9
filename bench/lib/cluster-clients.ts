/**
 * The load of bench/cluster.ts in its own process: `perChannel` renderers per channel (output-token WebSockets that
 * read every message, bench/lib/ws-lite.ts), spread evenly over the nodes (renderer j of a channel on node j mod N),
 * and every channel updated `rate` times a second by REST `PATCH /v1/channels/:id/inputs`, the channels staggered
 * evenly, value s of channel c sent to node (c + s) mod N: round-robin, so with N > 1 most PATCHes reach a node that
 * does not own the channel and are forwarded.
 *
 * A latency sample is the time from sending a value to a renderer receiving a frame that carries it (or a newer value
 * of the same channel, when two shared one frame), both on this process's clock. Samples are split by where the
 * renderer is (on the channel's owner, which ticks it and hands frames to its own renderers at once, or on another
 * node, which gets them through Redis) and by where the PATCH went (the owner, or another node that forwards it).
 */
import http from 'node:http';
import { childConfig, LOCALHOST, ready, serveParent, sleep } from './child.js';
import { percentile } from './stats.js';
import { connectLite, connectMany, type LiteSocket } from './ws-lite.js';

export interface ClusterClientsConfig {
  key: string;
  nodes: { id: string; port: number }[];
  channels: { id: string; token: string }[];
  perChannel: number;
  /** PATCHes per channel per second. */
  rate: number;
}

export interface ClusterClientsRun {
  warmupMs: number;
  seconds: number;
  /** channel id → owner node id, read from Postgres just before the run. */
  owners: Record<string, string | null>;
}

export interface Dist {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Where the renderer was × where the PATCH went, relative to the channel's owner. */
export type Quadrant = 'ownerDirect' | 'ownerForwarded' | 'otherDirect' | 'otherForwarded';

export interface ClusterClientsResult {
  /** PATCH sent → renderer received the value. */
  all: Dist;
  byRenderer: { owner: Dist; other: Dist };
  byPatch: { direct: Dist; forwarded: Dist };
  quadrants: Record<Quadrant, Dist>;
  /**
   * The hop, paired: for each value, when the first renderer on another node got it minus when the first renderer on
   * the owner got it (one sample per value per other node). Empty with one node.
   */
  hop: Dist;
  /** PATCH sent → its answer read, 200s only. */
  answer: { all: Dist; direct: Dist; forwarded: Dist };
  /** Frame messages received by all renderers during the measured window, and per node. */
  frames: number;
  framesByNode: number[];
  windowMs: number;
  /** PATCHes sent in the measured window; answers by status (0: the request failed). */
  sent: number;
  statuses: Record<string, number>;
  /** PATCHes sent in the window still unanswered 3 s after the last was sent. */
  unanswered: number;
  /** Answers that took longer than SLOW_MS (at most 20 listed): ms, node, whether it was forwarded, status. */
  slow: { ms: number; node: string; forwarded: boolean; status: number }[];
  slowCount: number;
  /** Values sent in the window and answered 200, × renderers per channel, that no renderer sample accounts for. */
  missing: number;
  /** Frames whose `prev` was not the last frame that socket saw (a frame it never got), during the whole run. */
  gaps: number;
  /** Snapshots received after the first one of each socket: a resync. */
  extraSnapshots: number;
  /** Renderer sockets closed during the run (they are not reopened). */
  closed: number;
  /** Error messages the renderers received, and messages that were not JSON. */
  odd: number;
  clientCpu: number;
}

const RING = 4096;
const SLOW_MS = 250;
const cfg = childConfig<ClusterClientsConfig>();
const N = cfg.nodes.length;
/** Send time and receiving node by channel and value (ring); NaN when refused or sent outside the window. */
const sentAt = cfg.channels.map(() => new Float64Array(RING).fill(NaN));
const via = cfg.channels.map(() => new Int8Array(RING));
/** When the first renderer on each node received each value: by channel, node and value (ring). */
const firstAt = cfg.channels.map(() => cfg.nodes.map(() => new Float64Array(RING).fill(NaN)));
// noDelay: without it Nagle holds the body back until the delayed ACK. Up to 4 requests in flight per channel.
const agents = cfg.nodes.map(
  () => new http.Agent({ keepAlive: true, maxSockets: cfg.channels.length * 4, noDelay: true }),
);

interface Renderer {
  ch: number;
  node: number;
  lastSeq: number;
  lastFrame: number | null;
  snapshots: number;
}

const state = {
  recording: false,
  stopping: false,
  frames: 0,
  framesByNode: new Array<number>(N).fill(0),
  sent: 0,
  statuses: {} as Record<string, number>,
  acknowledged: 0,
  gaps: 0,
  closed: 0,
  odd: 0,
};
let owners: number[] = cfg.channels.map(() => -1);
/** Requests sent in the window and not answered yet. */
const inFlight = new Set<number>();
let nextRequest = 0;
let slow: ClusterClientsResult['slow'] = [];
let slowCount = 0;
let samples: Record<Quadrant, number[]> = emptyQuadrants();
let answers: { direct: number[]; forwarded: number[] } = { direct: [], forwarded: [] };

function emptyQuadrants(): Record<Quadrant, number[]> {
  return { ownerDirect: [], ownerForwarded: [], otherDirect: [], otherForwarded: [] };
}

function onMessage(r: Renderer, text: string | null): void {
  if (text === null) return;
  let msg: {
    type?: string;
    frame?: number;
    prev?: number;
    inputs?: { scoreA?: unknown };
  };
  try {
    msg = JSON.parse(text) as typeof msg;
  } catch {
    state.odd++;
    return;
  }
  if (msg.type === 'snapshot') {
    r.snapshots++;
    r.lastFrame = msg.frame ?? null;
    return;
  }
  if (msg.type === 'error') state.odd++;
  if (msg.type !== 'frame') return;
  const now = performance.now();
  if (state.recording) {
    state.frames++;
    state.framesByNode[r.node]!++;
  }
  if (r.lastFrame !== null && msg.prev !== r.lastFrame) state.gaps++;
  r.lastFrame = msg.frame ?? r.lastFrame;
  const seq = msg.inputs?.scoreA;
  if (typeof seq !== 'number') return;
  const first = firstAt[r.ch]![r.node]!;
  if (Number.isNaN(first[seq % RING]!)) first[seq % RING] = now;
  const owner = owners[r.ch]!;
  const onOwner = r.node === owner;
  for (let q = Math.max(r.lastSeq + 1, seq - RING + 1); q <= seq; q++) {
    const t = sentAt[r.ch]![q % RING]!;
    if (Number.isNaN(t)) continue;
    const direct = via[r.ch]![q % RING] === owner;
    samples[onOwner ? (direct ? 'ownerDirect' : 'ownerForwarded') : direct ? 'otherDirect' : 'otherForwarded'].push(
      now - t,
    );
  }
  r.lastSeq = Math.max(r.lastSeq, seq);
}

function count(status: number): void {
  state.statuses[status] = (state.statuses[status] ?? 0) + 1;
}

function send(ch: number, seq: number): void {
  const node = (ch + seq) % N;
  const recording = state.recording;
  const t0 = performance.now();
  sentAt[ch]![seq % RING] = recording ? t0 : NaN;
  via[ch]![seq % RING] = node;
  for (const f of firstAt[ch]!) f[seq % RING] = NaN;
  const request = nextRequest++;
  if (recording) {
    state.sent++;
    inFlight.add(request);
  }
  const answered = (status: number) => {
    inFlight.delete(request);
    const ms = performance.now() - t0;
    if (ms <= SLOW_MS) return;
    slowCount++;
    if (slow.length < 20) slow.push({ ms, node: cfg.nodes[node]!.id, forwarded: node !== owners[ch], status });
  };
  const req = http.request(
    {
      host: LOCALHOST,
      port: cfg.nodes[node]!.port,
      method: 'PATCH',
      path: `/v1/channels/${cfg.channels[ch]!.id}/inputs`,
      agent: agents[node],
      headers: { authorization: `Bearer ${cfg.key}`, 'content-type': 'application/json' },
    },
    (res) => {
      res.resume();
      res.once('end', () => {
        if (!recording) return;
        answered(res.statusCode ?? 0);
        count(res.statusCode ?? 0);
        if (res.statusCode !== 200) {
          sentAt[ch]![seq % RING] = NaN;
          return;
        }
        state.acknowledged++;
        (node === owners[ch] ? answers.direct : answers.forwarded).push(performance.now() - t0);
      });
    },
  );
  req.on('error', () => {
    if (!recording) return;
    answered(0);
    sentAt[ch]![seq % RING] = NaN;
    count(0);
  });
  req.end(`{"scoreA":${seq}}`);
}

const seqs = cfg.channels.map(() => 0);

/** Every channel's updates on an even stagger until `until`; a 1 ms timer checks what is due. */
async function drive(until: number): Promise<void> {
  const period = 1000 / cfg.rate;
  const start = performance.now();
  const next = cfg.channels.map((_, i) => start + (i * period) / cfg.channels.length);
  while (performance.now() < until) {
    const now = performance.now();
    for (let i = 0; i < next.length; i++) {
      if (next[i]! > now) continue;
      next[i]! += period;
      send(i, ++seqs[i]!);
    }
    await sleep(1);
  }
}

/** The paired hop of every value sent in the window and answered 200. */
function pairedHop(): number[] {
  const out: number[] = [];
  cfg.channels.forEach((_, c) => {
    const owner = owners[c]!;
    if (owner < 0) return;
    for (let s = Math.max(1, seqs[c]! - RING + 1); s <= seqs[c]!; s++) {
      if (Number.isNaN(sentAt[c]![s % RING]!)) continue;
      const atOwner = firstAt[c]![owner]![s % RING]!;
      if (Number.isNaN(atOwner)) continue;
      for (let n = 0; n < N; n++) {
        const at = firstAt[c]![n]![s % RING]!;
        if (n !== owner && !Number.isNaN(at)) out.push(at - atOwner);
      }
    }
  });
  return out;
}

function dist(values: number[]): Dist {
  const s = Float64Array.from(values).sort();
  return {
    count: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : NaN,
  };
}

async function run(r: ClusterClientsRun): Promise<ClusterClientsResult> {
  owners = cfg.channels.map((c) => cfg.nodes.findIndex((n) => n.id === r.owners[c.id]));
  samples = emptyQuadrants();
  answers = { direct: [], forwarded: [] };
  inFlight.clear();
  slow = [];
  slowCount = 0;
  Object.assign(state, {
    recording: false,
    frames: 0,
    framesByNode: new Array<number>(N).fill(0),
    sent: 0,
    statuses: {},
    acknowledged: 0,
  });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let windowStart = 0;
  let windowEnd = 0;
  const begin = setTimeout(() => {
    state.recording = true;
    windowStart = performance.now();
  }, r.warmupMs);
  const end = setTimeout(
    () => {
      state.recording = false;
      windowEnd = performance.now();
    },
    r.warmupMs + r.seconds * 1000,
  );
  await drive(t0 + r.warmupMs + r.seconds * 1000);
  clearTimeout(begin);
  clearTimeout(end);
  if (state.recording) {
    state.recording = false;
    windowEnd = performance.now();
  }
  // The last values' frames and answers.
  await sleep(1_000);
  for (let waited = 1_000; inFlight.size > 0 && waited < 3_000; waited += 50) await sleep(50);
  const cpu = process.cpuUsage(cpu0);
  const q = samples;
  const measured = q.ownerDirect.length + q.ownerForwarded.length + q.otherDirect.length + q.otherForwarded.length;
  return {
    all: dist([...q.ownerDirect, ...q.ownerForwarded, ...q.otherDirect, ...q.otherForwarded]),
    byRenderer: {
      owner: dist([...q.ownerDirect, ...q.ownerForwarded]),
      other: dist([...q.otherDirect, ...q.otherForwarded]),
    },
    byPatch: {
      direct: dist([...q.ownerDirect, ...q.otherDirect]),
      forwarded: dist([...q.ownerForwarded, ...q.otherForwarded]),
    },
    quadrants: {
      ownerDirect: dist(q.ownerDirect),
      ownerForwarded: dist(q.ownerForwarded),
      otherDirect: dist(q.otherDirect),
      otherForwarded: dist(q.otherForwarded),
    },
    hop: dist(pairedHop()),
    answer: {
      all: dist([...answers.direct, ...answers.forwarded]),
      direct: dist(answers.direct),
      forwarded: dist(answers.forwarded),
    },
    frames: state.frames,
    framesByNode: state.framesByNode,
    windowMs: windowEnd - windowStart,
    sent: state.sent,
    statuses: state.statuses,
    unanswered: inFlight.size,
    slow,
    slowCount,
    missing: Math.max(0, state.acknowledged * cfg.perChannel - measured),
    gaps: state.gaps,
    extraSnapshots: renderers.reduce((n, x) => n + Math.max(0, x.snapshots - 1), 0),
    closed: state.closed,
    odd: state.odd,
    clientCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - t0),
  };
}

const renderers: Renderer[] = [];

async function connectAll(): Promise<LiteSocket[]> {
  const n = cfg.perChannel;
  const sockets = await connectMany(cfg.channels.length * n, 32, (i) => {
    const ch = Math.floor(i / n);
    const r: Renderer = { ch, node: (i % n) % N, lastSeq: 0, lastFrame: null, snapshots: 0 };
    renderers.push(r);
    const channel = cfg.channels[ch]!;
    return connectLite({
      host: LOCALHOST,
      port: cfg.nodes[r.node]!.port,
      path: `/v1/ws?channel=${channel.id}&token=${channel.token}`,
      wantText: true,
      onMessage: (t) => onMessage(r, t),
      onClose: () => {
        if (!state.stopping) state.closed++;
      },
    });
  });
  // Every renderer has its snapshot before the load starts.
  const deadline = Date.now() + 15_000;
  while (renderers.some((r) => r.snapshots === 0)) {
    if (Date.now() > deadline) throw new Error('renderers without a snapshot after 15 s');
    await sleep(50);
  }
  return sockets;
}

const sockets = await connectAll();
serveParent({ run: (args) => run(args as unknown as ClusterClientsRun) }, () => {
  state.stopping = true;
  for (const s of sockets) s.close();
  for (const a of agents) a.destroy();
});
ready({ connected: sockets.length, perNode: cfg.nodes.map((_, i) => renderers.filter((r) => r.node === i).length) });
