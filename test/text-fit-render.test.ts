/**
 * Text that fits, as the real output page draws it in headless Chromium at 1920×1080 (docs/scenes.md, "Text
 * that fits"): the lower third's name panel follows names of 5, 20 and 40 characters, growing with the name up
 * to its width; no text is drawn under 75 % of its design size nor outside its box (a name too long is cut with
 * an ellipsis); and every built-in template, fed long texts, stays inside the title-safe area (the middle 90 %
 * of the stage: x 96–1824, y 54–1026). The pictures in docs/scenes.md are the ones this test saves in
 * .tmp/screenshots/ (text-fit-*.png).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { SCREENSHOT_DIR } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const STAGE = { width: 1920, height: 1080 };
const SAFE = { left: 96, top: 54, right: 1824, bottom: 1026 };
/** Rounding of transformed boxes to device pixels. */
const SLACK = 0.5;
const NAMES = ['Li Na', 'Maximilian Oberhuber', 'Ana Maria Fernanda Gonçalves Albuquerque'];
const LONG = 'Premier League · Matchweek 27 · Old Trafford, Manchester';

let server: TestServer;
let call: Api;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  call = api(server.url, server.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/** A channel with the template's scene on air by a cut, with those of these inputs it has. */
async function onAir(template: string, inputs: Record<string, string>) {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: template }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: template, template }), 201);
  const its = Object.entries(inputs).filter(([name]) => scene.inputs.some((i) => i.name === name));
  if (its.length > 0) expectStatus(await call('PATCH', `${ch}/inputs`, Object.fromEntries(its)), 200);
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
  return { url: channel.outputUrl, scene };
}

/** The output page with the scene drawn, settled, in its fonts. */
async function openSettled(url: string, sceneId: string): Promise<Page> {
  const page = await browser.newPage({ viewport: STAGE });
  await page.goto(url);
  await page.waitForFunction(
    (id) => {
      const onair = window.__onair as unknown as { drawn(): { sceneId: string | null }[] } | undefined;
      return (
        (onair?.drawn() ?? []).some((d) => d.sceneId === id) &&
        document.fonts.status === 'loaded' &&
        document.getAnimations().every((a) => a.playState !== 'running')
      );
    },
    sceneId,
    { timeout: 20_000 },
  );
  return page;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
}

interface DrawnText {
  name: string;
  text: string;
  /** Design size (the definition's fontSize, the box's computed font size) and the size drawn. */
  designPx: number;
  drawnPx: number;
  box: Rect;
  ink: Rect;
  /** True when the line is cut (its text overflows the span, which clips it with an ellipsis). */
  cut: boolean;
}

/** Every text and clock as drawn: its sizes, its box and where its line is. */
function drawnTexts(page: Page): Promise<DrawnText[]> {
  return page.evaluate(() => {
    const rect = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
    };
    return [...document.querySelectorAll<HTMLElement>('[data-type="text"], [data-type="clock"]')].map((el) => {
      const span = el.querySelector('span')!;
      const designPx = parseFloat(getComputedStyle(el).fontSize);
      const transform = getComputedStyle(span).transform;
      const scale = transform === 'none' ? 1 : new DOMMatrix(transform).a;
      return {
        name: el.dataset.name ?? '',
        text: span.textContent ?? '',
        designPx,
        drawnPx: designPx * scale,
        box: rect(el),
        ink: rect(span),
        cut: span.scrollWidth > span.clientWidth,
      };
    });
  });
}

/** Every drawn element's box on the stage but a full-stage backdrop. */
function drawnBoxes(page: Page): Promise<(Rect & { name: string })[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-type]')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        const name = `${el.dataset.type}:${el.dataset.name ?? ''}`;
        return { name, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
      })
      .filter((r) => !(r.left <= 0 && r.top <= 0 && r.right >= 1920 && r.bottom >= 1080)),
  );
}

function expectFits(texts: DrawnText[]): void {
  for (const t of texts) {
    expect(t.drawnPx, `${t.name} "${t.text}" drawn size`).toBeGreaterThanOrEqual(0.75 * t.designPx - 0.01);
    expect(t.ink.left, `${t.name} left`).toBeGreaterThanOrEqual(t.box.left - SLACK);
    expect(t.ink.right, `${t.name} right`).toBeLessThanOrEqual(t.box.right + SLACK);
  }
}

async function saveShot(page: Page, name: string, clip: { x: number; y: number; width: number; height: number }) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // A grey stage, so that light and dark panels both show in the docs.
  await page.evaluate(() => void (document.documentElement.style.background = '#8a919e'));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), clip });
}

describe('text that fits, drawn by the output page at 1920×1080', () => {
  it('the lower third: the name panel follows names of 5, 20 and 40 characters; nothing under 75 % or overflowing', async () => {
    expect(NAMES.map((n) => n.length)).toEqual([5, 20, 40]);
    const panels: { panel: Rect; name: DrawnText }[] = [];
    for (const name of NAMES) {
      const { url, scene } = await onAir('lower-third', { name, title: 'Touchline reporter' });
      const page = await openSettled(url, scene.id);
      try {
        const texts = await drawnTexts(page);
        expectFits(texts);
        const nameText = texts.find((t) => t.name === 'nameText')!;
        const [panel] = (await drawnBoxes(page)).filter((b) => b.name === 'box:namePanel');
        panels.push({ panel: panel!, name: nameText });
        await saveShot(page, `text-fit-${name.length}`, { x: 66, y: 812, width: 880, height: 200 });
      } finally {
        await page.close();
      }
    }
    const widths = panels.map((p) => p.panel.width);
    expect(widths[0]).toBeLessThan(widths[1]!);
    expect(widths[1]).toBeLessThan(widths[2]!);
    expect(widths[0]).toBeGreaterThanOrEqual(290 - SLACK); // the panel's least width
    expect(widths[2]).toBeLessThanOrEqual(804 + SLACK); // and its most
    for (const { panel, name } of panels) {
      // The panel keeps its padding around the name's box: 30 px before, 24 after.
      expect(name.box.left - panel.left).toBeCloseTo(30, 0);
      expect(panel.right - name.box.right).toBeCloseTo(24, 0);
    }
    const [short, , long] = panels.map((p) => p.name);
    expect(short!.drawnPx).toBe(short!.designPx);
    expect(short!.cut).toBe(false);
    expect(long!.drawnPx).toBeCloseTo(0.75 * long!.designPx, 1);
    expect(long!.cut).toBe(true);
  });

  it('every built-in template, fed long texts, keeps its texts at 75 % or more, in their boxes, in the safe area', async () => {
    const listed = expectStatus(await call<{ data: { id: string }[] }>('GET', '/v1/templates'), 200);
    for (const { id } of listed.data) {
      const long = { home: LONG, away: LONG, name: NAMES[2]!, title: LONG, headline: LONG, subtitle: LONG };
      const { url, scene } = await onAir(id, { ...long, label: LONG });
      const page = await openSettled(url, scene.id);
      try {
        expectFits(await drawnTexts(page));
        const outside = (await drawnBoxes(page)).filter(
          (b) =>
            b.left < SAFE.left - SLACK ||
            b.top < SAFE.top - SLACK ||
            b.right > SAFE.right + SLACK ||
            b.bottom > SAFE.bottom + SLACK,
        );
        expect(outside, `${id}: drawn outside the safe area`).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
