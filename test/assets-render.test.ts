/**
 * Assets drawn by the real output page in Chromium, with nothing but the onair server reachable: a PNG uploaded to the
 * library and named by a scene's image element is drawn; an SVG with a script never runs it, drawn by the page or
 * opened directly; and a backup restored onto another server (another port) still draws the asset.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, type Channel } from './helpers/api.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { decodePng } from './helpers/png.js';
import { makeDataDir, serverEnv, startTestServer, type TestServer } from './helpers/server.js';
import { runCli } from './helpers/spawn-server.js';

let browser: Browser;
const servers: TestServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({}, env);
  servers.push(server);
  return server;
}

const GREEN = solidPng(16, 16, [0, 200, 0, 255]);

/** A channel whose program shows one full-frame image element with `src`. */
async function showImage(server: TestServer, src: string): Promise<{ outputUrl: string; channelId: string }> {
  const call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const scene = expectStatus(
    await call<{ id: string }>('POST', `${ch}/scenes`, {
      name: 'Full frame',
      definition: {
        version: 1,
        inputs: [{ name: 'picture', type: 'image', default: src }],
        elements: [{ type: 'image', src: '{picture}', x: 0, y: 0, width: 1920, height: 1080, fit: 'fill' }],
      },
    }),
    201,
  );
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
  return { outputUrl: channel.outputUrl, channelId: channel.id };
}

/** A page that may reach `origin` only: any other request is recorded and refused. */
async function isolatedPage(origin: string): Promise<{ page: Page; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 320, height: 180 } });
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return { page, outside };
}

async function centrePixel(page: Page): Promise<[number, number, number, number]> {
  return decodePng(await page.screenshot({ omitBackground: true })).at(160, 90);
}

it('draws a PNG of the library, named by a scene, through the output URL with no other server', async () => {
  const server = await start();
  const up = await uploadForm(server.url, server.key, GREEN, 'green.png');
  expect(up.status).toBe(201);
  const { outputUrl } = await showImage(server, String(up.body.url));
  const { page, outside } = await isolatedPage(server.url);
  await page.goto(outputUrl);
  await expect.poll(() => centrePixel(page), { timeout: 20_000 }).toEqual([0, 200, 0, 255]);
  expect(outside).toEqual([]);
  await page.close();
});

const EVIL_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="window.owned=1">' +
    '<script>window.owned = 1; parent.owned = 1; top.owned = 1;</script>' +
    '<rect width="16" height="16" fill="#0000ff"/></svg>',
);

it('an SVG with a script never runs it: drawn by the output page, or opened directly', async () => {
  const server = await start();
  const up = await uploadForm(server.url, server.key, EVIL_SVG, 'evil.svg', 'image/svg+xml');
  expect(up.status).toBe(201);
  const { outputUrl, channelId } = await showImage(server, String(up.body.url));
  const { page } = await isolatedPage(server.url);
  await page.goto(outputUrl);
  await expect.poll(() => centrePixel(page), { timeout: 20_000 }).toEqual([0, 0, 255, 255]);
  expect(await page.evaluate(() => (window as unknown as { owned?: number }).owned)).toBeUndefined();

  const token = new URL(outputUrl).searchParams.get('token')!;
  const direct = await page.goto(`${server.url}${String(up.body.path)}?channel=${channelId}&token=${token}`);
  expect(direct?.status()).toBe(200);
  expect(direct?.headers()['content-security-policy']).toContain('sandbox');
  expect(await page.evaluate(() => (window as unknown as { owned?: number }).owned)).toBeUndefined();
  await page.close();
});

it('a backup restored onto another server still draws the asset', async () => {
  const first = await start();
  const up = await uploadForm(first.url, first.key, GREEN, 'green.png');
  const { channelId } = await showImage(first, String(up.body.url));
  const file = path.join(makeDataDir(), 'backup.db');
  dirs.push(path.dirname(file));
  expect((await runCli(['backup', file], serverEnv(first.dir))).code).toBe(0);
  await first.stop();

  const fresh = makeDataDir();
  dirs.push(fresh);
  expect((await runCli(['restore', file], serverEnv(fresh))).code).toBe(0);
  const restored = await start({ ONAIR_DATA_DIR: fresh });
  expect(restored.url).not.toBe(first.url);
  const channel = expectStatus(await api(restored.url, restored.key)<Channel>('GET', `/v1/channels/${channelId}`), 200);
  const { page, outside } = await isolatedPage(restored.url);
  await page.goto(channel.outputUrl);
  await expect.poll(() => centrePixel(page), { timeout: 20_000 }).toEqual([0, 200, 0, 255]);
  expect(outside).toEqual([]);
  await page.close();
});

it('the CSP sandbox alone stops a script in an SVG the sanitiser never saw, opened directly', async () => {
  const server = await start();
  // Stored straight into the database, past the upload's sanitiser: the serving headers are all that is left.
  const raw = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="window.owned=2">' +
      '<script>window.owned = 1;</script><rect width="16" height="16" fill="#ff0000"/></svg>',
  );
  const orgId = (await server.handle.store.defaultOrg()).id;
  const sha = createHash('sha256').update(raw).digest('hex');
  await server.handle.store.assets.insertAsset(
    {
      id: `ast_${'0'.repeat(31)}1`,
      orgId,
      sha256: sha,
      type: 'image/svg+xml',
      kind: 'image',
      name: 'raw.svg',
      bytes: raw.length,
      width: null,
      height: null,
      createdAt: new Date().toISOString(),
    },
    raw,
  );
  const call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  const { page } = await isolatedPage(server.url);
  const token = new URL(channel.outputUrl).searchParams.get('token')!;
  const direct = await page.goto(`${server.url}/assets/${sha}.svg?channel=${channel.id}&token=${token}`);
  expect(direct?.status()).toBe(200);
  // The script is in the document, and did not run.
  expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { owned?: number }).owned)).toBeUndefined();
  await page.close();
});
