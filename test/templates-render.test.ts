/**
 * The built-in templates as the real output page draws them, compared with reference images: each template
 * gets a channel on a real server, fixed inputs and stopped clocks, and goes on air before the page opens (so
 * the page draws it settled, with no transition). Headless Chromium shows the page at 1920×1080 with a
 * transparent background once every layer is drawn in its bundled fonts, the logo is fetched, nothing moves
 * and two screenshots in a row agree.
 *
 * A screenshot matches its reference (test/fixtures/templates/<id>.png) when at most 0.5 % of its pixels differ
 * by more than 16 in any channel, and at most 24 of those differing pixels lie inside a blob (all eight
 * neighbours differing too). Antialiasing that shifts between machines changes thin runs of pixels along
 * edges; a changed digit, a missing image or an element moved by 2 stage pixels or more leaves blobs. A line
 * thinner than 3 pixels going missing slips through. Whatever lies outside the template's elements (and the
 * reach of their shadows) must be fully transparent. A mismatch leaves the screenshot and a diff image
 * (differing pixels in red) in .tmp/templates-render/.
 *
 * The ticker's crawl never stops: its animations are paused at the end of its lead-in (the first item at the bar's
 * left edge) before the screenshots, so its picture is the same every time.
 *
 * The sponsor bug's logo is an asset of the library, which the page loads with its own token. Besides the
 * pictures: the lower third with an empty title is one line (its own reference, lower-third-one-line.png) with no
 * empty title panel; the sponsor bug with an empty line draws no empty panel; and the lower third's name is an
 * item input, so two instances of it, one on program and one cued in preview, each draw their own.
 *
 * After a deliberate change to a template or to the renderer, look at the new pictures and refresh them:
 *
 *   UPDATE_REFERENCES=1 npx vitest run test/templates-render.test.ts
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputValue, SceneDefinition, SceneElement } from '@onair/protocol';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { alphaAt, compareImages, encodePng, readRgba, type Rgba } from './helpers/image-compare.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { BASKETBALL_CLOCKS, BASKETBALL_INPUTS, STANDINGS_INPUTS } from './fixtures/template-values.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REFERENCES = path.join(ROOT, 'test', 'fixtures', 'templates');
const FAILURES = path.join(ROOT, '.tmp', 'templates-render');
const UPDATE = process.env.UPDATE_REFERENCES === '1';

const CHANNEL_TOLERANCE = 16;
const MAX_DIFFERING_SHARE = 0.005;
/**
 * Differing pixels whose eight neighbours differ too. Chromium with subpixel text positioning turned off
 * leaves up to 9 (and 0.2 % of the pixels differing, all along edges); one score digit changed leaves about 100.
 */
const MAX_SOLID = 24;
const STAGE = { width: 1920, height: 1080 };
const CORNERS = [
  [0, 0],
  [1919, 0],
  [0, 1079],
  [1919, 1079],
] as const;

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
  <rect x="4" y="8" width="192" height="84" rx="16" fill="#0b0e14" stroke="#ffffff" stroke-width="4"/>
  <circle cx="50" cy="50" r="26" fill="#e63946"/>
  <rect x="92" y="30" width="84" height="10" fill="#ffffff"/>
  <rect x="92" y="56" width="64" height="14" fill="#ffd400"/>
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

const MATCH = {
  home: 'MANCHESTER UNITED',
  away: 'LIVERPOOL',
  scoreA: 2,
  scoreB: 1,
  homeColor: '#da291c',
  awayColor: '#00a398',
};

interface Case {
  inputs: Record<string, InputValue>;
  /** Stopped clocks, set to these milliseconds. */
  clocks: Record<string, number>;
  /** Image URLs (or, for library assets the page loads with its token, their paths) fetched before the screenshot. */
  images: string[];
}

interface Logos {
  /** The station logo, served from a local HTTP server. */
  logo: string;
  /** The sponsor logo, an asset of the library. */
  sponsor: { url: string; path: string };
  /** A club crest, an asset of the library. */
  crest: { url: string; path: string };
}

/** Fixed inputs for each template GET /v1/templates lists; the logo URLs are known once they are served. */
const CASES: Record<string, (logos: Logos) => Case> = {
  scoreboard: () => ({
    inputs: { ...MATCH, period: 2, periodLabel: 'H' },
    clocks: { gameClock: 4_062_000 },
    images: [],
  }),
  'lower-third': () => ({
    inputs: { name: 'Zoë Ribeiro-Sánchez', title: 'Touchline reporter · Old Trafford', accent: '#e63946' },
    clocks: {},
    images: [],
  }),
  'final-score': () => ({
    inputs: { ...MATCH, headline: 'FULL TIME', subtitle: 'Premier League · Matchweek 27' },
    clocks: {},
    images: [],
  }),
  countdown: () => ({
    inputs: { label: 'KICK-OFF IN', accent: '#e63946' },
    clocks: { countdown: 165_000 },
    images: [],
  }),
  'logo-bug': ({ logo }) => ({ inputs: { logo }, clocks: {}, images: [logo] }),
  // Every state drawn at once (test/fixtures/template-values.ts).
  'basketball-scoreboard': () => ({ inputs: BASKETBALL_INPUTS, clocks: BASKETBALL_CLOCKS, images: [] }),
  'sponsor-bug': ({ sponsor }) => ({
    inputs: { sponsorLogo: sponsor.url, sponsorLine: 'Presented by', accent: '#e63946' },
    clocks: {},
    images: [sponsor.path],
  }),
  // Every state at once: a crest and none (the disc alone), a short name and a full one, one red card against
  // two, the clock stopped at half-time with three minutes of stoppage.
  'football-scoreboard': ({ crest }) => ({
    inputs: {
      ...MATCH,
      homeShort: 'MUN',
      homeCrest: crest.url,
      homeReds: 1,
      awayReds: 2,
      stoppage: 3,
    },
    clocks: { matchClock: 2_700_000 },
    images: [crest.path],
  }),
  // Enough items to run past the bar's end; the crawl is stopped with its first item at the bar's left edge.
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
    images: [],
  }),
  // Ten rows, the most it draws (test/fixtures/template-values.ts).
  'standings-table': () => ({ inputs: STANDINGS_INPUTS, clocks: {}, images: [] }),
};

let server: TestServer;
let call: Api;
let browser: Browser;
let logoServer: http.Server;
let logos: Logos;

beforeAll(async () => {
  [server, browser, logoServer] = await Promise.all([startTestServer(), launchChromium(), serveLogo()]);
  call = api(server.url, server.key);
  const logo = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;
  logos = {
    logo,
    sponsor: await uploadAsset('sponsor.svg', SPONSOR_SVG),
    crest: await uploadAsset('crest.svg', CREST_SVG),
  };
});

async function uploadAsset(name: string, body: string): Promise<{ url: string; path: string }> {
  const res = await fetch(`${server.url}/v1/assets?name=${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/octet-stream' },
    body,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { url: string; path: string };
}
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await new Promise((resolve) => logoServer?.close(resolve));
});

function serveLogo(): Promise<http.Server> {
  const logo = http.createServer((req, res) => {
    if (req.url !== '/logo.svg') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' }).end(LOGO_SVG);
  });
  return new Promise((resolve) => logo.listen(0, '127.0.0.1', () => resolve(logo)));
}

/** A channel with the template's scene, the case's inputs and clocks, on air by a cut. */
async function onAir(template: string, c: Case): Promise<{ outputUrl: string; scene: Scene }> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: template }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: template, template }), 201);
  expectStatus(await call('PATCH', `${ch}/inputs`, c.inputs), 200);
  for (const [clock, ms] of Object.entries(c.clocks)) {
    expectStatus(await call('POST', `${ch}/clocks/${clock}`, { action: 'set', ms }), 200);
  }
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
  return { outputUrl: channel.outputUrl, scene };
}

interface Drawn {
  drawn(): { layer: number; sceneId: string | null }[];
}

async function screenshot(url: string, sceneId: string, images: string[]): Promise<Buffer> {
  const page = await browser.newPage({ viewport: STAGE });
  try {
    await page.goto(url);
    await page.waitForFunction(
      ([id, urls]) => {
        const drawn = (window.__onair as unknown as Drawn | undefined)?.drawn() ?? [];
        const fetched = performance.getEntriesByType('resource').map((e) => e.name);
        return (
          drawn.some((d) => d.sceneId === id) &&
          urls.every((u) => fetched.some((f) => f === u || new URL(f).pathname === u)) &&
          document.fonts.status === 'loaded' &&
          document.getAnimations().every((a) => a.playState !== 'running' || a.id === 'crawl')
        );
      },
      [sceneId, images] as const,
      { timeout: 20_000 },
    );
    await stopCrawls(page);
    return await stableShot(page);
  } finally {
    await page.close();
  }
}

/**
 * A crawl never stops by itself: its animations (id `crawl`) are paused where its lead-in ends, the first item at
 * the left edge of its box, so that its picture is the same every time.
 */
async function stopCrawls(page: Page): Promise<void> {
  await page.evaluate(() => {
    const crawls = document.getAnimations().filter((a) => a.id === 'crawl');
    const leadIn = Math.max(0, ...crawls.map((a) => Number(a.effect?.getTiming().delay ?? 0)));
    for (const animation of crawls) {
      animation.pause();
      animation.currentTime = leadIn;
    }
  });
}

/** A fetched image may take a frame or two to be painted: the first of two equal screenshots in a row. */
async function stableShot(page: Page): Promise<Buffer> {
  let last = await page.screenshot({ omitBackground: true });
  for (let i = 0; i < 20; i++) {
    const next = await page.screenshot({ omitBackground: true });
    if (next.equals(last)) return next;
    last = next;
  }
  throw new Error('the page kept changing between screenshots');
}

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Where the scene may paint: every element's box, grown by the reach of its shadow (stage pixels). Chromium
 * draws a blur of radius r as a Gaussian of sigma r / 2, faint but not zero out to about 1.5 r.
 */
function paintedBounds(elements: SceneElement[], x = 0, y = 0): Bounds {
  const all = elements.map((el): Bounds => {
    const shadow = el.type === 'box' ? el.shadow : undefined;
    const reach = shadow ? Math.ceil(1.5 * shadow.blur) + Math.max(Math.abs(shadow.x), Math.abs(shadow.y)) : 0;
    const own = {
      left: x + el.x - reach,
      top: y + el.y - reach,
      right: x + el.x + el.width + reach,
      bottom: y + el.y + el.height + reach,
    };
    if (el.type === 'group') return union([own, paintedBounds(el.children, x + el.x, y + el.y)]);
    // A rows element paints its children once per row, each row rowHeight below the one before (at most 100).
    if (el.type !== 'rows') return own;
    const rows = paintedBounds(el.children, x + el.x, y + el.y);
    return union([own, rows, { ...rows, bottom: rows.bottom + 99 * el.rowHeight }]);
  });
  return union(all);
}

function union(all: Bounds[]): Bounds {
  return {
    left: Math.min(...all.map((b) => b.left)),
    top: Math.min(...all.map((b) => b.top)),
    right: Math.max(...all.map((b) => b.right)),
    bottom: Math.max(...all.map((b) => b.bottom)),
  };
}

/** Pixels outside `bounds` that are not fully transparent. */
function paintedOutside(image: Rgba, bounds: Bounds): number {
  let painted = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const inside = x >= bounds.left && x < bounds.right && y >= bounds.top && y < bounds.bottom;
      if (!inside && alphaAt(image, x, y) !== 0) painted += 1;
    }
  }
  return painted;
}

/** An opaque light grey or white pixel: the title panel, or a letter of the name. */
function isLight(image: Rgba, x: number, y: number): boolean {
  const i = (y * image.width + x) * 4;
  const [r, g, b, a] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, image.data[i + 3]!];
  return a === 255 && r > 200 && g > 200 && b > 200;
}

function matchReference(id: string, png: Buffer): void {
  const file = path.join(REFERENCES, `${id}.png`);
  if (UPDATE || !fs.existsSync(file)) {
    if (!UPDATE) throw new Error(`no reference ${path.relative(ROOT, file)}: run with UPDATE_REFERENCES=1`);
    fs.mkdirSync(REFERENCES, { recursive: true });
    fs.writeFileSync(file, png);
    return;
  }
  const actual = readRgba(png);
  const expected = readRgba(fs.readFileSync(file));
  const result = compareImages(actual, expected, CHANNEL_TOLERANCE);
  if (result.share <= MAX_DIFFERING_SHARE && result.solid <= MAX_SOLID) return;
  fs.mkdirSync(FAILURES, { recursive: true });
  const actualFile = path.join(FAILURES, `${id}.actual.png`);
  const diffFile = path.join(FAILURES, `${id}.diff.png`);
  fs.writeFileSync(actualFile, png);
  fs.writeFileSync(diffFile, encodePng(result.diff));
  throw new Error(
    `${id} differs from ${path.relative(ROOT, file)}: ${result.differing} pixels ` +
      `(${(result.share * 100).toFixed(2)} %, at most ${MAX_DIFFERING_SHARE * 100} % allowed) by more than ` +
      `${CHANNEL_TOLERANCE}, ${result.solid} of them inside a blob (at most ${MAX_SOLID} allowed); ` +
      `see ${path.relative(ROOT, actualFile)} and ${path.relative(ROOT, diffFile)}`,
  );
}

describe('built-in templates drawn by the output page', () => {
  it('has a render case for every template the server lists', async () => {
    const listed = expectStatus(await call<{ data: { id: string }[] }>('GET', '/v1/templates'), 200);
    expect(listed.data.map((t) => t.id).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))('%s matches its reference image', async (id) => {
    const c = CASES[id]!(logos);
    const { outputUrl, scene } = await onAir(id, c);
    const png = await screenshot(outputUrl, scene.id, c.images);
    const image = readRgba(png);
    expect({ width: image.width, height: image.height }).toEqual(STAGE);
    const bounds = paintedBounds((scene.definition as SceneDefinition).elements);
    expect(paintedOutside(image, bounds), 'pixels painted outside the scene').toBe(0);
    // The corners: clear around a graphic, dimmed under a full-stage backdrop (the final score's).
    const fullStage =
      bounds.left <= 0 && bounds.top <= 0 && bounds.right >= STAGE.width && bounds.bottom >= STAGE.height;
    const corners = CORNERS.map(([x, y]) => alphaAt(image, x, y) > 0);
    expect(corners).toEqual(CORNERS.map(() => fullStage));
    matchReference(id, png);
  });

  it('lower-third: an empty title draws one line on the same bottom edge, and no empty title panel', async () => {
    const strap = { name: 'Zoë Ribeiro-Sánchez', title: '', accent: '#e63946' };
    const { outputUrl, scene } = await onAir('lower-third', { inputs: strap, clocks: {}, images: [] });
    const png = await screenshot(outputUrl, scene.id, []);
    const image = readRgba(png);
    // The title panel (#f3f4f6, 928–978) would be light at its foot, below the reach of the name's capitals.
    const light: [number, number][] = [];
    for (let y = 964; y < 978; y++) {
      for (let x = 96; x < 910; x++) if (isLight(image, x, y)) light.push([x, y]);
    }
    expect(light.slice(0, 5), 'light pixels: a title panel is drawn').toEqual([]);
    // The name panel sits on the two-line strap's bottom edge (978), not on its top (842).
    expect(alphaAt(image, 300, 860), 'above the one-line strap').toBe(0);
    expect(alphaAt(image, 300, 960), 'the name panel down to the bottom edge').toBe(255);
    matchReference('lower-third-one-line', png);
  });

  it('sponsor-bug: an empty line leaves the logo alone on its plate, no empty panel before it', async () => {
    const inputs = { sponsorLogo: logos.sponsor.url, sponsorLine: '', accent: '#e63946' };
    const { outputUrl, scene } = await onAir('sponsor-bug', { inputs, clocks: {}, images: [logos.sponsor.path] });
    const image = readRgba(await screenshot(outputUrl, scene.id, [logos.sponsor.path]));
    // The plate spans 1574–1814; the line's panel would sit before it, opaque, from 1440 at its narrowest.
    expect(alphaAt(image, 1700, 935), 'the plate').toBe(255);
    const opaque: number[] = [];
    for (let x = 1100; x < 1560; x++) if (alphaAt(image, x, 935) === 255) opaque.push(x);
    expect(opaque.slice(0, 5), 'opaque pixels before the plate: a line panel is drawn').toEqual([]);
  });

  it("lower-third: program and preview each draw their own instance's name, and the channel's title", async () => {
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'instances' }), 201);
    const ch = `/v1/channels/${channel.id}`;
    const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: 'L3', template: 'lower-third' }), 201);
    expectStatus(await call('PATCH', `${ch}/inputs`, { title: 'Touchline reporter' }), 200);
    expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id, values: { name: 'Anna Program' } }), 200);
    expectStatus(await call('POST', `${ch}/preview`, { sceneId: scene.id, values: { name: 'Bruno Preview' } }), 200);
    const [program, preview] = await Promise.all([browser.newPage(), browser.newPage()]);
    try {
      await Promise.all([program.goto(channel.outputUrl), preview.goto(`${channel.previewUrl}&clean=1`)]);
      const text = (page: Page) => page.evaluate(() => document.body.innerText.toLowerCase());
      await expect.poll(() => text(program), { timeout: 20_000 }).toContain('anna program');
      await expect.poll(() => text(preview), { timeout: 20_000 }).toContain('bruno preview');
      expect(await text(program)).toContain('touchline reporter');
      expect(await text(program)).not.toContain('bruno');
      expect(await text(preview)).not.toContain('anna');
    } finally {
      await Promise.all([program.close(), preview.close()]);
    }
  });
});
