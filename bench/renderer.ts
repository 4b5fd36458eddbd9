/**
 * The output page under load, in headless Chromium (Debian's, software rendering): a scoreboard with a
 * running clock on air while its channel gets 30 patches a second and a transition every 2 s (a lower
 * third fading in, then out). Measured in the page: the interval between display frames (share over
 * 20 ms, p99), long tasks, and the main thread's busy time per frame (Chromium's TaskDuration). Baselines
 * in the same run, on the same page: no scene on air (the bare frame loop), and the scene on air with
 * its clock running but no messages. The feed is the renderer tests' fake render feed (the real render
 * routes and bundle; snapshots and frames made by hand), so the figure is the renderer's alone.
 *
 *   npx tsx bench/renderer.ts [--short]
 */
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { startFakeFeed, type FakeFeed } from '../test/helpers/renderer-fake-feed.js';
import { lowerThird, scoreboard, view } from '../test/helpers/renderer-scenes.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { fmt, type Row, type Table } from './lib/table.js';

interface Phase {
  frames: number;
  seconds: number;
  over20: number;
  p99: number;
  worst: number;
  longTasks: number;
  /** Main-thread busy time per display frame, ms. */
  busyPerFrame: number;
  messages: number;
}

const SINCE = '2026-01-01T00:00:00.000Z';
const SCORE = { sceneId: 'score', layer: 10, itemId: null, values: {}, since: SINCE };
const LOWER = { sceneId: 'lower', layer: 20, itemId: null, values: {}, since: SINCE };

/**
 * Frame intervals and long tasks, recorded by the page from its first script on. A string, not a function:
 * tsx names functions with a helper the page does not have.
 */
const METER = `(() => {
  const meter = { deltas: [], longTasks: 0, last: 0 };
  window.__meter = meter;
  const loop = (t) => {
    if (meter.last > 0) meter.deltas.push(t - meter.last);
    meter.last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  new PerformanceObserver((list) => { meter.longTasks += list.getEntries().length; }).observe({ entryTypes: ['longtask'] });
})();`;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

async function measure(page: Page, cdp: CDPSession, seconds: number, drive: () => number): Promise<Phase> {
  await page.evaluate(() => {
    const m = (globalThis as unknown as { __meter: { deltas: number[]; longTasks: number; last: number } }).__meter;
    m.deltas = [];
    m.longTasks = 0;
    m.last = 0;
  });
  const busy0 = await taskSeconds(cdp);
  const t0 = Date.now();
  let messages = 0;
  while (Date.now() - t0 < seconds * 1000) {
    messages += drive();
    await new Promise((r) => setTimeout(r, 33));
  }
  const busy = (await taskSeconds(cdp)) - busy0;
  const { deltas, longTasks } = await page.evaluate(
    () => (globalThis as unknown as { __meter: { deltas: number[]; longTasks: number } }).__meter,
  );
  const sorted = [...deltas].sort((a, b) => a - b);
  return {
    frames: deltas.length,
    seconds: (Date.now() - t0) / 1000,
    over20: deltas.filter((d) => d > 20).length / Math.max(1, deltas.length),
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    worst: sorted[sorted.length - 1] ?? 0,
    longTasks,
    busyPerFrame: (busy * 1000) / Math.max(1, deltas.length),
    messages,
  };
}

/** 30 patches a second (one per 33 ms step), and every 2 s the lower third taken or cleared. */
function loadDriver(feed: FakeFeed): () => number {
  let step = 0;
  let lowerOn = false;
  return () => {
    step += 1;
    const sent: number[] = [];
    feed.frame({ inputs: { scoreA: step % 100, home: step % 2 ? 'Lions' : 'Lions FC' } });
    sent.push(1);
    if (step % 60 === 0) {
      lowerOn = !lowerOn;
      feed.frame({ program: lowerOn ? [SCORE, LOWER] : [SCORE] });
      sent.push(1);
    }
    return sent.length;
  };
}

function row(metric: string, base: string, onair: string, target: string, met: boolean | null): Row {
  return { metric, baseline: base, onair, ratio: '—', target, met };
}

export async function runRenderer(options: BenchOptions): Promise<Table[]> {
  const seconds = options.short ? 8 : 15;
  const feed = await startFakeFeed({
    scenes: [view('score', scoreboard()), view('lower', lowerThird({ type: 'fade', durationMs: 500 }))],
    program: [],
    inputs: {
      home: 'Lions',
      away: 'Tigers',
      scoreA: 0,
      scoreB: 0,
      homeColor: '#c8102e',
      name: 'Jane Doe',
      title: 'Host',
    },
    clocks: { clock: { running: true, ms: 0, at: Date.now() } },
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript({ content: METER });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(feed.pageUrl());
    await page.waitForFunction('window.__onair && window.__onair.status() === "open"');
    await page.waitForTimeout(1_000);
    const empty = await measure(page, cdp, seconds, () => 0);
    feed.frame({ program: [SCORE] });
    await page.waitForTimeout(1_000);
    const idle = await measure(page, cdp, seconds, () => 0);
    const load = await measure(page, cdp, seconds, loadDriver(feed));
    return [table(empty, idle, load, options)];
  } finally {
    await browser.close();
    await feed.close();
  }
}

function table(empty: Phase, idle: Phase, load: Phase, options: BenchOptions): Table {
  const both = (f: (p: Phase) => string) => `empty page ${f(empty)}; scene idle ${f(idle)}`;
  return {
    title: 'Renderer: output page under load (headless Chromium)',
    command: `npx tsx bench/renderer.ts${options.short ? ' --short' : ''}`,
    rows: [
      row(
        'frames longer than 20 ms',
        both((p) => fmt.pct(p.over20)),
        fmt.pct(load.over20),
        '< 1 %',
        load.over20 < 0.01,
      ),
      row(
        'frame interval p99',
        both((p) => fmt.ms(p.p99)),
        fmt.ms(load.p99),
        '—',
        null,
      ),
      row(
        'longest frame interval',
        both((p) => fmt.ms(p.worst)),
        fmt.ms(load.worst),
        '—',
        null,
      ),
      row(
        'main-thread busy time per frame',
        both((p) => fmt.ms(p.busyPerFrame)),
        fmt.ms(load.busyPerFrame),
        '—',
        null,
      ),
      row(
        'long tasks (> 50 ms)',
        both((p) => String(p.longTasks)),
        String(load.longTasks),
        '—',
        null,
      ),
      row(
        'display frames drawn',
        both((p) => `${(p.frames / p.seconds).toFixed(1)}/s`),
        `${(load.frames / load.seconds).toFixed(1)}/s`,
        '—',
        null,
      ),
    ],
    notes: [
      `Each phase ${load.seconds.toFixed(0)} s at 1920×1080, one after the other in one page: the empty page (no scene on air: the bare frame loop), the scoreboard on air with its clock running and no messages, then the load: ${(load.messages / load.seconds).toFixed(1)} frames a second from the feed (30 patches a second of a score and a team name that changes width, so it is measured again, and a lower third taken or cleared every 2 s with a 500 ms fade).`,
      'Frame intervals are requestAnimationFrame deltas in the page; busy time is the growth of Chromium’s TaskDuration (all main-thread tasks: script, style, layout, paint) divided by the frames drawn. Headless Chromium with --disable-gpu rasterises in software, which a host’s GPU does not.',
    ],
  };
}

if (isMain(import.meta.url)) runAsCommand(runRenderer);
