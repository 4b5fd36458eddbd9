/**
 * The first-run setup page in headless Chromium: the printed one-time link creates the owner account and
 * shows a first API key once; that key works, and the link does not work twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { launchChromium } from './helpers/browser.js';

let browser: Browser;
let server: ServerHandle | null = null;
let dir = '';

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await server?.stop();
  server = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

it('creates the owner from the setup link and shows a working first API key once', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-setup-'));
  server = await startServer(
    loadConfig({ ONAIR_HOST: '127.0.0.1', ONAIR_PORT: '0', ONAIR_DATA_DIR: dir, ONAIR_LOG_LEVEL: 'silent' }),
  );
  const token = server.firstRun.setupToken;
  expect(token).toBeTruthy();
  const page = await browser.newPage();
  await page.goto(`${server.baseUrl}/setup?token=${token}`);
  await page.fill('#workspaceName', 'Arena');
  await page.fill('#email', 'owner@example.com');
  await page.fill('#password', 'a long enough password');
  await page.click('button[type=submit]');
  // The account's password is hashed first (argon2): seconds on a busy machine.
  const line = await page.locator('pre').textContent({ timeout: 20_000 });
  const key = /export ONAIR_KEY=(onair_sk_[A-Za-z0-9]+)/.exec(line ?? '')?.[1];
  expect(key).toBeTruthy();

  const me = await fetch(`${server.baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ workspace: { name: 'Arena' }, permissions: ['*'] });

  // The same link a second time is refused, and says so on the page.
  const again = await browser.newPage();
  await again.goto(`${server.baseUrl}/setup?token=${token}`);
  await again.fill('#email', 'intruder@example.com');
  await again.fill('#password', 'another long password');
  await again.click('button[type=submit]');
  await expect.poll(() => again.locator('#message').textContent()).toContain('not valid');
  await page.close();
  await again.close();
});
