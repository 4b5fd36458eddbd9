/**
 * The output page in headless Chromium against the real server (engine, API, render socket): a take
 * animates, a reload mid-show paints the on-air state on its first frame, the page is transparent outside
 * the graphics, the clock on the page is the server's clock to within a frame (after 5 s, after a reload,
 * after a server restart), a trigger plays once and not again on reconnect, and the preview bus wears its
 * badge unless clean. The renderer's drawing alone is covered by renderer-drawing.test.ts.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { clockTime, type ClockState, type SceneDefinition } from '@onair/protocol';
import { formatClock } from '../renderer/src/format.js';
import { launchChromium } from './helpers/browser.js';
import { decodePng } from './helpers/png.js';
import { animationCount, firstDrawnFrame, installProbe, styleDuringTransition } from './helpers/renderer-probe.js';
import { lowerThird, scoreboard } from './helpers/renderer-scenes.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { freePort } from './helpers/spawn-server.js';

let browser: Browser;
let server: ServerHandle | null = null;
let dataDir = '';
let port = 0;
let base = '';

/** Starts (or starts again) the server on the same port and data dir, as an operator's restart does. */
async function start(): Promise<void> {
  server = await startServer(loadConfig({ ...serverEnv(dataDir), ONAIR_PORT: String(port) }));
  base = server.baseUrl;
}

async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

interface Show {
  channelId: string;
  outputUrl: string;
  previewUrl: string;
  score: string;
  lower: string;
}

const COUNTDOWN: SceneDefinition['inputs'][number] = {
  name: 'clock',
  type: 'clock',
  label: 'Clock',
  default: 600_000,
  direction: 'down',
};

/** A channel with the scoreboard (a 10:00 countdown) on air and a lower third that fades in over 1 s. */
async function show(): Promise<Show> {
  const channel = await call('POST', '/channels', { name: 'Renderer live' });
  const channelId = channel.id as string;
  const inputs = scoreboard().inputs.map((i) => (i.name === 'clock' ? COUNTDOWN : i));
  const score = await call('POST', `/channels/${channelId}/scenes`, {
    name: 'Score',
    definition: scoreboard({ inputs }),
  });
  const lower = await call('POST', `/channels/${channelId}/scenes`, { name: 'Lower', definition: lowerThird() });
  await call('POST', `/channels/${channelId}/program`, { sceneId: score.id });
  return {
    channelId,
    outputUrl: channel.outputUrl as string,
    previewUrl: channel.previewUrl as string,
    score: score.id as string,
    lower: lower.id as string,
  };
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  await installProbe(page);
  await page.goto(url);
  await expect.poll(() => page.evaluate(() => window.__probe?.frames.some((f) => f.text !== ''))).toBe(true);
  return page;
}

const shown = (page: Page) => page.evaluate(() => document.body.innerText);
const status = (page: Page) => page.evaluate(() => window.__onair?.status());

/** The element the lower third's entering scene (layer 20) animates. */
const LOWER_UNIT = '[data-layer="20"] [data-scene]:last-child > div > div';

/** The opacity of the lower third's entering scene, or 'absent'. */
const lowerOpacity = (page: Page) =>
  page.evaluate((selector) => {
    const unit = document.querySelector(selector);
    return unit ? getComputedStyle(unit).opacity : 'absent';
  }, LOWER_UNIT);

/** The page's clock text matches the server's clock at the page's own time, to within a display frame. */
async function expectClockInStep(page: Page, channelId: string): Promise<void> {
  // Just after a restart a kept-alive connection may still reach the old, draining server (503): read again.
  let read: ClockState | undefined;
  await expect
    .poll(async () => {
      const state = await call<{ clocks: Record<string, ClockState> }>('GET', `/channels/${channelId}/state`).catch(
        () => null,
      );
      read = state?.clocks.clock;
      return read !== undefined;
    })
    .toBe(true);
  const clock = read!;
  expect(clock.running).toBe(true);
  for (let i = 0; i < 4; i++) {
    await page.waitForTimeout(260); // samples spread over the second
    // Read just after the page drew a frame (its callbacks run before this one): what it shows is that frame's,
    // however far apart a busy machine spaces the frames.
    const seen = await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return {
        text: document.querySelector('[data-name="clock"]')?.textContent,
        // Server and page share this machine's clock, so the page's Date.now() is server time.
        now: Date.now(),
      };
    });
    const within = [-34, -17, 0, 17].map((d) => formatClock(clockTime(clock, COUNTDOWN, seen.now + d), 'm:ss', 'down'));
    expect(within).toContain(seen.text);
  }
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.stop();
  server = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function freshServer(): Promise<void> {
  dataDir = makeDataDir();
  port = await freePort();
  await start();
}

describe('renderer page against the real server', () => {
  it('a take animates, a reload mid-show paints the on-air state at once, and outside the graphics is transparent', async () => {
    await freshServer();
    const s = await show();
    const page = await openPage(s.outputUrl);
    expect(await shown(page)).toContain('HOME');

    await call('POST', `/channels/${s.channelId}/preview`, { sceneId: s.lower });
    await call('POST', `/channels/${s.channelId}/take`);
    const mid = Number(await styleDuringTransition(page, LOWER_UNIT, 'opacity', 400));
    expect(mid).toBeGreaterThan(0.05);
    expect(mid).toBeLessThan(0.95);
    await expect.poll(() => lowerOpacity(page)).toBe('1');

    await page.reload();
    await expect.poll(() => page.evaluate(() => window.__probe?.frames.some((f) => f.text !== ''))).toBe(true);
    const first = await firstDrawnFrame(page);
    expect(first?.text).toContain('Jane Doe');
    expect(first?.text).toContain('HOME');
    expect(first?.running).toBe(0);
    expect(first?.fonts).toBe(true);
    expect(await animationCount(page, 'unit')).toBe(0);

    const screenshot = async () => decodePng(await page.screenshot({ omitBackground: true }));
    await expect.poll(async () => (await screenshot()).at(200, 48)[3]).toBe(255);
    const png = await screenshot();
    for (const [x, y] of [
      [0, 0],
      [959, 539],
      [480, 270],
      [900, 40],
    ] as const) {
      expect(png.at(x, y)[3], `alpha at ${x},${y}`).toBe(0);
    }
    expect(await page.evaluate(() => window.__probe?.violations)).toEqual([]);
  });

  // 5 s of running clock, a reload and a server restart: 60 s for a busy machine.
  it('shows the server clock to within a frame after 5 s, after a reload and after a server restart', async () => {
    await freshServer();
    const s = await show();
    await call('POST', `/channels/${s.channelId}/clocks/clock`, { action: 'start' });
    const page = await openPage(s.outputUrl);
    await page.waitForTimeout(5_000);
    await expectClockInStep(page, s.channelId);

    await page.reload();
    await expect.poll(() => page.evaluate(() => window.__probe?.frames.some((f) => f.text !== ''))).toBe(true);
    await expectClockInStep(page, s.channelId);

    await server?.stop();
    await expect.poll(() => status(page)).not.toBe('open');
    await start();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('open');
    await expectClockInStep(page, s.channelId);
  }, 60_000);

  it('plays a trigger once, and not again when the page reconnects', async () => {
    await freshServer();
    const s = await show();
    const page = await openPage(s.outputUrl);
    await call('POST', `/channels/${s.channelId}/triggers/goalA`);
    await expect.poll(() => animationCount(page, 'scoreA')).toBe(1);

    await server?.stop();
    await expect.poll(() => status(page)).not.toBe('open');
    await start();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('open');
    await page.waitForTimeout(1_000);
    expect(await animationCount(page, 'scoreA')).toBe(1);
  });

  it('draws the preview bus with a PREVIEW badge, and without it when clean', async () => {
    await freshServer();
    const s = await show();
    await call('POST', `/channels/${s.channelId}/preview`, { sceneId: s.lower });
    const preview = await openPage(s.previewUrl);
    await expect.poll(() => shown(preview)).toContain('Jane Doe');
    expect(await shown(preview)).toContain('PREVIEW');
    expect(await shown(preview)).not.toContain('HOME');
    const clean = await openPage(`${s.previewUrl}&clean=1`);
    await expect.poll(() => shown(clean)).toContain('Jane Doe');
    expect(await shown(clean)).not.toContain('PREVIEW');
    const program = await openPage(s.outputUrl);
    expect(await shown(program)).not.toContain('PREVIEW');
  });
});
