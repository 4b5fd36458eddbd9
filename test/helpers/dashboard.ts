/**
 * Driving the operator dashboard in headless Chromium: sign in through its login form, and save
 * screenshots of its pages as test artifacts (.tmp/screenshots/, kept by CI with the test report).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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

/** Saves a PNG of one element (a card, a panel) as .tmp/screenshots/<name>.png. */
export async function saveElementScreenshot(element: Locator, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await element.screenshot({ path: file });
  return file;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules: labels, names, contrast, roles, landmarks…) on the page as it
 * is now and returns what it finds. Injected through the debugging protocol, so the page's own
 * Content-Security-Policy (no inline script) stays in force.
 */
export async function accessibilityViolations(page: Page): Promise<AxeViolation[]> {
  const source = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}
