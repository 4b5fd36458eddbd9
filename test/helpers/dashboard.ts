/**
 * Driving the operator dashboard in headless Chromium: sign in through its login form, and save
 * screenshots of its pages as test artifacts (.tmp/screenshots/, kept by CI with the test report).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD } from './access-fixtures.js';

export const SCREENSHOT_DIR = path.resolve('.tmp', 'screenshots');

/** A fresh browser context (its own cookies: one operator) at a laptop's 1280×720, signed in. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  password = PASSWORD,
  viewport = { width: 1280, height: 720 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, baseUrl, email, password);
  return { context, page };
}

/** Signs in with the dashboard's own form and waits for the channel list. */
export async function signIn(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Channels', level: 1 }).count()).toBe(1);
}

/** Saves a full-page PNG as .tmp/screenshots/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
