/**
 * "Download as OGraf" in the dashboard (docs/dashboard.md, docs/ograf.md "Export") in headless Chromium against the
 * real server: a saved scene's editor and the template chooser each download an OGraf package, a zip holding the
 * graphic's manifest and module for that scene or template.
 */
import fs from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
});

/** Clicks the page's "Download as OGraf" and reads the zip the browser saved: its files by name. */
async function download(page: Page): Promise<{ name: string; files: Record<string, Uint8Array> }> {
  const [saved] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: 'Download as OGraf' }).click(),
  ]);
  const file = await saved.path();
  return { name: saved.suggestedFilename(), files: unzipSync(new Uint8Array(fs.readFileSync(file))) };
}

function manifestOf(files: Record<string, Uint8Array>): Record<string, unknown> {
  const name = Object.keys(files).find((f) => f.endsWith('.ograf.json'));
  expect(name).toBeDefined();
  return JSON.parse(strFromU8(files[name!]!)) as Record<string, unknown>;
}

it('downloads a saved scene and a template as OGraf packages', async () => {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  const scene = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Guest strap', template: 'lower-third' }),
    201,
  );
  const { page } = await signedInPage(browser, server.url, owner.email);
  page.setDefaultTimeout(15_000);

  await page.goto(`${server.url}/#/channels/${channel.id}/scenes/${scene.id}`);
  const fromScene = await download(page);
  expect(fromScene.name).toBe('Guest-strap.zip');
  expect(manifestOf(fromScene.files)).toMatchObject({ id: `onair.scene.${scene.id}`, name: 'Guest strap' });
  expect(Object.keys(fromScene.files)).toContain('graphic.mjs');

  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByRole('radio', { name: /Scoreboard/ }).check();
  const fromTemplate = await download(page);
  expect(fromTemplate.name).toBe('scoreboard.zip');
  expect(manifestOf(fromTemplate.files)).toMatchObject({ id: 'onair.template.scoreboard' });
});
