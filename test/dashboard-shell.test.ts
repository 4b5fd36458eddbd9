/**
 * The dashboard's frame in headless Chromium: the login form, a wrong password said plainly, the channel
 * list after signing in, logging out, and the API reference opened beside the dashboard.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { launchChromium } from './helpers/browser.js';
import { saveScreenshot, signIn } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let browser: Browser;
let owner: Awaited<ReturnType<typeof setupOwner>>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  owner = await setupOwner(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

it('signs in with the form, refuses a wrong password plainly, and logs out', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await saveScreenshot(page, 'login');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or password/i);
  await signIn(page, server.url, owner.email);
  await expect.poll(() => page.getByText(`${owner.email} · owner`).count()).toBe(1);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
  const me = await page.evaluate(async () => (await fetch('/v1/me')).status);
  expect(me).toBe(401);
  await context.close();
});

it('opens the API reference in a new tab, so the dashboard (a live view mid-show) stays where it was', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await signIn(page, server.url, owner.email);
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^API($| \()/ });
  expect(await link.getAttribute('target')).toBe('_blank');
  expect(await link.getAttribute('rel')).toMatch(/\bnoopener\b/);
  const dashboard = page.url();
  const [docs] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), link.click()]);
  await expect.poll(() => docs.url()).toBe(`${server.url}/docs`);
  expect(page.url()).toBe(dashboard);
  await context.close();
});
