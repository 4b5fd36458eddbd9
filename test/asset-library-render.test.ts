/**
 * The asset library on the real output page in Chromium, with nothing but the onair server reachable: a PNG set as
 * the football scoreboard's crest (an `asset` input, by its bare path) is drawn in the crest's place, and a WOFF2 font
 * of the library named by text elements is the face they are drawn in. Both are loaded from the page's own server
 * with its output token.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, tokenOf, type Channel } from './helpers/api.js';
import { sha256, solidPng, uploadForm } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { decodePng } from './helpers/png.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const require = createRequire(import.meta.url);
/** Roboto Mono: monospaced, so a line of `i` is exactly as wide as a line of `W`, which no fallback face does. */
const MONO_WOFF2 = fs.readFileSync(require.resolve('@fontsource/roboto-mono/files/roboto-mono-latin-400-normal.woff2'));
const GREEN = solidPng(16, 16, [0, 200, 0, 255]);

let browser: Browser;
let server: TestServer | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** A full-HD page that may reach `origin` only: every request is recorded, any other refused. */
async function isolatedPage(origin: string): Promise<{ page: Page; requests: string[]; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const requests: string[] = [];
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return { page, requests, outside };
}

async function upload(file: Buffer, name: string): Promise<{ path: string }> {
  const up = await uploadForm(server!.url, server!.key, file, name);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return up.body as { path: string };
}

/** The pixel at the centre of the element named `name`, as the page draws it. */
async function centreOf(page: Page, name: string): Promise<[number, number, number, number] | null> {
  const box = await page.locator(`[data-name="${name}"]`).boundingBox();
  if (!box) return null;
  const shot = decodePng(await page.screenshot({ omitBackground: true }));
  return shot.at(Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2));
}

it("draws a PNG of the library as the football scoreboard's crest, through the output URL with no other server", async () => {
  server = await startTestServer();
  const call = api(server.url, server.key);
  const templates = expectStatus(
    await call<{ data: { id: string; inputs: { name: string; type: string }[] }[] }>('GET', '/v1/templates'),
    200,
  ).data;
  const football = templates.find((t) => t.id === 'football-scoreboard');
  expect(football?.inputs.filter((i) => i.name.endsWith('Crest')).map((i) => i.type)).toEqual(['asset', 'asset']);

  const crest = await upload(GREEN, 'lions.png');
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Match' }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const scene = expectStatus(
    await call<{ id: string }>('POST', `${ch}/scenes`, { name: 'Score', template: 'football-scoreboard' }),
    201,
  );
  expectStatus(await call('PATCH', `${ch}/inputs`, { homeCrest: crest.path }), 200);
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);

  const { page, requests, outside } = await isolatedPage(server.url);
  await page.goto(channel.outputUrl);
  await expect.poll(() => centreOf(page, 'homeCrest'), { timeout: 20_000 }).toEqual([0, 200, 0, 255]);
  // The away team has no crest: its disc alone, not the home team's picture.
  expect(await centreOf(page, 'awayCrest')).not.toEqual([0, 200, 0, 255]);
  const token = tokenOf(channel.outputUrl);
  expect(requests).toContain(`${server.url}${crest.path}?channel=${channel.id}&token=${token}`);
  expect(outside).toEqual([]);
  await page.close();
});

it('draws text in a WOFF2 font of the library that its elements name, loaded with the output token', async () => {
  server = await startTestServer();
  const call = api(server.url, server.key);
  const font = await upload(MONO_WOFF2, 'house-mono.woff2');
  const line = (name: string, text: string, fontFamily: string, y: number) => ({
    type: 'text',
    name,
    x: 0,
    y,
    width: 1900,
    height: 120,
    text,
    fontSize: 80,
    fontFamily,
    shrink: false,
  });
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio' }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const definition = {
    elements: [
      line('narrow', 'iiiiiiiiii', font.path, 0),
      line('wide', 'WWWWWWWWWW', font.path, 150),
      line('control', 'iiiiiiiiii', 'Inter', 300),
    ],
  };
  const scene = expectStatus(await call<{ id: string }>('POST', `${ch}/scenes`, { name: 'Strap', definition }), 201);
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);

  const { page, requests, outside } = await isolatedPage(server.url);
  await page.goto(channel.outputUrl);
  const widths = () =>
    page.evaluate(() => {
      const width = (name: string) =>
        document.querySelector<HTMLElement>(`[data-name="${name}"] span`)?.offsetWidth ?? 0;
      return { narrow: width('narrow'), wide: width('wide'), control: width('control') };
    });
  // Monospaced: ten i as wide as ten W, and far wider than Inter's ten i.
  await expect
    .poll(
      async () => {
        const w = await widths();
        return w.control > 0 && Math.abs(w.narrow - w.wide) <= 2 && w.narrow > 1.5 * w.control;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const family = `onair-asset-${sha256(MONO_WOFF2)}`;
  expect(await page.evaluate((f) => document.fonts.check(`80px "${f}"`), family)).toBe(true);
  const token = tokenOf(channel.outputUrl);
  expect(requests).toContain(`${server.url}${font.path}?channel=${channel.id}&token=${token}`);
  expect(outside).toEqual([]);
  await page.close();
});
