/**
 * Renderer load in its own process: `perChannel` renderer sockets per channel (bench/lib/ws-lite.ts,
 * the same minimal client for every server) that count the messages they receive without decoding them.
 * Used for fan-out (how many messages arrive per second) and memory (idle sockets held open).
 */
import { childConfig, ready, serveParent } from '../lib/child.js';
import { connectRenderer, type ChannelRef, type Target } from '../lib/endpoints.js';
import { connectMany } from '../lib/ws-lite.js';

export interface RenderersConfig {
  target: Target;
  channels: ChannelRef[];
  perChannel: number;
}

const cfg = childConfig<RenderersConfig>();
let messages = 0;
let closed = 0;
const count = () => void messages++;

const sockets = await connectMany(cfg.channels.length * cfg.perChannel, 64, (i) =>
  connectRenderer(cfg.target, cfg.channels[Math.floor(i / cfg.perChannel)]!, {
    onMessage: count,
    onClose: () => void closed++,
  }),
);
serveParent({ count: () => ({ messages, closed, at: performance.now(), cpu: process.cpuUsage() }) }, () =>
  sockets.forEach((s) => s.close()),
);
ready({ connected: sockets.length });
