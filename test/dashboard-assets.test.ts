/**
 * The dashboard's Assets page and image-input picker in headless Chromium against the real server (docs/assets.md,
 * "In the dashboard"): a file chosen on the page is uploaded and shown with its thumbnail (loaded with the session
 * cookie); deleting one a scene uses shows the server's message naming the scene; the live view's picker sets an
 * image input to an asset's URL.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, getState, type Api, type Channel } from './helpers/api.js';
import { solidPng } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
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

async function uploadOnPage(name: string): Promise<void> {
  await page.goto(`${server.url}/#/assets`);
  await page.getByRole('heading', { name: 'Assets', level: 1 }).waitFor();
  await page.locator('.drop-zone input[type=file]').setInputFiles({
    name,
    mimeType: 'image/png',
    buffer: solidPng(8, 8, [255, 0, 0, 255]),
  });
  await page.locator('.asset-card', { hasText: name }).waitFor();
}

it('uploads a chosen file, shows its thumbnail, and refuses to delete it while a scene uses it, naming the scene', async () => {
  await start();
  await uploadOnPage('red.png');
  const thumb = page.locator('.asset-card', { hasText: 'red.png' }).locator('img');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBe(8);

  const [asset] = expectStatus(await call<{ data: { id: string; url: string }[] }>('GET', '/v1/assets'), 200).data;
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  expectStatus(
    await call('POST', `/v1/channels/${channel.id}/scenes`, {
      name: 'Sponsor bug',
      definition: {
        version: 1,
        inputs: [],
        elements: [{ type: 'image', src: asset!.url, x: 0, y: 0, width: 100, height: 100 }],
      },
    }),
    201,
  );
  const card = page.locator('.asset-card', { hasText: 'red.png' });
  await card.getByRole('button', { name: 'Delete' }).click();
  await card.getByRole('group').getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('"Sponsor bug"');
  expect(await page.locator('.asset-card').count()).toBe(1);
});

it("the live view's picker sets an image input to an asset's URL", async () => {
  await start();
  await uploadOnPage('logo.png');
  const [asset] = expectStatus(await call<{ data: { url: string }[] }>('GET', '/v1/assets'), 200).data;
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  expectStatus(
    await call('POST', `/v1/channels/${channel.id}/scenes`, {
      name: 'Logo',
      definition: {
        version: 1,
        inputs: [{ name: 'logo', type: 'image', label: 'Logo', default: 'https://example.com/none.png' }],
        elements: [{ type: 'image', src: '{logo}', x: 0, y: 0, width: 100, height: 100 }],
      },
    }),
    201,
  );
  await page.goto(`${server.url}/#/channels/${channel.id}/live`);
  const field = page.locator('[data-input="logo"]');
  await field.getByRole('button', { name: 'Library…' }).click();
  await field.getByRole('button', { name: 'logo.png' }).click();
  await expect.poll(async () => (await getState(call, channel.id)).inputs.logo, { timeout: 15_000 }).toBe(asset!.url);
});
