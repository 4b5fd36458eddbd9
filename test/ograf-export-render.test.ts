/**
 * Exported packages play in a stock OGraf host with no onair server (docs/ograf.md, "Export"): the packages are
 * downloaded, the onair server is stopped, and a minimal host page written from the spec alone
 * (test/fixtures/ograf-host.html) loads each one from a plain static file server in Chromium. load, playAction,
 * updateAction, customAction and stopAction draw what they should; every file comes from the package's folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, type Channel } from './helpers/api.js';
import { sha256, solidPng, uploadForm } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { downloadPackage } from './helpers/ograf-export-packages.js';
import { decodePng } from './helpers/png.js';
import { startTestServer } from './helpers/server.js';
import { serveFolder, type StaticServer } from './helpers/static-server.js';

const HOST_PAGE = path.resolve(import.meta.dirname, 'fixtures/ograf-host.html');
const BLUE = solidPng(8, 8, [0, 0, 255, 255]);

let root: string;
let files: StaticServer;
let browser: Browser;
let templateIds: string[] = [];

/** Unzips `pkg` into `root/dir`; returns its manifest's path there. */
function unpack(dir: string, pkg: NonNullable<Awaited<ReturnType<typeof downloadPackage>>['pkg']>): void {
  for (const [name, data] of Object.entries(pkg.files)) {
    const file = path.join(root, dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
  }
}

async function downloadAll(): Promise<void> {
  const server = await startTestServer();
  try {
    const call = api(server.url, server.key);
    const templates = expectStatus(await call<{ data: { id: string }[] }>('GET', '/v1/templates'), 200).data;
    templateIds = templates.map((t) => t.id);
    for (const id of templateIds) {
      const { pkg } = await downloadPackage(`${server.url}/v1/templates/${id}/ograf`, server.key);
      unpack(id, pkg!);
    }
    const up = await uploadForm(server.url, server.key, BLUE, 'blue.png', 'image/png');
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Pack' }), 201);
    const definition = {
      version: 1,
      layer: 1,
      inputs: [{ name: 'logo', type: 'asset', label: 'Logo', default: (up.body as { path: string }).path }],
      elements: [{ type: 'image', name: 'logo', x: 0, y: 0, width: 400, height: 400, src: '{logo}', fit: 'fill' }],
      transitions: { in: { type: 'cut' }, out: { type: 'cut' } },
      triggers: [],
    };
    const scene = expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Logo', definition }),
      201,
    );
    const { pkg } = await downloadPackage(
      `${server.url}/v1/channels/${channel.id}/scenes/${scene.id}/ograf`,
      server.key,
    );
    unpack('scene', pkg!);
  } finally {
    // Nothing below talks to onair.
    await server.dispose();
  }
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-ograf-'));
  await downloadAll();
  fs.copyFileSync(HOST_PAGE, path.join(root, 'host.html'));
  files = await serveFolder(root);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await files?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** The host page playing `manifest`; any request outside the static server fails the test. */
async function host(manifest: string): Promise<{ page: Page; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(files.origin)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  await page.goto(`${files.origin}/host.html?manifest=${encodeURIComponent(manifest)}`);
  await page.waitForFunction(() => (window as unknown as { ografReady?: boolean }).ografReady === true, null, {
    timeout: 15_000,
  });
  return { page, outside };
}

type Call = 'load' | 'playAction' | 'updateAction' | 'stopAction' | 'customAction' | 'dispose';
function graphic(page: Page, method: Call, params: unknown = {}): Promise<Record<string, unknown> | undefined> {
  return page.evaluate(
    ([m, p]) => (window as unknown as { ografHost: Record<string, (x: unknown) => Promise<never>> }).ografHost[m]!(p),
    [method, params] as const,
  );
}

/** Animations in the graphic's shadow root (the document's own list leaves shadow trees out). */
function animations(page: Page, state: AnimationPlayState): Promise<number> {
  return page.evaluate(
    (s) =>
      [...document.querySelectorAll('#target > *')]
        .flatMap((el) => el.shadowRoot?.getAnimations() ?? [])
        .filter((a) => a.playState === s).length,
    state,
  );
}

const scenes = (page: Page) => page.locator('[data-scene]').count();

describe('an exported package in a standalone OGraf host', () => {
  it('plays the lower third: load, in, update without a re-take, out — with its own fonts', async () => {
    const { page, outside } = await host('lower-third/lower-third.ograf.json');
    expect(await graphic(page, 'load', { name: 'Ada Lovelace', title: 'Mathematician' })).toEqual({ statusCode: 200 });
    expect(await scenes(page)).toBe(0);
    expect(await graphic(page, 'playAction', {})).toEqual({ statusCode: 200, currentStep: 0 });
    // Resolved once the wipe has played in: nothing moves any more.
    expect(await animations(page, 'running')).toBe(0);
    await expect
      .poll(() => page.locator('[data-name="nameText"]').textContent(), { timeout: 5_000 })
      .toMatch(/ADA LOVELACE/i);
    await expect
      .poll(() => page.locator('[data-name="titleText"]').textContent(), { timeout: 5_000 })
      .toBe('Mathematician');
    const loaded = await page.evaluate(() =>
      [...(document.fonts as unknown as Iterable<FontFace>)]
        .filter((f) => f.status === 'loaded')
        .map((f) => `${f.family} ${f.weight}`),
    );
    expect(loaded).toEqual(expect.arrayContaining(['Oswald 600', 'Inter 600']));
    // Drawn at the page's size: the strap sits in the lower left, half the 1920×1080 stage's pixels.
    const shot = decodePng(await page.screenshot({ omitBackground: true }));
    const panel = await page.locator('[data-name="titlePanel"]').boundingBox();
    expect(panel!.y).toBeGreaterThan(400);
    expect(shot.at(Math.round(panel!.x + 20), Math.round(panel!.y + panel!.height / 2))?.[3]).toBe(255);

    await page.locator('[data-scene]').evaluate((el) => ((el as HTMLElement).dataset.marked = 'yes'));
    expect(await graphic(page, 'updateAction', { data: { name: 'Grace Hopper' } })).toEqual({ statusCode: 200 });
    await expect
      .poll(() => page.locator('[data-name="nameText"]').textContent(), { timeout: 5_000 })
      .toMatch(/GRACE HOPPER/i);
    await expect
      .poll(() => page.locator('[data-name="titleText"]').textContent(), { timeout: 5_000 })
      .toBe('Mathematician');
    expect(await page.locator('[data-scene][data-marked="yes"]').count()).toBe(1);

    const stopping = graphic(page, 'stopAction', {});
    // The wipe out plays before the scene leaves the page.
    await expect.poll(() => animations(page, 'running'), { timeout: 5_000, interval: 5 }).toBeGreaterThan(0);
    expect(await stopping).toEqual({ statusCode: 200 });
    expect(await scenes(page)).toBe(0);
    expect(await graphic(page, 'dispose')).toEqual({ statusCode: 200 });
    expect(outside).toEqual([]);
    expect(files.requests.filter((r) => r.startsWith('/lower-third/fonts/')).length).toBeGreaterThan(0);
    await page.close();
  });

  it("plays the scoreboard's triggers as custom actions, and one that follows a changed input", async () => {
    const { page } = await host('scoreboard/scoreboard.ograf.json');
    await graphic(page, 'load', { scoreA: 2 });
    await graphic(page, 'playAction', { skipAnimation: true });
    await expect.poll(() => page.locator('[data-scene]').textContent(), { timeout: 5_000 }).toContain('2');
    const box = page.locator('[data-name="scoreABox"]');
    const running = () => box.evaluate((el) => el.getAnimations().length);
    expect(await running()).toBe(0);
    const action = graphic(page, 'customAction', { id: 'flashScoreA', payload: null });
    await expect.poll(running, { timeout: 5_000, interval: 5 }).toBeGreaterThan(0);
    expect(await action).toEqual({ statusCode: 200 });
    expect(await graphic(page, 'customAction', { id: 'nope', payload: null })).toMatchObject({ statusCode: 404 });
    // scoreA changes: flashScoreA plays by itself, as on air.
    const update = graphic(page, 'updateAction', { data: { scoreA: 3 } });
    await expect.poll(running, { timeout: 5_000, interval: 5 }).toBeGreaterThan(0);
    expect(await update).toEqual({ statusCode: 200 });
    await expect.poll(() => page.locator('[data-scene]').textContent(), { timeout: 5_000 }).toContain('3');
    await page.close();
  });

  it('plays every bundled template in and, with a playAction past its one step, out', async () => {
    expect(templateIds.length).toBeGreaterThanOrEqual(10);
    for (const id of templateIds) {
      const { page, outside } = await host(`${id}/${id}.ograf.json`);
      expect(await graphic(page, 'load', {}), id).toEqual({ statusCode: 200 });
      expect(await graphic(page, 'playAction', {}), id).toEqual({ statusCode: 200, currentStep: 0 });
      expect(await scenes(page), id).toBe(1);
      expect(await page.locator('[data-scene] [data-type]').count(), id).toBeGreaterThan(0);
      const end = await graphic(page, 'playAction', { delta: 1 });
      expect(end?.statusCode, id).toBe(200);
      expect(end?.currentStep, id).toBeUndefined();
      expect(await scenes(page), id).toBe(0);
      expect(outside, id).toEqual([]);
      await page.close();
    }
  }, 90_000);

  it("draws a scene's library image from the package's own assets folder", async () => {
    const { page, outside } = await host(
      'scene/' + fs.readdirSync(path.join(root, 'scene')).find((f) => f.endsWith('.ograf.json')),
    );
    await graphic(page, 'load', {});
    await graphic(page, 'playAction', {});
    const logo = page.locator('[data-name="logo"]');
    await expect
      .poll(
        async () => {
          const b = await logo.boundingBox();
          const shot = decodePng(await page.screenshot({ omitBackground: true }));
          return shot.at(Math.round(b!.x + b!.width / 2), Math.round(b!.y + b!.height / 2));
        },
        { timeout: 10_000 },
      )
      .toEqual([0, 0, 255, 255]);
    expect(files.requests).toContain(`/scene/assets/${sha256(BLUE)}.png`);
    expect(outside).toEqual([]);
    await page.close();
  });
});
