/**
 * The dashboard's OGraf graphics section (docs/ograf.md) in headless Chromium against the real server: a zip chosen
 * on the assets page is imported and listed, a scene is made from it in a chosen channel, and a malformed manifest
 * shows the server's problem with every failing path.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { manifest, ografZip } from './helpers/ograf-packages.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;
let call: Api;
let page: Page;

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

async function start(): Promise<void> {
  server = await startTestServer();
  const owner = await setupOwner(server);
  call = api(server.url, server.key);
  ({ page } = await signedInPage(browser, server.url, owner.email));
  page.setDefaultTimeout(15_000);
}

async function chooseZip(zip: Uint8Array): Promise<void> {
  await page.goto(`${server.url}/#/assets`);
  await page.getByRole('heading', { name: 'OGraf graphics' }).waitFor();
  await page.locator('.graphics-section input[type=file]').setInputFiles({
    name: 'graphic.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zip),
  });
}

it('imports a chosen zip, lists the graphic, and makes a scene of it in a channel', async () => {
  await start();
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  await chooseZip(ografZip());
  const card = page.locator('.graphic-card', { hasText: 'com.example.lower-third@1.0.0' });
  await card.waitFor();
  await expect.poll(() => card.textContent()).toContain('steps: 2');
  await card.getByRole('combobox').selectOption(channel.id);
  await card.getByRole('spinbutton').fill('4');
  await card.getByRole('button', { name: 'New scene from graphic' }).click();
  await page.getByText('Scene "Lower third" added.').waitFor();
  const scenes = expectStatus(await call<{ data: Scene[] }>('GET', `/v1/channels/${channel.id}/scenes`), 200).data;
  expect(scenes.map((s) => [s.name, s.layer])).toEqual([['Lower third', 4]]);
});

it('shows every failing path of a malformed manifest', async () => {
  await start();
  await chooseZip(ografZip({ 'lower-third.ograf.json': manifest({ supportsRealTime: 'yes', colour: 'red' }) }));
  const problem = page.locator('.graphics-section .problem');
  await problem.waitFor();
  await expect.poll(() => problem.textContent()).toContain('lower-third.ograf.json#supportsRealTime');
  expect(await problem.textContent()).toContain('lower-third.ograf.json#colour');
});
