/**
 * The invitation and password-reset pages in headless Chromium: a newcomer creates the account from the
 * link; someone who has an account is told to sign in, and signs in and accepts on the same page; someone
 * already signed in accepts with one click; a reset link sets a new password.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { expectStatus, type List } from './helpers/api.js';
import {
  addMember,
  newWorkspace,
  PASSWORD,
  setupOwner,
  startServerWith,
  type AccessServer,
  type Member,
} from './helpers/access-fixtures.js';
import { launchChromium } from './helpers/browser.js';
import { resetTokenFor } from './helpers/reset-link.js';

let browser: Browser;
let server: AccessServer;
let owner: Member;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  server = await startServerWith();
  owner = await setupOwner(server);
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server.dispose();
});

async function inviteLink(email: string, role = 'operator'): Promise<string> {
  const res = await owner.call<{ inviteUrl: string }>('POST', '/v1/members', { email, role });
  return expectStatus(res, 201).inviteUrl;
}

async function freshPage(): Promise<Page> {
  return (await browser.newContext()).newPage();
}

const status = (page: Page) => page.locator('#message').textContent();
const memberEmails = async () =>
  expectStatus(await owner.call<List<{ email: string }>>('GET', '/v1/members'), 200).data.map((m) => m.email);

it('creates the account of a newcomer from the link, signed in at once', async () => {
  const page = await freshPage();
  await page.goto(await inviteLink('new@example.com'));
  await page.fill('#password', 'a long enough password');
  await page.click('#create button[type=submit]');
  await expect.poll(() => status(page)).toContain('Account created.');
  expect(await status(page)).toContain('new@example.com');
  const me = await page.request.get(`${server.url}/v1/me`);
  expect(((await me.json()) as { role: string }).role).toBe('operator');
  expect(await memberEmails()).toContain('new@example.com');
});

it('tells someone with an account to sign in, then signs in and accepts on the same page', async () => {
  const other = await newWorkspace(server.url, owner, 'Elsewhere');
  await addMember(server.url, other.session, 'known@example.com', 'viewer');
  const page = await freshPage();
  await page.goto(await inviteLink('known@example.com'));
  await page.fill('#password', 'some new password');
  await page.click('#create button[type=submit]');
  await expect.poll(() => status(page)).toContain('sign in with it below');
  await page.fill('#email', 'known@example.com');
  await page.fill('#current', PASSWORD);
  await page.click('#signin button[type=submit]');
  await expect.poll(() => status(page)).toContain('Invitation accepted.');
  expect(await memberEmails()).toContain('known@example.com');
});

it('accepts with one click for someone already signed in as the invited address', async () => {
  const other = await newWorkspace(server.url, owner, 'Elsewhere');
  await addMember(server.url, other.session, 'known@example.com', 'viewer');
  const page = await freshPage();
  const login = await page.request.post(`${server.url}/v1/auth/login`, {
    data: { email: 'known@example.com', password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  await page.goto(await inviteLink('known@example.com'));
  await expect.poll(() => page.locator('#me').textContent()).toBe('known@example.com');
  await page.click('#accept');
  await expect.poll(() => status(page)).toContain('Invitation accepted.');
  expect(await memberEmails()).toContain('known@example.com');
});

it('sets a new password from a reset link', async () => {
  const token = resetTokenFor(server.dir, server.url, owner.email);
  const page = await freshPage();
  await page.goto(`${server.url}/reset?token=${token}`);
  await page.fill('#password', 'the new password 42');
  await page.click('button[type=submit]');
  await expect.poll(() => status(page)).toContain('Password set.');
  expect((await owner.call('GET', '/v1/me')).status).toBe(401);
  const login = await page.request.post(`${server.url}/v1/auth/login`, {
    data: { email: owner.email, password: 'the new password 42' },
  });
  expect(login.status()).toBe(200);
});
