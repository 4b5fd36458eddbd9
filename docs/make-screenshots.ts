/**
 * Regenerates the pictures in docs/images/: the real output page, served by the real server, rendered by
 * headless Chromium (not OBS, vMix or CasparCG, which cannot run here).
 *
 *   npx tsx docs/make-screenshots.ts
 *
 * Starts onair in this process on a free port with a temporary data directory, and a tiny HTTP server on
 * 127.0.0.1 that serves a logo (an image input takes http(s) URLs only); the sponsor's logo is uploaded to the
 * asset library instead, as a user would, and so is the football scoreboard's crest. Through the REST API it makes one
 * channel per picture, adds scenes from the built-in templates, sets their inputs and stopped clocks, and
 * puts them on air with `POST …/program`. Chromium then opens the channel's outputUrl (or previewUrl) with
 * a 1920×1080 viewport and a device scale that writes the full stage at 960×540 (640×360 for each half of the
 * side-by-side picture), waits until the page has drawn (every layer, its fonts, the logo, no animation
 * running) and screenshots it with a transparent background. Each screenshot is laid over a checkerboard, so what the page leaves transparent shows as
 * checkerboard. The output page itself is never restyled.
 *
 * Written: template-<id>.png for each template (the ticker's crawl stopped where its lead-in ends), template-lower-third-lines.png (two lines and one), program-layers.png (three layers on air at once),
 * preview-output.png (the preview bus with its PREVIEW badge), program-and-preview.png (both buses side by
 * side) and output-scoreboard.png / output-lower-third.png (the pictures docs/renderer.md has long shown).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { BASKETBALL_CLOCKS, BASKETBALL_INPUTS, STANDINGS_INPUTS } from '../test/fixtures/template-values.js';
import { launchChromium } from '../test/helpers/browser.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'images');
const KEY = 'onair_sk_DocsScreenshots0123456789abcdefg';

/** A station mark drawn with shapes only: text in an SVG image would fall back to a system font. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
  <rect x="4" y="8" width="192" height="84" rx="16" fill="#ffffff" fill-opacity="0.14" stroke="#ffffff" stroke-width="4"/>
  <circle cx="50" cy="50" r="26" fill="#e63946"/>
  <path d="M42 36 L66 50 L42 64 Z" fill="#ffffff"/>
  <rect x="92" y="30" width="84" height="10" rx="5" fill="#ffffff"/>
  <rect x="92" y="46" width="64" height="10" rx="5" fill="#ffffff"/>
  <rect x="92" y="62" width="74" height="8" rx="4" fill="#ffffff" fill-opacity="0.6"/>
</svg>`;

/** A sponsor's mark drawn for a white page, as sponsors supply them; uploaded to the asset library. */
const SPONSOR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100">
  <circle cx="50" cy="50" r="36" fill="#0057b8"/>
  <path d="M32 50 L50 28 L68 50 L50 72 Z" fill="#ffd400"/>
  <rect x="104" y="26" width="170" height="22" rx="4" fill="#0b1f3a"/>
  <rect x="104" y="58" width="120" height="14" rx="3" fill="#0057b8"/>
</svg>`;

/** A club crest: a shield in two colours with a ball, shapes only. */
const CREST_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 120">
  <path d="M10 8 H90 V60 C90 90 70 106 50 116 C30 106 10 90 10 60 Z" fill="#da291c" stroke="#ffd400" stroke-width="6"/>
  <path d="M50 8 H90 V60 C90 90 70 106 50 116 Z" fill="#ffffff" fill-opacity="0.18"/>
  <circle cx="50" cy="56" r="20" fill="#ffffff"/>
  <path d="M50 44 L61 52 L57 65 H43 L39 52 Z" fill="#12151b"/>
</svg>`;

type Json = Record<string, unknown>;
type Inputs = Record<string, string | number | Record<string, string | number>[]>;

const MATCH: Inputs = {
  home: 'MANCHESTER UNITED',
  away: 'LIVERPOOL',
  scoreA: 2,
  scoreB: 1,
  period: 2,
  periodLabel: 'H',
  homeColor: '#da291c',
  awayColor: '#00a398',
};
const STRAP: Inputs = { name: 'Zoë Ribeiro-Sánchez', title: 'Touchline reporter · Old Trafford', accent: '#e63946' };

interface Setup {
  inputs: Inputs;
  /** Stopped clocks, set to these milliseconds. */
  clocks: Record<string, number>;
}

interface Logos {
  /** The station logo, served by the tiny HTTP server. */
  logo: string;
  /** The sponsor logo, an asset of the library: its URL, and the path the page loads it by (with its token). */
  sponsor: { url: string; path: string };
  /** A club crest, an asset of the library like the sponsor's logo. */
  crest: { url: string; path: string };
}

const SETUPS: Record<string, (logos: Logos) => Setup> = {
  scoreboard: () => ({ inputs: MATCH, clocks: { gameClock: 4_062_000 } }),
  'lower-third': () => ({ inputs: STRAP, clocks: {} }),
  'final-score': () => ({
    inputs: { ...MATCH, headline: 'FULL TIME', subtitle: 'Premier League · Matchweek 27 · Old Trafford' },
    clocks: {},
  }),
  countdown: () => ({ inputs: { label: 'KICK-OFF IN', accent: '#e63946' }, clocks: { countdown: 165_000 } }),
  'logo-bug': ({ logo }) => ({ inputs: { logo }, clocks: {} }),
  'basketball-scoreboard': () => ({ inputs: BASKETBALL_INPUTS, clocks: BASKETBALL_CLOCKS }),
  'sponsor-bug': ({ sponsor }) => ({
    inputs: { sponsorLogo: sponsor.url, sponsorLine: 'Presented by', accent: '#e63946' },
    clocks: {},
  }),
  // A crest and the bare disc of a team without one, a short name and a full one, red cards, +3 at half-time.
  'football-scoreboard': ({ crest }) => ({
    inputs: { ...MATCH, homeShort: 'MUN', homeCrest: crest.url, homeReds: 1, awayReds: 2, stoppage: 3 },
    clocks: { matchClock: 2_700_000 },
  }),
  // Ten rows, the most it draws, as the reference-image test draws them.
  'standings-table': () => ({ inputs: STANDINGS_INPUTS, clocks: {} }),
  // Stopped where its lead-in ends (stopCrawls): the first item at the bar's left edge, under the label.
  ticker: () => ({
    inputs: {
      items: [
        'Storm warning for the coast: ferries cancelled until Sunday',
        'Rail strike called off after overnight talks',
        'Markets close higher for a third day',
        'Lions sign goalkeeper on a two-year deal',
      ].map((text) => ({ text })),
      tickerLabel: 'Breaking',
      accent: '#e63946',
    },
    clocks: {},
  }),
};

/** The images each template's picture waits for: URLs, or the paths of library assets. */
const IMAGES: Record<string, (logos: Logos) => string[]> = {
  'logo-bug': ({ logo }) => [logo],
  'sponsor-bug': ({ sponsor }) => [sponsor.path],
  'football-scoreboard': ({ crest }) => [crest.path],
};

interface Ctx {
  server: ServerHandle;
  browser: Browser;
  logos: Logos;
}

async function call(server: ServerHandle, method: string, route: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

interface Channel {
  path: string;
  outputUrl: string;
  previewUrl: string;
  /** Scene ids by template id. */
  scenes: Record<string, string>;
}

/** A channel with a scene from each template, the setups' inputs and clocks, nothing on air yet. */
async function channelWith(ctx: Ctx, name: string, templates: string[]): Promise<Channel> {
  const channel = await call(ctx.server, 'POST', '/v1/channels', { name });
  const ch = `/v1/channels/${channel.id as string}`;
  const scenes: Record<string, string> = {};
  for (const template of templates) {
    const scene = await call(ctx.server, 'POST', `${ch}/scenes`, { name: template, template });
    scenes[template] = scene.id as string;
    const setup = SETUPS[template]!(ctx.logos);
    // The match inputs are shared: the final score takes those of them it declares.
    const declared = new Set((scene.inputs as { name: string }[]).map((i) => i.name));
    const inputs = Object.entries(setup.inputs).filter(([input]) => declared.has(input));
    await call(ctx.server, 'PATCH', `${ch}/inputs`, Object.fromEntries(inputs));
    for (const [clock, ms] of Object.entries(setup.clocks)) {
      await call(ctx.server, 'POST', `${ch}/clocks/${clock}`, { action: 'set', ms });
    }
  }
  return { path: ch, outputUrl: channel.outputUrl as string, previewUrl: channel.previewUrl as string, scenes };
}

async function onBus(ctx: Ctx, channel: Channel, bus: 'program' | 'preview', templates: string[]): Promise<void> {
  for (const t of templates) await call(ctx.server, 'POST', `${channel.path}/${bus}`, { sceneId: channel.scenes[t] });
}

/** What the page script sees; the docs compile without the DOM library, so only this much is typed. */
interface PageAnimation {
  id: string;
  playState: string;
  currentTime: number | null;
  effect: { getTiming(): { delay?: number } } | null;
  pause(): void;
}

interface PageGlobals {
  __onair?: { drawn(): { layer: number; sceneId: string | null }[] };
  document: { fonts: { status: string }; getAnimations(): PageAnimation[] };
  performance: { getEntriesByType(type: string): { name: string }[] };
}

/** Every wanted scene drawn in its fonts, the listed images fetched, nothing moving. */
async function waitDrawn(page: Page, sceneIds: string[], images: string[]): Promise<void> {
  await page.waitForFunction(
    ([ids, urls]) => {
      const g = globalThis as unknown as PageGlobals;
      const drawn = (g.__onair?.drawn() ?? []).map((d) => d.sceneId);
      const fetched = g.performance.getEntriesByType('resource').map((e) => e.name);
      return (
        ids.every((id) => drawn.includes(id)) &&
        urls.every((url) => fetched.some((f) => f === url || new URL(f).pathname === url)) &&
        g.document.fonts.status === 'loaded' &&
        g.document.getAnimations().every((a) => a.playState !== 'running' || a.id === 'crawl')
      );
    },
    [sceneIds, images] as const,
    { timeout: 15_000 },
  );
}

/**
 * A crawl never stops by itself: its animations (id `crawl`) are paused where its lead-in ends, the first item at
 * the left edge of its box, as the templates' render test pauses them.
 */
async function stopCrawls(page: Page): Promise<void> {
  await page.evaluate(() => {
    const crawls = (globalThis as unknown as PageGlobals).document.getAnimations().filter((a) => a.id === 'crawl');
    const leadIn = Math.max(0, ...crawls.map((a) => Number(a.effect?.getTiming().delay ?? 0)));
    for (const animation of crawls) {
      animation.pause();
      animation.currentTime = leadIn;
    }
  });
}

/** Screenshots until two in a row are the same: a fetched image may take a frame or two to be painted. */
async function stableShot(page: Page): Promise<Buffer> {
  let last = await page.screenshot({ omitBackground: true });
  for (let i = 0; i < 20; i++) {
    const next = await page.screenshot({ omitBackground: true });
    if (next.equals(last)) return next;
    last = next;
  }
  throw new Error('the page kept changing');
}

interface Size {
  width: number;
  height: number;
}

/** The output page at `url`, its 1920×1080 stage drawn into `size`, with a transparent background. */
async function shoot(ctx: Ctx, url: string, sceneIds: string[], size: Size, images: string[] = []): Promise<Buffer> {
  const scale = size.width / 1920;
  const page = await ctx.browser.newPage({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: scale });
  try {
    await page.goto(url);
    await waitDrawn(page, sceneIds, images);
    await stopCrawls(page);
    return await stableShot(page);
  } finally {
    await page.close();
  }
}

interface Panel {
  /** A screenshot taken with a transparent background. */
  png: Buffer;
  size: Size;
  /** A caption under the panel; none for a lone panel. */
  label?: string;
}

const LABEL_HEIGHT = 28;
const GAP = 8;

/** Panels side by side, each laid over a grey checkerboard (with its label underneath), as one PNG. */
async function compose(browser: Browser, panels: Panel[]): Promise<Buffer> {
  const labelled = panels.some((p) => p.label !== undefined);
  const width = panels.reduce((w, p) => w + p.size.width, 0) + GAP * (panels.length - 1);
  const height = Math.max(...panels.map((p) => p.size.height)) + (labelled ? LABEL_HEIGHT : 0);
  const page = await browser.newPage({ viewport: { width, height } });
  const figure = (p: Panel) => `<figure style="width:${p.size.width}px">
  <div class="board" style="height:${p.size.height}px">
    <img alt="" src="data:image/png;base64,${p.png.toString('base64')}">
  </div>
  ${p.label === undefined ? '' : `<figcaption>${p.label}</figcaption>`}
</figure>`;
  try {
    await page.setContent(`<!doctype html>
<html><head><style>
  html, body { margin: 0; background: #ffffff; overflow: hidden; }
  body { display: flex; gap: ${GAP}px; }
  figure { margin: 0; }
  .board { background: repeating-conic-gradient(#8a8d93 0% 25%, #a3a6ab 0% 50%) 0 0 / 24px 24px; }
  .board img { display: block; width: 100%; height: 100%; }
  figcaption { height: ${LABEL_HEIGHT}px; line-height: ${LABEL_HEIGHT}px; padding-left: 6px; }
  figcaption { font: 14px sans-serif; color: #333333; }
</style></head>
<body>${panels.map(figure).join('')}</body></html>`);
    await page.waitForFunction(() =>
      Array.from((globalThis as unknown as { document: { images: { complete: boolean }[] } }).document.images).every(
        (img) => img.complete,
      ),
    );
    return await stableShot(page);
  } finally {
    await page.close();
  }
}

function write(name: string, png: Buffer): void {
  const file = path.join(OUT, name);
  fs.writeFileSync(file, png);
  process.stdout.write(`${path.relative(ROOT, file)}  ${(png.length / 1024).toFixed(0)} KB\n`);
}

const FULL = { width: 960, height: 540 };
const HALF = { width: 640, height: 360 };

async function templatePictures(ctx: Ctx): Promise<void> {
  for (const id of Object.keys(SETUPS)) {
    const channel = await channelWith(ctx, id, [id]);
    await onBus(ctx, channel, 'program', [id]);
    const images = IMAGES[id]?.(ctx.logos) ?? [];
    const png = await shoot(ctx, channel.outputUrl, [channel.scenes[id]!], FULL, images);
    write(`template-${id}.png`, await compose(ctx.browser, [{ png, size: FULL }]));
    if (id === 'scoreboard' || id === 'lower-third') {
      const label = `outputUrl: ${id === 'scoreboard' ? 'scoreboard' : 'lower third'} on air`;
      write(`output-${id}.png`, await compose(ctx.browser, [{ png, size: FULL, label }]));
    }
  }
}

/** The lower third with a title and, its title set to "", in one line, side by side. */
async function lowerThirdLines(ctx: Ctx): Promise<void> {
  const panels: Panel[] = [];
  for (const [title, label] of [
    [STRAP.title, 'title set: two lines'],
    ['', 'title "": one line, on the same bottom edge'],
  ] as const) {
    const channel = await channelWith(ctx, `Strap ${panels.length}`, ['lower-third']);
    await call(ctx.server, 'PATCH', `${channel.path}/inputs`, { title });
    await onBus(ctx, channel, 'program', ['lower-third']);
    const png = await shoot(ctx, channel.outputUrl, [channel.scenes['lower-third']!], HALF);
    panels.push({ png, size: HALF, label });
  }
  write('template-lower-third-lines.png', await compose(ctx.browser, panels));
}

/** Three layers on air at once, then the lower third cued alone on a second channel's preview. */
async function busPictures(ctx: Ctx): Promise<void> {
  const layered = ['scoreboard', 'lower-third', 'logo-bug'];
  const channel = await channelWith(ctx, 'Layers', layered);
  await onBus(ctx, channel, 'program', layered);
  const ids = layered.map((t) => channel.scenes[t]!);
  const layers = await shoot(ctx, channel.outputUrl, ids, FULL, [ctx.logos.logo]);
  write('program-layers.png', await compose(ctx.browser, [{ png: layers, size: FULL }]));

  const buses = await channelWith(ctx, 'Buses', ['scoreboard', 'lower-third']);
  await onBus(ctx, buses, 'program', ['scoreboard']);
  await onBus(ctx, buses, 'preview', ['lower-third']);
  const [score, strap] = [buses.scenes.scoreboard!, buses.scenes['lower-third']!];
  const preview = await shoot(ctx, buses.previewUrl, [strap], FULL);
  write('preview-output.png', await compose(ctx.browser, [{ png: preview, size: FULL }]));
  write(
    'program-and-preview.png',
    await compose(ctx.browser, [
      { png: await shoot(ctx, buses.outputUrl, [score], HALF), size: HALF, label: 'outputUrl (program): scoreboard' },
      {
        png: await shoot(ctx, buses.previewUrl, [strap], HALF),
        size: HALF,
        label: 'previewUrl (preview): lower third, cued',
      },
    ]),
  );
}

async function uploadAsset(server: ServerHandle, name: string, svg: string): Promise<{ url: string; path: string }> {
  const res = await fetch(`${server.baseUrl}/v1/assets?name=${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/octet-stream' },
    body: svg,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`POST /v1/assets → ${res.status} ${JSON.stringify(json)}`);
  return { url: json.url as string, path: json.path as string };
}

function serveLogo(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url !== '/logo.svg') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' }).end(LOGO_SVG);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'renderer', 'dist', 'manifest.json'))) {
    execFileSync(process.execPath, [path.join(ROOT, 'renderer', 'build.mjs')], { stdio: 'inherit' });
  }
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-docs-'));
  const logoServer = await serveLogo();
  let server: ServerHandle | null = null;
  let browser: Browser | null = null;
  try {
    server = await startServer(
      loadConfig({
        ONAIR_HOST: '127.0.0.1',
        ONAIR_PORT: '0',
        ONAIR_DATA_DIR: dataDir,
        ONAIR_BOOTSTRAP_KEY: KEY,
        ONAIR_LOG_LEVEL: 'silent',
        ONAIR_DB_SYNC: 'normal',
      }),
    );
    browser = await launchChromium();
    const logo = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;
    const sponsor = await uploadAsset(server, 'sponsor.svg', SPONSOR_SVG);
    const crest = await uploadAsset(server, 'crest.svg', CREST_SVG);
    const ctx: Ctx = { server, browser, logos: { logo, sponsor, crest } };
    await templatePictures(ctx);
    await lowerThirdLines(ctx);
    await busPictures(ctx);
  } finally {
    await browser?.close();
    await server?.stop();
    logoServer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
