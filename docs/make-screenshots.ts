/**
 * Regenerates the pictures in docs/images/ used by docs/renderer.md: the real output page, served by the
 * real server, rendered by headless Chromium (not OBS, vMix or CasparCG, which cannot run here).
 *
 *   npx tsx docs/make-screenshots.ts
 *
 * Starts onair in this process on a free port with a temporary data directory, creates a channel and two
 * scenes through the REST API, puts them on air, opens the channel's outputUrl / previewUrl in Chromium at
 * 960×540 (the 1920×1080 stage at half size; 640×360 for the side-by-side picture), and screenshots the
 * page with a transparent background.
 * Each screenshot is then laid over a checkerboard, so that what the page leaves transparent shows as
 * checkerboard. The output page itself is never restyled.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { launchChromium } from '../test/helpers/browser.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'images');
const KEY = 'onair_sk_DocsScreenshots0123456789abcdefg';

type Json = Record<string, unknown>;

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

interface Size {
  width: number;
  height: number;
}

/** The output page with a transparent background, once it shows `text` (so it has drawn the scene). */
async function shoot(browser: Browser, url: string, text: string, viewport: Size): Promise<Buffer> {
  const page = await browser.newPage({ viewport });
  try {
    await page.goto(url);
    await page.waitForFunction(
      (expected) =>
        (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText.includes(
          expected,
        ),
      text,
      { timeout: 15_000 },
    );
    await settle(page);
    return await page.screenshot({ omitBackground: true });
  } finally {
    await page.close();
  }
}

/** Two animation frames: whatever the last render changed is painted. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const raf = (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void })
          .requestAnimationFrame;
        raf(() => raf(() => resolve()));
      }),
  );
}

interface Panel {
  /** A screenshot taken with a transparent background. */
  png: Buffer;
  size: Size;
  label: string;
}

const LABEL_HEIGHT = 28;
const GAP = 8;

/** Panels side by side, each laid over a grey checkerboard with its label underneath, as one PNG. */
async function compose(browser: Browser, panels: Panel[]): Promise<Buffer> {
  const width = panels.reduce((w, p) => w + p.size.width, 0) + GAP * (panels.length - 1);
  const height = Math.max(...panels.map((p) => p.size.height)) + LABEL_HEIGHT;
  const page = await browser.newPage({ viewport: { width, height } });
  const figure = (p: Panel) => `<figure style="width:${p.size.width}px">
  <div class="board" style="height:${p.size.height}px">
    <img alt="" src="data:image/png;base64,${p.png.toString('base64')}">
  </div>
  <figcaption>${p.label}</figcaption>
</figure>`;
  try {
    await page.setContent(`<!doctype html>
<html><head><style>
  html, body { margin: 0; background: #ffffff; overflow: hidden; }
  body { display: flex; gap: ${GAP}px; }
  figure { margin: 0; }
  .board { background: repeating-conic-gradient(#c8c8c8 0% 25%, #eeeeee 0% 50%) 0 0 / 24px 24px; }
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
    await settle(page);
    return await page.screenshot();
  } finally {
    await page.close();
  }
}

function write(name: string, png: Buffer): void {
  const file = path.join(OUT, name);
  fs.writeFileSync(file, png);
  process.stdout.write(`${path.relative(ROOT, file)}  ${(png.length / 1024).toFixed(0)} KB\n`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'renderer', 'dist', 'manifest.json'))) {
    execFileSync(process.execPath, [path.join(ROOT, 'renderer', 'build.mjs')], { stdio: 'inherit' });
  }
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-docs-'));
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
    const channel = await call(server, 'POST', '/v1/channels', { name: 'Main' });
    const ch = `/v1/channels/${channel.id as string}`;
    const score = await call(server, 'POST', `${ch}/scenes`, { name: 'Score', template: 'scoreboard' });
    const strap = await call(server, 'POST', `${ch}/scenes`, { name: 'Strap', template: 'lower-third' });
    await call(server, 'PATCH', `${ch}/inputs`, {
      home: 'LIONS',
      away: 'TIGERS',
      scoreA: 3,
      scoreB: 1,
      period: 2,
      name: 'Alex Morgan',
      title: 'Head coach, Lions',
    });
    browser = await launchChromium();
    const outputUrl = channel.outputUrl as string;
    const previewUrl = channel.previewUrl as string;

    const full = { width: 960, height: 540 };
    const half = { width: 640, height: 360 };

    // (a) The scoreboard on air.
    await call(server, 'POST', `${ch}/program`, { sceneId: score.id });
    const a = await shoot(browser, outputUrl, 'LIONS', full);
    write(
      'output-scoreboard.png',
      await compose(browser, [{ png: a, size: full, label: 'outputUrl: scoreboard on air' }]),
    );

    // (b) The lower third on air.
    await call(server, 'POST', `${ch}/program`, { sceneId: strap.id });
    const b = await shoot(browser, outputUrl, 'Alex Morgan', full);
    write(
      'output-lower-third.png',
      await compose(browser, [{ png: b, size: full, label: 'outputUrl: lower third on air' }]),
    );

    // (c) Program and preview buses side by side: the scoreboard on air, the lower third cued on preview.
    await call(server, 'POST', `${ch}/program`, { sceneId: score.id });
    await call(server, 'POST', `${ch}/preview`, { sceneId: strap.id });
    const program = await shoot(browser, outputUrl, 'LIONS', half);
    const preview = await shoot(browser, previewUrl, 'Alex Morgan', half);
    write(
      'program-and-preview.png',
      await compose(browser, [
        { png: program, size: half, label: 'outputUrl (program): scoreboard' },
        { png: preview, size: half, label: 'previewUrl (preview): lower third, cued' },
      ]),
    );
  } finally {
    await browser?.close();
    await server?.stop();
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
