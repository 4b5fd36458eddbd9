/**
 * Output pages in their own process, for bench/outputs.ts: `perChannel` output-token sockets per channel
 * (bench/lib/ws-lite.ts) that read the frame number of what they receive, as a page applies it; and one control
 * socket per channel that puts a new value on air `patchesPerSecond` times a second (the show the pages draw).
 * With `report`, each page sends the `painted` report at the output page's own cadence (docs/outputs.md): once it
 * has drawn its first frame, then every 5 s with the frame it drew last (what it shows, the scoreboard, does not
 * change: a new value alone waits for that report); without, the same sockets and show, and no reports.
 */
import { REPORT_ALIVE_MS, REPORT_MIN_INTERVAL_MS } from '@onair/protocol';
import { childConfig, ready, serveParent } from '../lib/child.js';
import { connectControl, connectRenderer, patchMessage, type ChannelRef, type Target } from '../lib/endpoints.js';
import { connectMany, type LiteSocket } from '../lib/ws-lite.js';

export interface OutputPagesConfig {
  target: Target;
  channels: (ChannelRef & { sceneId: string })[];
  perChannel: number;
  report: boolean;
  patchesPerSecond: number;
}

const cfg = childConfig<OutputPagesConfig>();
const FRAME = /"frame":(\d+)/;
let frames = 0;
let reports = 0;
let seq = 0;

interface Page {
  socket: LiteSocket | null;
  channel: OutputPagesConfig['channels'][number];
  frame: number;
  reportedFrame: number;
  reportedAt: number;
}

const pages: Page[] = Array.from({ length: cfg.channels.length * cfg.perChannel }, (_, i) => ({
  socket: null,
  channel: cfg.channels[Math.floor(i / cfg.perChannel)]!,
  frame: -1,
  reportedFrame: -1,
  reportedAt: 0,
}));
const sockets = await connectMany(pages.length, 64, async (i) => {
  const page = pages[i]!;
  page.socket = await connectRenderer(cfg.target, page.channel, {
    wantText: true,
    onMessage: (text) => {
      const found = text === null ? null : FRAME.exec(text.slice(0, 200));
      if (!found) return;
      frames++;
      page.frame = Number(found[1]);
    },
  });
  return page.socket;
});
const controls = await connectMany(cfg.channels.length, 16, (i) => connectControl(cfg.target, cfg.channels[i]!));

function report(page: Page, now: number): void {
  const first = page.reportedFrame < 0;
  // As the page's reporter: due a little before 5 s, so that its once-in-5-s chance never just misses it.
  if (page.frame < 0 || (!first && now - page.reportedAt < REPORT_ALIVE_MS * 0.8)) return;
  const layers = [{ layer: 10, sceneId: page.channel.sceneId, itemId: null, inDone: true }];
  const msg = {
    op: 'painted',
    frame: page.frame,
    layers,
    fps: 60,
    width: 1920,
    height: 1080,
    kind: 'browser',
    bus: 'program',
  };
  page.socket?.send(JSON.stringify(msg));
  page.reportedFrame = page.frame;
  page.reportedAt = now;
  reports++;
}

// Each page on its own phase of the report interval, as independent pages are.
const timers = pages.map((page, i) =>
  setTimeout(
    () => {
      timers[i] = setInterval(() => cfg.report && report(page, performance.now()), REPORT_MIN_INTERVAL_MS);
    },
    (i * REPORT_MIN_INTERVAL_MS) / pages.length,
  ),
);
const show = setInterval(() => {
  for (const control of controls) control.send(patchMessage('onair', ++seq));
}, 1000 / cfg.patchesPerSecond);

serveParent({ count: () => ({ frames, reports, at: performance.now() }) }, () => {
  clearInterval(show);
  for (const t of timers) clearInterval(t);
  for (const s of [...sockets, ...controls]) s.close();
});
ready({ connected: sockets.length });
