/**
 * The live view's controls for a select input and a clock with periods (docs/dashboard.md), in headless Chromium
 * against the real server: the select is a dropdown that puts the chosen option on air; the clock shows its period
 * and Next period moves it on.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, getState, type Channel } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const definition = {
  inputs: [
    { name: 'weather', type: 'select', label: 'Weather', options: ['Sunny', 'Rain', 'Snow'] },
    {
      name: 'match',
      type: 'clock',
      label: 'Match clock',
      periods: [
        { name: '1st half', stopAt: 2_700_000 },
        { name: '2nd half', stopAt: 5_400_000 },
      ],
    },
  ],
};

// Two sends from the page and their states read back: 60 s for a busy machine.
it('sets a select from its dropdown, and moves a clock to its next period', async () => {
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Ground' }), 201);
  expectStatus(await call('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Match', definition }), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/live`);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count(), { timeout: 20_000 }).toBe(1);

  const weather = page.getByLabel('Weather');
  await expect.poll(() => weather.inputValue(), { timeout: 20_000 }).toBe('Sunny');
  expect(await weather.locator('option').allTextContents()).toEqual(['Sunny', 'Rain', 'Snow']);
  await weather.selectOption('Rain');
  await expect.poll(async () => (await getState(call, channel.id)).inputs.weather, { timeout: 20_000 }).toBe('Rain');

  const clock = page.getByRole('group', { name: 'Match clock' });
  await expect.poll(() => clock.locator('.clock-period').textContent(), { timeout: 20_000 }).toBe('1st half');
  await clock.getByRole('button', { name: 'Next period' }).click();
  await expect
    .poll(async () => (await getState(call, channel.id)).clocks.match, { timeout: 20_000 })
    .toMatchObject({ running: false, ms: 2_700_000, period: 1 });
  await expect.poll(() => clock.locator('.clock-period').textContent(), { timeout: 20_000 }).toBe('2nd half');
  await expect.poll(() => clock.locator('output').textContent()).toBe('45:00');
  expect(await clock.getByRole('button', { name: 'Next period' }).isDisabled()).toBe(true);
}, 60_000);
