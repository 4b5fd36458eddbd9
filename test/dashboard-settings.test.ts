/**
 * The dashboard's settings in headless Chromium against the real server (docs/dashboard.md, "Settings"): an API
 * key made in the page works from Node within its channel lock and stops when revoked; a webhook to a local
 * HTTPS receiver answering 500 shows its failed delivery and the ping result; an invitation link shown once;
 * an incoming hook made with a mapping, posted to from Node, its posts (and their errors) listed. axe-core checks
 * each page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner, type Member } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, testCertificate, type Receiver } from './helpers/webhook-receiver.js';

let browser: Browser;
let server: TestServer;
let owner: Member;
let call: Api;
let page: Page;
const receivers: Receiver[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  for (const r of receivers.splice(0)) await r.close();
  await server?.dispose();
});

async function start(): Promise<void> {
  const { cert } = await testCertificate();
  server = await startTestServer(
    { webhookCa: cert },
    { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1', ONAIR_WEBHOOK_RETRY_DELAYS_MS: '0,0' },
  );
  owner = await setupOwner(server);
  call = api(server.url, server.key);
  ({ page } = await signedInPage(browser, server.url, owner.email));
  page.setDefaultTimeout(8000);
}

/** The secret a SecretOnce box shows, by its label. */
const shownOnce = (label: string | RegExp) => page.getByRole('textbox', { name: label }).inputValue();

it('creates a channel-locked API key whose secret works from Node, then revokes it', async () => {
  await start();
  const one = await createChannelWithScoreboard(call, 'Court 1');
  const two = await createChannelWithScoreboard(call, 'Court 2');
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Scorekeeper court 1');
  await page.getByRole('checkbox', { name: /inputs:write/ }).check();
  await page.getByRole('checkbox', { name: 'Court 1' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await shownOnce('Secret of Scorekeeper court 1');
  expect(secret).toMatch(/^onair_sk_/);
  await saveScreenshot(page, 'settings-keys');
  expect(await accessibilityViolations(page)).toEqual([]);

  const patch = (channelId: string) =>
    fetch(`${server.url}/v1/channels/${channelId}/inputs`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scoreA: 2 }),
    });
  expect((await patch(one.channelId)).status).toBe(200);
  expect((await patch(two.channelId)).status).toBe(404);
  const row = page.locator('tr', { hasText: 'Scorekeeper court 1' });
  expect(await row.textContent()).toContain('Court 1');
  await page.getByRole('button', { name: 'Done' }).click();
  await row.getByRole('button', { name: 'Revoke Scorekeeper court 1' }).click();
  await page.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect.poll(() => row.textContent()).toContain('revoked');
  expect((await patch(one.channelId)).status).toBe(401);
});

it('subscribes a webhook whose endpoint answers 500: the failed delivery and its error show, ping reports', async () => {
  await start();
  const receiver = await startReceiver(500);
  receivers.push(receiver);
  const { channelId } = await createChannelWithScoreboard(call, 'Main');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Endpoint URL (https, public)').fill(receiver.url);
  await page.getByRole('checkbox', { name: 'channel.bind_updated' }).check();
  await page.getByRole('button', { name: 'Add subscription' }).click();
  expect(await shownOnce(/^Signing secret for/)).toMatch(/^whsec_/);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
  await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(3);

  const card = page.getByRole('region', { name: `Subscription ${receiver.url}` });
  await card.getByRole('button', { name: 'Deliveries' }).click();
  const log = card.getByRole('table', { name: 'Deliveries' });
  await expect
    .poll(async () => {
      await card.getByRole('button', { name: 'Refresh' }).click();
      return log.locator('tr[data-outcome="failed"]').count();
    })
    .toBe(3);
  expect(await log.textContent()).toContain('HTTP 500');
  await card.getByRole('button', { name: 'Ping' }).click();
  await expect.poll(() => card.getByRole('status').textContent()).toMatch(/Ping failed: HTTP 500/);
  await page.reload();
  await expect.poll(() => card.textContent()).toContain('consecutive failures: 3');
  expect(await accessibilityViolations(page)).toEqual([]);

  // Twenty failures in a row switch it off; the page says why, and "Add again" makes a new one with a new secret.
  for (let n = 2; n <= 7; n++)
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
  const subscriptions = async () =>
    expectStatus(await call<{ data: { id: string; status: string }[] }>('GET', '/v1/webhooks'), 200).data;
  await expect.poll(async () => (await subscriptions())[0]?.status).toBe('disabled');
  const old = (await subscriptions())[0]!.id;
  await page.reload();
  await expect.poll(() => card.textContent()).toMatch(/Switched off .*Last error .*HTTP 500/);
  await saveScreenshot(page, 'settings-webhooks');
  await card.getByRole('button', { name: 'Add again (new secret)' }).click();
  expect(await shownOnce(/^Signing secret for/)).toMatch(/^whsec_/);
  await expect.poll(async () => (await subscriptions()).map((x) => x.status)).toEqual(['enabled']);
  expect((await subscriptions())[0]!.id).not.toBe(old);
});

it('invites a member with a role and shows the one-time link', async () => {
  await start();
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Invite by email').fill('camera@example.com');
  await page.getByLabel(/^Role(?! of)/).selectOption('viewer');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await shownOnce('Invitation link for camera@example.com');
  expect(link).toMatch(/\/invite\?token=/);
  await expect.poll(() => page.getByText(/camera@example.com as viewer/).count()).toBe(1);
  const accepted = await fetch(`${server.url}/v1/auth/accept-invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token'), password: 'a long enough password' }),
  });
  expect(accepted.status).toBe(200);
  await page.reload();
  await expect.poll(() => page.getByLabel('Role of camera@example.com').inputValue()).toBe('viewer');
  expect(await accessibilityViolations(page)).toEqual([]);
});

it('creates an incoming hook with a mapping; posts from Node show in its recent posts, errors included', async () => {
  await start();
  const { channelId } = await createChannelWithScoreboard(call, 'Main');
  await page.goto(`${server.url}/#/channels/${channelId}/settings`);
  const form = page.getByRole('form', { name: 'Create hook' });
  await form.getByLabel('Hook name').fill('Scorekeeper');
  await form.getByLabel('JSON field (dotted path allowed)').fill('game.home.score');
  await form.getByLabel('Sets input').selectOption('scoreA');
  await form.getByRole('button', { name: 'Add to mapping' }).click();
  await form.getByRole('button', { name: 'Create hook' }).click();
  const url = await shownOnce('Hook URL');
  expect(url).toContain('/v1/hooks/');
  const post = (body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post({ game: { home: { score: 4 } } })).status).toBe(200);
  expect((await post({ game: { home: { score: 'lots' } } })).status).toBe(400);
  const state = expectStatus(
    await call<{ inputs: Record<string, unknown> }>('GET', `/v1/channels/${channelId}/state`),
    200,
  );
  expect(state.inputs.scoreA).toBe(4);
  const hook = page.getByRole('group', { name: 'Hook Scorekeeper' });
  await hook.getByRole('button', { name: 'Refresh posts' }).click();
  const posts = hook.getByRole('table', { name: 'Recent posts' });
  await expect.poll(() => posts.locator('tbody tr').count()).toBe(2);
  expect(await posts.textContent()).toContain('{"scoreA":4}');
  expect(await posts.textContent()).toMatch(/invalid_request.*must be a number/);
  await saveScreenshot(page, 'channel-settings');
  expect(await accessibilityViolations(page)).toEqual([]);
});
