/**
 * The ticker's crawl in headless Chromium (Debian's, software rendering): is it smooth at 60 fps? The real server
 * (bench/lib/onair.ts) with one channel and the built-in `ticker` template on air, twelve items crawling; the page
 * is its real output URL at 1920×1080. Measured in the page, with requestAnimationFrame: the interval between
 * display frames (the share over 20 ms — a frame missed at 60 Hz —, p50, p99, the longest) and the main thread's
 * busy time per frame (Chromium's TaskDuration). The baselines, in the same run and the same tab, measured the same
 * way for the same time: an empty page, and a bare CSS crawl of the same items (the least any crawl costs); the
 * three phases take turns in rounds. The crawl is checked to be moving through its windows (its first item must have
 * travelled speed × time), so a stopped crawl cannot pass for a smooth one.
 *
 *   npx tsx bench/ticker.ts [--short]
 */
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { startOnair, type Onair } from './lib/onair.js';
import { percentile } from './lib/stats.js';
import { fmt, infoRow, type Row, type Table } from './lib/table.js';

/** The template's speed (src/templates/ticker.ts), in stage pixels a second. */
const SPEED = 120;
const ITEMS = [
  'Storm warning for the coast: ferries cancelled until Sunday',
  'Rail strike called off after overnight talks',
  'Markets close higher for a third day',
  'Lions sign goalkeeper on a two-year deal',
  'Road closed after a lorry fire on the ring road',
  'Council approves the new stadium plans',
  'Heatwave expected from Thursday',
  'Tigers beat Bears 3–1 in the cup',
  'Airport strike: delays into the evening',
  'Festival sells out in ten minutes',
  'Museum reopens after two years of works',
  'Election debate tonight at 9 pm',
];

interface Phase {
  frames: number;
  seconds: number;
  over20: number;
  p50: number;
  p99: number;
  worst: number;
  /** Main-thread busy time per display frame, ms. */
  busyPerFrame: number;
}

/**
 * Frame intervals, recorded by the page from its first script on. A string, not a function: tsx names functions
 * with a helper the page does not have.
 */
const METER = `(() => {
  if (window.__meter) return;
  const meter = { deltas: [], last: 0 };
  window.__meter = meter;
  const loop = (t) => {
    if (meter.last > 0) meter.deltas.push(t - meter.last);
    meter.last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})();`;

/**
 * The second baseline: the least a crawl can be, with no onair in it. The same line of items in a bar of the same
 * size, moved by one CSS animation of its transform at the same speed, on a page of its own.
 */
function bareCrawlPage(): string {
  const line = ITEMS.join('     •     ') + '     •     ';
  const copy = `<span>${line}</span>`;
  return `<!doctype html><html><head><title>bare crawl</title><style>
  body { margin: 0; background: transparent; }
  .bar { position: absolute; left: 96px; top: 978px; width: 1728px; height: 48px; overflow: hidden; background: #14171e;
    font: 500 32px sans-serif; color: #f3f4f6; line-height: 48px; white-space: pre; }
  .line { position: absolute; left: 0; top: 0; will-change: transform; animation: crawl var(--ms) linear infinite; }
  @keyframes crawl { to { transform: translateX(var(--w)); } }
</style></head><body><div class="bar"><div class="line">${copy}${copy}</div></div><script>
  const line = document.querySelector('.line');
  const width = line.firstElementChild.getBoundingClientRect().width;
  line.style.setProperty('--w', -width + 'px');
  line.style.setProperty('--ms', (width / ${SPEED}) * 1000 + 'ms');
</script></body></html>`;
}

/** Where the crawl's first item is, in stage pixels from the left edge of the stage (the viewport is the stage). */
const FIRST_ITEM_X = `(() => {
  const run = [...document.querySelectorAll('[data-type="crawl"] div')]
    .find((el) => el.childElementCount === 0 && el.textContent.startsWith(${JSON.stringify(ITEMS[0])}));
  return { x: run ? run.getBoundingClientRect().left : null, t: document.timeline.currentTime };
})()`;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

/** One window of one phase: the frame intervals, and the main thread's busy seconds. */
interface Sample {
  deltas: number[];
  busy: number;
  seconds: number;
}

async function sample(page: Page, cdp: CDPSession, seconds: number): Promise<Sample> {
  await page.evaluate('window.__meter.deltas = []; window.__meter.last = 0;');
  const busy0 = await taskSeconds(cdp);
  const t0 = Date.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const busy = (await taskSeconds(cdp)) - busy0;
  const deltas = await page.evaluate<number[]>('window.__meter.deltas');
  return { deltas, busy, seconds: (Date.now() - t0) / 1000 };
}

/** A phase's windows together. */
function phaseOf(samples: Sample[]): Phase {
  const deltas = samples.flatMap((s) => s.deltas);
  const sorted = Float64Array.from(deltas).sort();
  const busy = samples.reduce((sum, s) => sum + s.busy, 0);
  return {
    frames: deltas.length,
    seconds: samples.reduce((sum, s) => sum + s.seconds, 0),
    over20: deltas.filter((d) => d > 20).length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    worst: sorted[sorted.length - 1] ?? 0,
    busyPerFrame: (busy * 1000) / Math.max(1, deltas.length),
  };
}

/** Polls until the crawl's first item is on the page (the page's CSP refuses waitForFunction's eval). */
async function crawlDrawn(page: Page): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await page.evaluate<{ x: number | null }>(FIRST_ITEM_X)).x === null) {
    if (Date.now() > deadline) throw new Error('the ticker was not drawn within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A channel with the ticker on air, its items set; the output page's URL. */
async function tickerOnAir(server: Onair): Promise<string> {
  const call = async (method: string, route: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`http://127.0.0.1:${server.port}${route}`, {
      method,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const channel = await call('POST', '/v1/channels', { name: 'Ticker bench' });
  const ch = `/v1/channels/${channel.id as string}`;
  const scene = await call('POST', `${ch}/scenes`, { name: 'Ticker', template: 'ticker' });
  await call('PATCH', `${ch}/inputs`, { items: ITEMS.map((text) => ({ text })), tickerLabel: 'Latest' });
  await call('POST', `${ch}/program`, { sceneId: scene.id });
  return channel.outputUrl as string;
}

type PhaseName = 'empty' | 'bare' | 'ticker';
const EMPTY_PAGE = '<!doctype html><html><head><title>empty</title></head><body></body></html>';

/**
 * The three phases take turns, a window each per round, so that whatever else the machine does falls on all three
 * alike rather than on whichever ran at the wrong moment.
 */
export async function runTicker(options: BenchOptions): Promise<Table[]> {
  const rounds = options.short ? 2 : 4;
  const windowSeconds = options.short ? 3 : 2.5;
  const server = await startOnair({ channels: 0 });
  const browser = await launchChromium();
  try {
    const outputUrl = await tickerOnAir(server);
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript({ content: METER });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    // setContent is no navigation: the init script does not run there, so the meter is started by hand.
    const content = async (html: string) => {
      await page.goto('about:blank');
      await page.setContent(html);
      await page.evaluate(METER);
    };
    const open: Record<PhaseName, () => Promise<void>> = {
      empty: () => content(EMPTY_PAGE),
      bare: () => content(bareCrawlPage()),
      ticker: async () => {
        await page.goto(outputUrl);
        await crawlDrawn(page);
      },
    };
    const samples: Record<PhaseName, Sample[]> = { empty: [], bare: [], ticker: [] };
    const travelled = { px: 0, expected: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const phase of ['empty', 'bare', 'ticker'] as const) {
        await open[phase]();
        await page.waitForTimeout(1_000);
        const from = await page.evaluate<{ x: number | null; t: number }>(FIRST_ITEM_X);
        samples[phase].push(await sample(page, cdp, windowSeconds));
        const to = await page.evaluate<{ x: number | null; t: number }>(FIRST_ITEM_X);
        if (phase !== 'ticker' || from.x === null || to.x === null) continue;
        travelled.px += from.x - to.x;
        travelled.expected += (SPEED * (to.t - from.t)) / 1000;
      }
    }
    const baselines = { empty: phaseOf(samples.empty), bare: phaseOf(samples.bare) };
    return [table(baselines, phaseOf(samples.ticker), travelled, rounds, options)];
  } finally {
    await browser.close();
    await server.stop();
  }
}

interface Baselines {
  /** An empty page. */
  empty: Phase;
  /** A bare CSS crawl of the same items, no onair. */
  bare: Phase;
}

const share = (p: Phase) => p.over20 / Math.max(1, p.frames);

/** A row of one figure for the three phases, with the ratios to each baseline. */
function figureRow(
  metric: string,
  b: Baselines,
  ticker: Phase,
  value: (p: Phase) => number,
  show: (n: number) => string,
): Row {
  const ratio = (base: number) => (base > 0 ? fmt.x(value(ticker) / base) : '—');
  return infoRow(
    metric,
    `empty page ${show(value(b.empty))}; bare CSS crawl ${show(value(b.bare))}`,
    show(value(ticker)),
    `${ratio(value(b.empty))}; ${ratio(value(b.bare))}`,
  );
}

function table(
  b: Baselines,
  ticker: Phase,
  travelled: { px: number; expected: number },
  rounds: number,
  o: BenchOptions,
): Table {
  const moving = Math.abs(travelled.px - travelled.expected) <= Math.max(4, 0.02 * travelled.expected);
  const over20 = figureRow('frames longer than 20 ms', b, ticker, share, fmt.pct);
  const rows: Row[] = [
    figureRow('display frames drawn', b, ticker, (p) => p.frames, String),
    figureRow('frames longer than 20 ms, count', b, ticker, (p) => p.over20, String),
    { ...over20, target: '< 1 %', met: share(ticker) < 0.01 && moving },
    figureRow('frame interval p50', b, ticker, (p) => p.p50, fmt.ms),
    figureRow('frame interval p99', b, ticker, (p) => p.p99, fmt.ms),
    figureRow('longest frame interval', b, ticker, (p) => p.worst, fmt.ms),
    figureRow('main-thread busy time per frame', b, ticker, (p) => p.busyPerFrame, fmt.ms),
    infoRow(
      'crawl moved (first item), px',
      `speed × time: ${travelled.expected.toFixed(0)}`,
      travelled.px.toFixed(0),
      moving ? 'moving' : 'NOT at its speed',
    ),
  ];
  return {
    title: 'Ticker: the crawl at 60 fps (headless Chromium)',
    command: `npx tsx bench/ticker.ts${o.short ? ' --short' : ''}`,
    rows,
    notes: [
      `Each phase ${ticker.seconds.toFixed(0)} s at 1920×1080 in one page, in ${rounds} rounds taking turns (so background load falls on all three alike): an empty page (the browser's own baseline); a bare CSS crawl (the same items in a bar of the same size, moved by one CSS transform animation at the same speed: the least any crawl costs, no onair); and the real output page of a real server with the built-in ticker on air, ${ITEMS.length} items crawling at ${SPEED} px/s under its label. Ratios: to the empty page; to the bare crawl.`,
      'Frame intervals are requestAnimationFrame deltas in the page (a frame over 20 ms is a frame missed at 60 Hz); busy time is the growth of Chromium’s TaskDuration (script, style, layout, paint on the main thread) divided by the frames drawn. The crawl moves by a transform animation the compositor runs, so the main thread has nothing to do per frame. Headless Chromium with --disable-gpu rasterises in software, which a host’s GPU does not.',
      'The target counts only while the crawl moved at its speed through the window (the last row), so a stopped crawl cannot pass.',
    ],
  };
}

if (isMain(import.meta.url)) runAsCommand(runTicker);
