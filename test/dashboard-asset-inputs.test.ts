/**
 * The library in the dashboard's controls, in headless Chromium against the real server (docs/dashboard.md): an
 * `asset` input of the live view is a thumbnail with Library… and Clear (no text field), and puts the picked image's
 * path on air; the scene editor's Font lists the library's fonts by name and saves the chosen one's path.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, getState, type Api, type Channel, type Scene } from './helpers/api.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const require = createRequire(import.meta.url);
const MONO_WOFF2 = fs.readFileSync(require.resolve('@fontsource/roboto-mono/files/roboto-mono-latin-400-normal.woff2'));

let browser: Browser;
let server: TestServer;
let call: Api;
let owner: Awaited<ReturnType<typeof setupOwner>>;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer();
  owner = await setupOwner(server);
  call = api(server.url, server.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
});

async function upload(file: Buffer, name: string): Promise<{ path: string }> {
  const up = await uploadForm(server.url, server.key, file, name);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return up.body as { path: string };
}

it("shows an asset input as its image with Library… and Clear, and puts the picked image's path on air", async () => {
  const crest = await upload(solidPng(8, 8, [0, 90, 200, 255]), 'lions.png');
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Match' }), 201);
  const body = { name: 'Score', template: 'football-scoreboard' };
  expectStatus(await call('POST', `/v1/channels/${channel.id}/scenes`, body), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/#/channels/${channel.id}/live`);

  const control = page.locator('[data-input="homeCrest"]');
  await control.getByRole('button', { name: 'Library…' }).waitFor();
  expect(await control.locator('input').count()).toBe(0);
  expect(await control.textContent()).toContain('none');
  await control.getByRole('button', { name: 'Library…' }).click();
  await control.getByRole('button', { name: 'lions.png' }).click();
  await expect
    .poll(async () => (await getState(call, channel.id)).inputs.homeCrest, { timeout: 15_000 })
    .toBe(crest.path);
  // The thumbnail is the image on air, loaded from this server with the session.
  const thumb = control.locator('img');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBe(8);
  expect(await thumb.getAttribute('src')).toBe(crest.path);

  await control.getByRole('button', { name: 'Clear' }).click();
  await expect.poll(async () => (await getState(call, channel.id)).inputs.homeCrest, { timeout: 15_000 }).toBeNull();
});

// Opening the editor, a dry run and a save: 60 s for a busy machine.
it("lists the library's fonts in the scene editor's Font, by name, and saves the chosen font's path", async () => {
  const font = await upload(MONO_WOFF2, 'House Mono.woff2');
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio' }), 201);
  const definition = {
    elements: [{ type: 'text', name: 'line', x: 0, y: 0, width: 800, height: 100, text: 'Hello', fontSize: 60 }],
  };
  const scene = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Strap', definition }),
    201,
  );
  const { page } = await signedInPage(browser, server.url, owner.email);
  page.setDefaultTimeout(20_000);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes/${scene.id}`);
  await expect.poll(() => page.getByRole('heading', { name: 'Scene: Strap' }).count(), { timeout: 20_000 }).toBe(1);

  const select = page.getByRole('group', { name: /· line$/ }).getByLabel('Font', { exact: true });
  await expect
    .poll(() => select.locator('optgroup[label="Asset library"] option').allTextContents(), { timeout: 20_000 })
    .toEqual(['House Mono.woff2']);
  expect(await select.locator('optgroup[label="Bundled"] option').allTextContents()).toEqual([
    'Inter',
    'Oswald',
    'Barlow Condensed',
    'Roboto Mono',
  ]);
  await select.selectOption({ label: 'House Mono.woff2' });
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count(), { timeout: 20_000 }).toBe(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(
      async () => {
        const saved = expectStatus(await call<Scene>('GET', `/v1/channels/${channel.id}/scenes/${scene.id}`), 200);
        return (saved.definition as { elements: { fontFamily?: string }[] }).elements[0]?.fontFamily;
      },
      { timeout: 20_000 },
    )
    .toBe(font.path);
  expect(await select.inputValue()).toBe(font.path);
}, 60_000);
