/**
 * The output page in headless Chromium, driven by a fake render feed (test/helpers/renderer-fake-feed.ts)
 * that serves the real page, bundle and fonts and sends hand-made snapshots and frames: the renderer's
 * drawing of scene format v1 checked against the wire contract alone (@onair/protocol, protocol/src).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clockTime, type SceneDefinition } from '@onair/protocol';
import { formatClock } from '../renderer/src/format.js';
import { launchChromium } from './helpers/browser.js';
import { decodePng } from './helpers/png.js';
import { startFakeFeed, type FakeFeed } from './helpers/renderer-fake-feed.js';
import {
  animationCount,
  firstDrawnFrame,
  installProbe,
  styleDuringTransition,
  type AnimatedProperty,
} from './helpers/renderer-probe.js';
import { lowerThird, scoreboard, view } from './helpers/renderer-scenes.js';

let browser: Browser;
let feed: FakeFeed;

const since = '2026-01-01T00:00:00.000Z';
const SCORE = { sceneId: 'score', layer: 10, itemId: null, values: {}, since };
const LOWER = { sceneId: 'lower', layer: 20, itemId: null, values: {}, since };

async function startFeed(over: Parameters<typeof startFakeFeed>[0] = {}): Promise<FakeFeed> {
  feed = await startFakeFeed({
    scenes: [
      view('score', scoreboard()),
      view('lower', lowerThird()),
      view('slide', lowerThird({ type: 'slide', from: 'left', durationMs: 1_000, easing: 'linear' })),
      view('wipe', lowerThird({ type: 'wipe', from: 'left', durationMs: 1_000, easing: 'linear' })),
    ],
    program: [SCORE],
    inputs: {
      home: 'Lions',
      away: 'Tigers',
      scoreA: 2,
      scoreB: 1,
      homeColor: '#c8102e',
      name: 'Jane Doe',
      title: 'Host',
    },
    clocks: { clock: { running: true, ms: 754_000, at: Date.now() } },
    ...over,
  });
  return feed;
}

async function openPage(query = '', size = { width: 960, height: 540 }): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  await installProbe(page);
  await page.goto(feed.pageUrl(query));
  await expect.poll(() => page.evaluate(() => window.__probe?.frames.some((f) => f.text !== ''))).toBe(true);
  return page;
}

const shown = (page: Page) => page.evaluate(() => document.body.innerText);
const drawn = (page: Page) => page.evaluate(() => (window.__onair as unknown as OnairHandle).drawn());
interface OnairHandle {
  drawn(): { layer: number; sceneId: string | null }[];
  state(): { inputs: Record<string, unknown>; frame: number };
  frames(): number;
  status(): string;
}

/** The element the `in` transition of layer 20 animates (its first entrance unit). */
// The entering scene is the layer's last child; a leaving one may still be before it.
const UNIT = '[data-layer="20"] [data-scene]:last-child > div > div';
/** The scene element of layer 20, which its `out` transition animates. */
const LEAVING = '[data-layer="20"] [data-scene]';

/** Computed style of the `in` transition's element. */
function unitStyle(page: Page, property: AnimatedProperty): Promise<string> {
  return page.evaluate(
    ([selector, p]) => {
      const unit = document.querySelector(selector);
      return unit ? getComputedStyle(unit)[p] : 'absent';
    },
    [UNIT, property] as const,
  );
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await feed?.close();
});

describe('renderer drawing scene format v1 (fake feed)', () => {
  it('first paints the on-air state settled, in its bundled fonts, with no policy violation', async () => {
    await startFeed({ program: [SCORE, LOWER] });
    const page = await openPage();
    const first = await firstDrawnFrame(page);
    expect(first?.text).toContain('LIONS');
    expect(first?.text).toContain('Jane Doe');
    expect(first?.running).toBe(0);
    expect(first?.fonts).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('[data-name="home"]')!).fontFamily)).toBe(
      'Oswald, sans-serif',
    );
    expect(await drawn(page)).toEqual([
      { layer: 10, sceneId: 'score' },
      { layer: 20, sceneId: 'lower' },
    ]);
    // Layers stack by number: the lower third's layer sits above the scoreboard's.
    const z = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-layer]')].map((el) => getComputedStyle(el).zIndex),
    );
    expect(z).toEqual(['10', '20']);
    expect(await page.evaluate(() => window.__probe?.violations)).toEqual([]);
  });

  it('a take fades the new scene in over its duration, a clear fades it out, a cut is instant', async () => {
    await startFeed();
    const page = await openPage();
    feed.frame({ program: [SCORE, LOWER] });
    const mid = Number(await styleDuringTransition(page, UNIT, 'opacity', 450));
    expect(mid).toBeGreaterThan(0.05);
    expect(mid).toBeLessThan(0.95);
    await expect.poll(() => unitStyle(page, 'opacity')).toBe('1');

    feed.frame({ program: [SCORE] });
    const leaving = Number(await styleDuringTransition(page, LEAVING, 'opacity', 450));
    expect(leaving).toBeGreaterThan(0.05);
    expect(leaving).toBeLessThan(0.95);
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-layer="20"]'))).toBeNull();

    feed.frame({ program: [SCORE, LOWER], cutLayers: [20] });
    await expect.poll(() => unitStyle(page, 'opacity')).toBe('1');
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
  });

  it('slides from an edge and wipes with clip-path, between their ends mid-way', async () => {
    await startFeed();
    const page = await openPage();
    feed.frame({ program: [SCORE, { sceneId: 'slide', layer: 20, itemId: null, values: {}, since }] });
    const slid = await styleDuringTransition(page, UNIT, 'transform', 450);
    const tx = Number(/matrix\(1, 0, 0, 1, (-?[\d.]+), 0\)/.exec(slid)?.[1]);
    expect(tx).toBeLessThan(-100);
    expect(tx).toBeGreaterThan(-1820);

    feed.frame({ program: [SCORE], cutLayers: [20] });
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-layer="20"]'))).toBeNull();
    feed.frame({ program: [SCORE, { sceneId: 'wipe', layer: 20, itemId: null, values: {}, since }] });
    const clip = await styleDuringTransition(page, UNIT, 'clipPath', 450);
    const right = Number(/inset\(0(?:px|%) ([\d.]+)%/.exec(clip)?.[1]);
    expect(right).toBeGreaterThan(5);
    expect(right).toBeLessThan(95);
  });

  it('a reload mid-show draws the on-air scene at once, with no in-animation', async () => {
    await startFeed();
    const page = await openPage();
    feed.frame({ program: [SCORE, LOWER] });
    // Reloaded while the take's transition plays.
    await expect.poll(() => unitStyle(page, 'opacity')).not.toBe('absent');
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.__probe?.frames.some((f) => f.text !== ''))).toBe(true);
    const first = await firstDrawnFrame(page);
    expect(first?.text).toContain('Jane Doe');
    expect(first?.running).toBe(0);
    expect(await animationCount(page, 'unit')).toBe(0);
  });

  it('leaves every pixel outside the graphics transparent', async () => {
    await startFeed({ program: [SCORE, LOWER] });
    const page = await openPage();
    // The stage is drawn at half size: the scoreboard bar spans x 40–420, y 30–66.
    const screenshot = async () => decodePng(await page.screenshot({ omitBackground: true }));
    await expect.poll(async () => (await screenshot()).at(200, 48)[3]).toBe(255);
    const png = await screenshot();
    expect(png.width).toBe(960);
    expect(png.at(200, 48)[3]).toBe(255);
    for (const [x, y] of [
      [0, 0],
      [959, 539],
      [600, 48],
      [480, 270],
      [20, 100],
      [900, 450],
    ] as const) {
      expect(png.at(x, y)[3], `alpha at ${x},${y}`).toBe(0);
    }
  });

  it('shrinks a long name to fit its box instead of cutting it', async () => {
    await startFeed();
    const page = await openPage('', { width: 1920, height: 1080 });
    feed.frame({ inputs: { away: 'Wolverhampton Wanderers Football Club' } });
    await expect.poll(() => shown(page)).toContain('WOLVERHAMPTON');
    const fit = await page.evaluate(() => {
      const box = document.querySelector('[data-name="away"]')!.getBoundingClientRect();
      const text = document.querySelector('[data-name="away"] span')!.getBoundingClientRect();
      return { box: [box.left, box.right], text: [text.left, text.right] };
    });
    expect(fit.text[0]).toBeGreaterThanOrEqual(fit.box[0]! - 0.5);
    expect(fit.text[1]).toBeLessThanOrEqual(fit.box[1]! + 0.5);
    expect(fit.text[1]! - fit.text[0]!).toBeGreaterThan(150);
  });

  it('draws a running clock from its anchor on every frame, matching the clock to within a frame', async () => {
    const at = Date.now() - 3_000;
    await startFeed({
      clocks: { clock: { running: true, ms: 10_000, at } },
      scenes: [
        view(
          'score',
          scoreboard({
            inputs: [{ name: 'clock', type: 'clock', label: 'Clock', default: 60_000, direction: 'down' }],
          }),
        ),
      ],
    });
    const page = await openPage();
    for (let i = 0; i < 5; i++) {
      await page.waitForTimeout(370); // samples spread over the second
      // Read just after the page drew a frame (its callbacks run before this one): what it shows is that frame's,
      // however far apart a busy machine spaces the frames.
      const seen = await page.evaluate(async () => {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return { text: document.querySelector('[data-name="clock"]')!.textContent, now: Date.now() };
      });
      const expected = [-34, 0].map((d) =>
        formatClock(clockTime({ running: true, ms: 10_000, at }, { direction: 'down' }, seen.now + d), 'm:ss', 'down'),
      );
      expect(expected).toContain(seen.text);
    }
  });

  it('coalesces a burst of frames, and a hidden page catches up on its first frame back', async () => {
    await startFeed();
    const page = await openPage();
    for (let i = 3; i <= 12; i++) feed.frame({ inputs: { scoreA: i } });
    await expect.poll(() => page.evaluate(() => (window.__onair as unknown as OnairHandle).frames())).toBe(10);
    await expect.poll(() => page.locator('[data-name="scoreA"]').textContent()).toBe('12');

    await page.evaluate(() => (window.__probe!.paused = true));
    feed.frame({ inputs: { scoreA: 40 } });
    feed.frame({ program: [SCORE, LOWER] });
    feed.frame({ inputs: { scoreA: 41 } });
    await expect
      .poll(() => page.evaluate(() => (window.__onair as unknown as OnairHandle).state().inputs.scoreA))
      .toBe(41);
    expect(await page.locator('[data-name="scoreA"]').textContent()).toBe('12');
    await page.evaluate(() => window.__probe!.resume());
    await expect.poll(() => page.locator('[data-name="scoreA"]').textContent()).toBe('41');
    expect((await drawn(page)).map((d) => d.sceneId)).toEqual(['score', 'lower']);
  });

  it('plays a fired trigger once, and never again after a reconnect', async () => {
    await startFeed();
    const page = await openPage();
    feed.frame({ triggers: [{ name: 'goalA', sceneId: 'score', at: Date.now() }] });
    await expect.poll(() => animationCount(page, 'scoreA')).toBe(1);
    const scale = await page.evaluate(
      () => getComputedStyle(document.querySelector('[data-name="scoreA"]')!).transform,
    );
    expect(scale).not.toBe('none');
    // A trigger for a scene not on this bus plays nowhere.
    feed.frame({ triggers: [{ name: 'flash', sceneId: 'lower', at: Date.now() }] });

    feed.dropAll(1001);
    await expect.poll(() => feed.sockets(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.evaluate(() => (window.__onair as unknown as OnairHandle).status())).toBe('open');
    await page.waitForTimeout(700);
    expect(await animationCount(page, 'scoreA')).toBe(1);
    expect(await page.evaluate(() => window.__probe?.animations)).toEqual({ scoreA: 1 });
  });

  it('after a server restart redraws what changed meanwhile at once, settled', async () => {
    await startFeed();
    const page = await openPage();
    feed.setAccepting(false);
    feed.dropAll(1001);
    await expect.poll(() => page.evaluate(() => (window.__onair as unknown as OnairHandle).status())).not.toBe('open');
    feed.channel.program = [SCORE, LOWER];
    feed.channel.inputs.home = 'Bears';
    feed.channel.frame += 50;
    feed.setAccepting(true);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toContain('BEARS');
    expect(await shown(page)).toContain('Jane Doe');
    expect(await animationCount(page, 'unit')).toBe(0);
    expect(await unitStyle(page, 'opacity')).toBe('1');
  });

  it('draws the preview bus with a PREVIEW badge, and without it when clean', async () => {
    await startFeed({ preview: [{ sceneId: 'lower', layer: 20, itemId: null, values: {} }] });
    const page = await openPage('bus=preview');
    expect(await shown(page)).toContain('PREVIEW');
    expect(await shown(page)).toContain('Jane Doe');
    expect(await shown(page)).not.toContain('LIONS');
    const clean = await openPage('bus=preview&clean=1');
    expect(await shown(clean)).not.toContain('PREVIEW');
    expect(await shown(clean)).toContain('Jane Doe');
    const program = await openPage();
    expect(await shown(program)).not.toContain('PREVIEW');
  });

  it('draws each bus its own instance of one scene, and a value updated on air at once, with no transition', async () => {
    await startFeed({
      program: [SCORE, { ...LOWER, itemId: 'it_a', values: { name: 'Anna Program' } }],
      preview: [{ sceneId: 'lower', layer: 20, itemId: 'it_b', values: { name: 'Bruno Preview' } }],
    });
    const program = await openPage();
    const preview = await openPage('bus=preview&clean=1');
    await expect.poll(() => shown(program)).toContain('Anna Program');
    await expect.poll(() => shown(preview)).toContain('Bruno Preview');
    expect(await shown(program)).not.toContain('Bruno');
    expect(await shown(preview)).not.toContain('Anna');
    // The channel's value is drawn for what an instance does not carry (the title).
    expect(await shown(program)).toContain('Host');

    const before = await animationCount(program, 'scene');
    feed.frame({ program: [SCORE, { ...LOWER, itemId: 'it_a', values: { name: 'Anna Updated' } }] });
    await expect.poll(() => shown(program)).toContain('Anna Updated');
    expect(await animationCount(program, 'scene')).toBe(before);
    expect(await animationCount(program, 'unit')).toBe(0);
    expect(await shown(preview)).toContain('Bruno Preview');
  });

  it('takes another instance of the scene on air like another scene: the old one fades out as the new one fades in', async () => {
    await startFeed({ program: [SCORE, { ...LOWER, itemId: 'it_a', values: { name: 'Anna Program' } }] });
    const page = await openPage();
    await expect.poll(() => shown(page)).toContain('Anna Program');
    const leaves = await animationCount(page, 'scene');
    const next = { ...LOWER, itemId: 'it_b', values: { name: 'Bruno Next' }, since: '2026-01-01T00:00:05.000Z' };
    feed.frame({ program: [SCORE, next] });
    const mid = Number(await styleDuringTransition(page, UNIT, 'opacity', 450));
    expect(mid).toBeGreaterThan(0.05);
    expect(mid).toBeLessThan(0.95);
    expect(await animationCount(page, 'scene')).toBeGreaterThan(leaves);
    await expect.poll(() => shown(page)).not.toContain('Anna');
    expect(await shown(page)).toContain('Bruno Next');
    expect(await drawn(page)).toEqual([
      { layer: 10, sceneId: 'score' },
      { layer: 20, sceneId: 'lower' },
    ]);
  });

  it('draws nothing for a broken image or a scene it cannot read, and every other layer still', async () => {
    const broken = { ...lowerThird(), layer: 5, elements: undefined } as unknown as SceneDefinition;
    const picture = lowerThird();
    picture.elements = [
      { type: 'image', x: 0, y: 0, width: 400, height: 400, src: `${'http'}://127.0.0.1:9/none.png` },
      { type: 'image', x: 1400, y: 600, width: 400, height: 400, src: '{logo}', fit: 'fill' },
    ];
    await startFeed();
    feed.channel.scenes.push(view('broken', broken), view('picture', { ...picture, layer: 30 }));
    feed.channel.program = [
      { sceneId: 'broken', layer: 5, itemId: null, values: {}, since },
      SCORE,
      { sceneId: 'picture', layer: 30, itemId: null, values: {}, since },
    ];
    feed.channel.inputs.logo = `${feed.url}/test/red.png`;
    const page = await openPage();
    expect(await shown(page)).toContain('LIONS');
    // The image input's picture loads from the feed (page pixels 700–900, 300–500): drawn once it has.
    const screenshot = async () => decodePng(await page.screenshot({ omitBackground: true }));
    await expect.poll(async () => (await screenshot()).at(800, 400)).toEqual([255, 0, 0, 255]);
    const png = await screenshot();
    // The image box covers the top-left 200×200 page pixels, but its source does not load: transparent.
    expect(png.at(10, 150)[3]).toBe(0);
    expect(png.at(190, 190)[3]).toBe(0);
    // The image input's picture, stretched over its box (page pixels 700–900, 300–500).
    expect(png.at(800, 400)).toEqual([255, 0, 0, 255]);
  });

  it('keeps the CasparCG hooks: update() overrides an input on this page, stop() and play() hide and show', async () => {
    await startFeed();
    const page = await openPage();
    await page.evaluate(() => (window as unknown as { update(d: string): void }).update('{"home":"Local"}'));
    await expect.poll(() => shown(page)).toContain('LOCAL');
    await page.evaluate(() => (window as unknown as { stop(): void }).stop());
    await expect.poll(() => shown(page)).toBe('');
    await page.evaluate(() => (window as unknown as { play(): void }).play());
    await expect.poll(() => shown(page)).toContain('LOCAL');
  });
});
