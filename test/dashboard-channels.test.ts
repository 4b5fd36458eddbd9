/**
 * Channels in the dashboard (docs/dashboard.md, "Channels"), in headless Chromium against the real server:
 * the list with what is on air, rename, the output URLs as the API gives them, token rotation closing old
 * output pages, deletion only after a confirmation; and the pages pass axe-core's WCAG 2.1 AA checks at a
 * laptop's 1280×720.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Channel } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage } from './helpers/dashboard.js';
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

// A server, two pages and a token rotation: 60 s for a busy machine.
it('lists channels with what is on air, renames, shows the output URLs, rotates the token, deletes after a confirmation', async () => {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const { channelId, sceneId } = await createChannelWithScoreboard(call, 'Court 1');
  expectStatus(await call('POST', `/v1/channels/${channelId}/program`, { sceneId }), 200);
  const { page } = await signedInPage(browser, server.url, owner.email);
  const row = page.locator(`tr[data-channel="${channelId}"]`);
  await expect.poll(() => row.textContent()).toContain('ON AIR · 1 layer');
  await saveScreenshot(page, 'channels');

  await row.getByRole('link', { name: 'Settings' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Court 1: settings' }).count()).toBe(1);
  const before = expectStatus(await call<Channel>('GET', `/v1/channels/${channelId}`), 200);
  expect(await page.getByLabel('Program output (on air)').inputValue()).toBe(before.outputUrl);
  expect(await page.getByLabel('Preview output').inputValue()).toBe(before.previewUrl);

  await page.getByLabel('Name', { exact: true }).fill('Centre court');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Centre court: settings' }).count()).toBe(1);
  expect(expectStatus(await call<Channel>('GET', `/v1/channels/${channelId}`), 200).name).toBe('Centre court');

  // An open output page with the old token goes dark when the token is rotated.
  const output = await page.context().newPage();
  await output.goto(before.outputUrl);
  await expect.poll(() => output.evaluate(() => window.__onair?.status())).toBe('open');
  await page.getByRole('button', { name: 'Rotate output token' }).click();
  await page.getByRole('button', { name: 'Rotate now' }).click();
  await expect.poll(() => page.getByLabel('Program output (on air)').inputValue()).not.toBe(before.outputUrl);
  const after = expectStatus(await call<Channel>('GET', `/v1/channels/${channelId}`), 200);
  expect(await page.getByLabel('Program output (on air)').inputValue()).toBe(after.outputUrl);
  await expect.poll(() => output.evaluate(() => window.__onair?.status())).not.toBe('open');

  // Cancel keeps the channel; confirming deletes it.
  await page.getByRole('button', { name: 'Delete channel…' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect((await call('GET', `/v1/channels/${channelId}`)).status).toBe(200);
  await page.getByRole('button', { name: 'Delete channel…' }).click();
  await expect.poll(() => page.getByText('Delete Centre court for good?').count()).toBe(1);
  await page.getByRole('button', { name: 'Delete channel', exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Channels', level: 1 }).count()).toBe(1);
  await expect.poll(() => row.count()).toBe(0);
  expect((await call('GET', `/v1/channels/${channelId}`)).status).toBe(404);
  // A link to the deleted channel's live view says so, and opens no live connection.
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(`${server.url}/#/channels/${channelId}/live`);
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not found|does not exist/i);
  expect(sockets).toEqual([]);
}, 60_000);

it('passes axe-core’s WCAG 2.1 AA checks on the sign-in page, the channel list, a channel’s settings and the live view', async () => {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const { channelId, sceneId } = await createChannelWithScoreboard(api(server.url, server.key), 'Arena');
  expectStatus(await api(server.url, server.key)('POST', `/v1/channels/${channelId}/preview`, { sceneId }), 200);
  const anonymous = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await anonymous.goto(`${server.url}/`);
  await expect.poll(() => anonymous.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
  expect(await accessibilityViolations(anonymous), 'sign-in').toEqual([]);

  const { page } = await signedInPage(browser, server.url, owner.email);
  await expect.poll(() => page.locator(`tr[data-channel="${channelId}"]`).count()).toBe(1);
  expect(await accessibilityViolations(page), 'channels').toEqual([]);
  await page.goto(`${server.url}/#/channels/${channelId}/settings`);
  await expect.poll(() => page.getByRole('heading', { name: 'Arena: settings' }).count()).toBe(1);
  expect(await accessibilityViolations(page), 'channel settings').toEqual([]);
  await page.goto(`${server.url}/#/channels/${channelId}/live`);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  expect(await accessibilityViolations(page), 'live view').toEqual([]);
});

it('creates a channel at 60 fps unless told otherwise, as the API does; a channel’s settings show its own rate', async () => {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const slow = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Slow', fps: 30 }), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  const form = page.getByRole('form', { name: 'Create a channel' });
  expect(await form.getByLabel('Frame rate').inputValue()).toBe('60');
  await form.getByLabel('New channel').fill('Studio');
  await form.getByRole('button', { name: 'Create channel' }).click();
  const find = async () =>
    expectStatus(await call<{ data: Channel[] }>('GET', '/v1/channels'), 200).data.find((c) => c.name === 'Studio');
  await expect.poll(find).toMatchObject({ fps: 60 });
  // The dashboard opens the new channel once its answer is in: only then go elsewhere, or that navigation wins.
  const studio = (await find())!;
  await expect.poll(() => page.url()).toContain(`#/channels/${studio.id}/live`);

  await page.goto(`${server.url}/#/channels/${slow.id}/settings`);
  await expect.poll(() => page.getByRole('heading', { name: 'Slow: settings' }).count()).toBe(1);
  const settings = page.getByRole('form', { name: 'Name and frame rate' });
  expect(await settings.getByLabel('Frame rate').inputValue()).toBe('30');
});
