/**
 * A score change keeps the new number legible at every frame (docs/scenes.md, "Templates"): each score bug on air
 * in headless Chromium, a goal, and every animation frame for a second sampled in the page: the score digits'
 * contrast with their panel (WCAG, with the digits' and the panel's drawn opacity and brightness folded in) never
 * drops below 4.5:1. A fade of the number (the built-in `flash`) drops it to 1:1.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** In the page: the lowest contrast of the digits with their panel over `ms`, one reading per animation frame. */
function sampleContrast(ms: number): Promise<{ lowest: number; frames: number }> {
  const parse = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const lin = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  };
  const ratio = (a: number[], b: number[]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  /** The element's drawn opacity and brightness: its own and every ancestor's. */
  const drawn = (el: Element) => {
    let opacity = 1;
    let brightness = 1;
    for (let at: Element | null = el; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      opacity *= Number(style.opacity);
      const match = /brightness\(([\d.]+)\)/.exec(style.filter);
      if (match) brightness *= Number(match[1]);
    }
    return { opacity, brightness };
  };
  const mix = (fg: number[], bg: number[], alpha: number) => fg.map((c, i) => c * alpha + bg[i]! * (1 - alpha));
  const bright = (c: number[], k: number) => c.map((v) => Math.min(255, v * k));
  return new Promise((resolve) => {
    const digits = document.querySelector('[data-name="scoreADigits"]')!;
    const panel = document.querySelector('[data-name="scoreAPanel"]')!;
    const text = digits.querySelector('*') ?? digits;
    let lowest = Infinity;
    let frames = 0;
    const end = performance.now() + ms;
    const step = () => {
      const d = drawn(text);
      const p = drawn(panel);
      // The panel's gradient: each of its stops is a background the digits may sit on.
      const stops = (getComputedStyle(panel).backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(parse);
      const backdrop = [0, 0, 0];
      for (const stop of stops.length > 0 ? stops : [parse(getComputedStyle(panel).backgroundColor)]) {
        const bg = mix(bright(stop.slice(0, 3), p.brightness), backdrop, p.opacity);
        const fg = mix(bright(parse(getComputedStyle(text).color).slice(0, 3), d.brightness), bg, d.opacity);
        lowest = Math.min(lowest, ratio(fg, bg));
      }
      frames += 1;
      if (performance.now() < end) requestAnimationFrame(step);
      else resolve({ lowest, frames });
    };
    requestAnimationFrame(step);
  });
}

// The score bugs name their home score's parts scoreADigits and scoreAPanel.
it.each(['scoreboard', 'basketball-scoreboard', 'football-scoreboard'])(
  '%s: keeps the new score at 4.5:1 or more against its panel at every frame of the score change',
  async (template) => {
    const call = api(server.url, server.key);
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Goal' }), 201);
    const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
    const score = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Score', template }), 201);
    expectStatus(await call('POST', path('program'), { sceneId: score.id }), 200);
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(channel.outputUrl);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('[data-name="scoreADigits"]')?.textContent))
      .toBe('0');
    // Past the in-transition, then the goal: sampling starts before the frame that carries it arrives.
    await page.waitForTimeout(1_200);
    const sampled = page.evaluate(sampleContrast, 1_500);
    expectStatus(await call('PATCH', path('inputs'), { scoreA: 1 }), 200);
    const { lowest, frames } = await sampled;
    expect(await page.evaluate(() => document.querySelector('[data-name="scoreADigits"]')?.textContent)).toBe('1');
    expect(frames).toBeGreaterThan(10);
    expect(lowest).toBeGreaterThanOrEqual(4.5);
    await page.close();
  },
  60_000,
);
