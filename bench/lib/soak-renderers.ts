/**
 * The renderers of bench/soak.ts in their own process: `perChannel` output-token WebSockets per channel
 * (bench/lib/ws-lite.ts) that read every message as an output page would. For each frame: its delivery time
 * (the frame's serverTime, the time of the tick that made it on the server's clock, to its arrival on this
 * process's clock: both performance.timeOrigin + performance.now() on one machine), and whether it follows the
 * last frame this socket saw (`prev`), so a frame that never arrived is counted. `window` answers what came since
 * the last call.
 */
import { childConfig, ready, serveParent } from './child.js';
import { connectRenderer, type ChannelRef } from './endpoints.js';
import { connectMany } from './ws-lite.js';

export interface SoakRenderersConfig {
  port: number;
  channels: ChannelRef[];
  perChannel: number;
}

/** Delivery times in buckets of 0.1 ms up to 5 s (the last bucket holds everything above). */
const BUCKET_MS = 0.1;
const BUCKETS = 50_000;

export interface RenderersWindow {
  frames: number;
  snapshots: number;
  heartbeats: number;
  /** Frames whose `prev` was not the last frame that socket saw: at least one frame missed. */
  gaps: number;
  /** Messages that were not JSON or of an unknown type. */
  odd: number;
  /** Sockets closed since the start (they are not reopened). */
  closed: number;
  /** Frame delivery times as [bucket, count] pairs: bucket × bucketMs is the time in ms, rounded down. */
  latency: [number, number][];
  bucketMs: number;
  cpu: NodeJS.CpuUsage;
  at: number;
}

const cfg = childConfig<SoakRenderersConfig>();
const counts = { frames: 0, snapshots: 0, heartbeats: 0, gaps: 0, odd: 0, closed: 0 };
let histogram = new Uint32Array(BUCKETS);

type Message = { type?: string; frame?: number; prev?: number; serverTime?: number };

function onMessage(last: { frame: number | null }, text: string | null): void {
  let msg: Message;
  try {
    msg = JSON.parse(text ?? '') as Message;
  } catch {
    counts.odd++;
    return;
  }
  if (msg.type === 'frame') {
    const ms = performance.timeOrigin + performance.now() - Number(msg.serverTime);
    histogram[Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)))]!++;
    counts.frames++;
    if (last.frame !== null && msg.prev !== last.frame) counts.gaps++;
    last.frame = msg.frame ?? null;
  } else if (msg.type === 'snapshot') {
    counts.snapshots++;
    last.frame = msg.frame ?? null;
  } else if (msg.type === 'heartbeat') counts.heartbeats++;
  else counts.odd++;
}

const sockets = await connectMany(cfg.channels.length * cfg.perChannel, 32, (i) => {
  const last = { frame: null as number | null };
  return connectRenderer({ kind: 'onair', port: cfg.port }, cfg.channels[Math.floor(i / cfg.perChannel)]!, {
    wantText: true,
    onMessage: (text) => onMessage(last, text),
    onClose: () => void counts.closed++,
  });
});

serveParent(
  {
    window: (): RenderersWindow => {
      const latency: [number, number][] = [];
      histogram.forEach((n, i) => n > 0 && latency.push([i, n]));
      histogram = new Uint32Array(BUCKETS);
      const out = { ...counts, latency, bucketMs: BUCKET_MS, cpu: process.cpuUsage(), at: performance.now() };
      Object.assign(counts, { frames: 0, snapshots: 0, heartbeats: 0, gaps: 0, odd: 0 });
      return out;
    },
  },
  () => sockets.forEach((s) => s.close()),
);
ready({ connected: sockets.length });
