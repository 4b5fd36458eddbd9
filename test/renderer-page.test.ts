/**
 * The output page in real headless Chromium against a real server: it draws the on-air scene, shows a
 * PATCHed value on the next frames, stays transparent without scrollbars, and comes back by itself after
 * the server restarts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { launchChromium } from './helpers/browser.js';
import { freePort, spawnServer, type ChildServer } from './helpers/spawn-server.js';

const KEY = 'onair_sk_rendererTestKey0123456789abcdef';
let browser: Browser;
let server: ServerHandle | null = null;
let dataDir: string;

function start(port = 0): Promise<ServerHandle> {
  return startServer(
    loadConfig({
      ONAIR_HOST: '127.0.0.1',
      ONAIR_PORT: String(port),
      ONAIR_DATA_DIR: dataDir,
      ONAIR_BOOTSTRAP_KEY: KEY,
      ONAIR_LOG_LEVEL: 'silent',
    }),
  );
}

async function call(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function scoreboardOnAir(base: string): Promise<{ id: string; outputUrl: string }> {
  const channel = await call('POST', `${base}/v1/channels`, { name: 'Renderer test' });
  const id = channel.id as string;
  const scene = await call('POST', `${base}/v1/channels/${id}/scenes`, { name: 'Score', template: 'scoreboard' });
  await call('POST', `${base}/v1/channels/${id}/program`, { sceneId: scene.id });
  return { id, outputUrl: channel.outputUrl as string };
}

const stageText = (page: Page) => page.evaluate(() => document.body.innerText);

beforeAll(async () => {
  // Playwright gives each non-persistent launch a fresh, empty profile directory of its own.
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await server?.stop();
  server = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('renderer page in headless Chromium', () => {
  // A server process started twice and a browser: 60 s for a busy machine.
  it('draws the on-air scene, shows a PATCHed value, and recovers after the server process restarts', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-render-'));
    // A real process on a fixed port, restarted the way an operator restarts it (SIGTERM, start again).
    const env = {
      ONAIR_HOST: '127.0.0.1',
      ONAIR_PORT: String(await freePort()),
      ONAIR_DATA_DIR: dataDir,
      ONAIR_BOOTSTRAP_KEY: KEY,
    };
    let child: ChildServer = await spawnServer(env);
    const base = child.url;
    const { id, outputUrl } = await scoreboardOnAir(base);
    const page = await browser.newPage({ viewport: { width: 960, height: 540 } });

    await page.goto(outputUrl);
    await expect.poll(() => stageText(page)).toContain('HOME');

    const patched = await call('PATCH', `${base}/v1/channels/${id}/inputs`, { scoreA: 7, home: 'LIONS' });
    await expect.poll(() => stageText(page)).toContain('LIONS');
    expect(await stageText(page)).toContain('7');
    const frame = await page.evaluate(() => window.__onair?.state().frame);
    expect(frame).toBeGreaterThanOrEqual(patched.frame as number);

    // Transparent, and the 1920×1080 stage scaled into the 960×540 viewport without scrollbars.
    const layout = await page.evaluate(() => ({
      html: getComputedStyle(document.documentElement).backgroundColor,
      body: getComputedStyle(document.body).backgroundColor,
      scrollW: document.documentElement.scrollWidth,
      scrollH: document.documentElement.scrollHeight,
    }));
    expect(layout.html).toBe('rgba(0, 0, 0, 0)');
    expect(layout.body).toBe('rgba(0, 0, 0, 0)');
    expect(layout.scrollW).toBeLessThanOrEqual(960);
    expect(layout.scrollH).toBeLessThanOrEqual(540);

    // Restart on the same port: the page reconnects, restores from the snapshot and takes new values.
    expect(await child.kill('SIGTERM')).toBe(0);
    await expect.poll(() => page.evaluate(() => window.__onair?.status())).not.toBe('open');
    child = await spawnServer(env);
    try {
      await expect.poll(() => page.evaluate(() => window.__onair?.status()), { timeout: 15_000 }).toBe('open');
      // The snapshot that restores it follows the open.
      await expect.poll(() => stageText(page)).toContain('LIONS');
      await call('PATCH', `${base}/v1/channels/${id}/inputs`, { scoreB: 42 });
      await expect.poll(() => stageText(page), { timeout: 10_000 }).toContain('42');
    } finally {
      await page.close();
      await child.kill('SIGTERM');
    }
  }, 60_000);

  it('paints nothing while no scene is on air, and nothing with a wrong token', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-render-'));
    server = await start();
    const base = server.baseUrl;
    const channel = await call('POST', `${base}/v1/channels`, { name: 'Empty' });
    const id = channel.id as string;
    const scene = await call('POST', `${base}/v1/channels/${id}/scenes`, { name: 'S', template: 'scoreboard' });
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });

    await page.goto(channel.outputUrl as string);
    await expect.poll(() => page.evaluate(() => window.__onair?.status())).toBe('open');
    expect((await stageText(page)).trim()).toBe('');

    // On air: the right token paints it...
    await call('POST', `${base}/v1/channels/${id}/program`, { sceneId: scene.id });
    await expect.poll(() => stageText(page)).toContain('HOME');

    // ...a wrong one is refused at the upgrade and paints nothing.
    const refused = new Promise<void>((resolve) => {
      page.on('websocket', (ws) => {
        if (ws.url().includes('token=wrong')) ws.on('close', () => resolve());
      });
    });
    await page.goto(`${base}/render/${id}?token=wrong`);
    await refused;
    expect(await page.evaluate(() => window.__onair?.status())).not.toBe('open');
    // No graphics (an ordinary browser shows only the notice that the link is refused, tested below).
    expect(await stageText(page)).not.toMatch(/HOME|AWAY/);
    await page.close();
  });

  const linkNotice = (page: Page) =>
    page.evaluate(() => document.querySelector('[data-notice="link"]')?.textContent ?? null);

  it('tells an ordinary browser that its link is refused (wrong token, rotated token), and OBS nothing', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-render-'));
    server = await start();
    const base = server.baseUrl;
    const { id, outputUrl } = await scoreboardOnAir(base);

    // A wrong token: the upgrade is refused, the page asks /access and says why it stays empty.
    const wrong = await browser.newPage({ viewport: { width: 640, height: 360 } });
    await wrong.goto(`${base}/render/${id}?token=wrong`);
    await expect.poll(() => linkNotice(wrong)).toContain('This output link is not valid any more');
    await wrong.close();

    // The right token draws with no notice; rotating the token closes the socket with 4009 and the notice comes.
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    await page.goto(outputUrl);
    await expect.poll(() => stageText(page)).toContain('HOME');
    expect(await linkNotice(page)).toBeNull();
    const rotated = await call('POST', `${base}/v1/channels/${id}/output-token`);
    await expect.poll(() => linkNotice(page)).toContain('rotated');
    // The new link works and shows no notice.
    await page.goto(rotated.outputUrl as string);
    await expect.poll(() => stageText(page)).toContain('HOME');
    expect(await linkNotice(page)).toBeNull();
    await page.close();

    // Inside OBS (window.obsstudio), the same refused link draws nothing at all: it may be on air.
    const obs = await browser.newPage({ viewport: { width: 640, height: 360 } });
    await obs.addInitScript(() => {
      (window as unknown as { obsstudio: object }).obsstudio = { pluginVersion: '30.0.0' };
    });
    // Two refused sockets: the page in a plain browser would have asked /access after the first.
    let closes = 0;
    obs.on('websocket', (ws) => {
      if (ws.url().includes('token=wrong')) ws.on('close', () => (closes += 1));
    });
    let asked = false;
    obs.on('request', (req) => {
      if (req.url().includes('/access')) asked = true;
    });
    await obs.goto(`${base}/render/${id}?token=wrong`);
    await expect.poll(() => closes, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(asked).toBe(false);
    expect(await linkNotice(obs)).toBeNull();
    expect((await stageText(obs)).trim()).toBe('');
    await obs.close();
  }, 90_000);
});
