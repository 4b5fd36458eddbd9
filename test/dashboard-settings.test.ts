/**
 * The dashboard's settings in headless Chromium against the real server (docs/dashboard.md, "Settings"): an API
 * key made in the page works from Node within its channel lock and stops when revoked; a webhook to a local
 * HTTPS receiver answering 500 shows its failed delivery and the ping result, is switched off and added again; a
 * long delivery log shows its newest lines; an invitation link shown once; an incoming hook made with a mapping,
 * posted to from Node, its posts (and their errors) listed; the server admin's page that decides who may create
 * workspaces, seen by nobody else. Field errors are shown beside (and named by) their
 * fields. axe-core checks each page.
 */
import crypto from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { addMember, setupOwner, type Member } from './helpers/access-fixtures.js';
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
  // Sooner than the test's own timeout, so that a missing element is named; a busy machine may take seconds.
  page.setDefaultTimeout(15_000);
}

/** The secret a SecretOnce box shows, by its label. */
const shownOnce = (label: string | RegExp) => page.getByRole('textbox', { name: label }).inputValue();

/** The text of what a field (or group of fields) names as its description: its errors, shown beside it. */
async function describedBy(field: Locator): Promise<string> {
  const ids = await field.getAttribute('aria-describedby');
  if (!ids) return '';
  const texts = await Promise.all(ids.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

it('creates a channel-locked API key whose secret works from Node, then revokes it', async () => {
  await start();
  const one = await createChannelWithScoreboard(call, 'Court 1');
  const two = await createChannelWithScoreboard(call, 'Court 2');
  await page.getByRole('link', { name: 'API keys' }).click();

  // No permission ticked: the server's answer is shown beside the permissions.
  await page.getByLabel('Name', { exact: true }).fill('Scorekeeper court 1');
  await page.getByRole('button', { name: 'Create key' }).click();
  const permissions = page.getByRole('group', { name: /^Permissions/ });
  await expect.poll(() => describedBy(permissions)).toMatch(/\S/);
  expect(expectStatus(await call<{ data: unknown[] }>('GET', '/v1/keys'), 200).data).toHaveLength(1); // bootstrap

  await page.getByRole('checkbox', { name: /inputs:write/ }).check();
  await page.getByRole('checkbox', { name: 'Court 1' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await shownOnce('Secret of Scorekeeper court 1');
  expect(secret).toMatch(/^onair_sk_/);
  await expect.poll(() => describedBy(permissions)).toBe('');
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
  const row = page.getByRole('row', { name: /Scorekeeper court 1/ });
  await expect.poll(() => row.textContent()).toContain('Court 1');
  expect(await row.textContent()).not.toContain('Court 2');
  await expect.poll(() => row.textContent()).toContain(secret.slice(0, 13));
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
  await expect.poll(() => page.getByText('none ticked: every event type, including types added later').count()).toBe(1);

  // A refused endpoint: the server's reason beside the URL field, nothing created.
  const urlField = page.getByLabel('Endpoint URL (https, public)');
  await urlField.fill('ftp://scores.example.com/hooks');
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await expect.poll(() => describedBy(urlField)).toMatch(/This endpoint is refused/);
  const subscriptions = async () =>
    expectStatus(
      await call<{ data: { id: string; status: string; url: string; events: string[] }[] }>('GET', '/v1/webhooks'),
      200,
    ).data;
  expect(await subscriptions()).toEqual([]);

  await urlField.fill(receiver.url);
  await page.getByRole('checkbox', { name: 'channel.bind_updated' }).check();
  await page.getByRole('button', { name: 'Add subscription' }).click();
  expect(await shownOnce(/^Signing secret for/)).toMatch(/^whsec_/);
  await expect.poll(() => describedBy(urlField)).toBe('');
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
  await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(3);

  const card = page.getByRole('region', { name: `Subscription ${receiver.url}` });
  await expect.poll(() => card.textContent()).toContain('Enabled');
  await card.getByRole('button', { name: 'Deliveries' }).click();
  const log = card.getByRole('table', { name: 'Deliveries' });
  await expect
    .poll(async () => {
      await card.getByRole('button', { name: 'Refresh' }).click();
      return log.locator('tbody tr[data-outcome="failed"]').count();
    })
    .toBe(3);
  expect(await log.textContent()).toContain('HTTP 500');
  expect(await log.textContent()).toContain('channel.bind_updated');
  await card.getByRole('button', { name: 'Ping' }).click();
  await expect.poll(() => card.getByRole('status').textContent()).toMatch(/Ping failed · HTTP 500 · \d+ ms/);
  await page.reload();
  await expect.poll(() => card.textContent()).toContain('Consecutive failures: 3');
  expect(await accessibilityViolations(page)).toEqual([]);

  // Twenty failures in a row switch it off; the page says why, and "Add again" makes a new one with a new secret.
  for (let n = 2; n <= 7; n++)
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
  await expect.poll(async () => (await subscriptions())[0]?.status).toBe('disabled');
  const old = (await subscriptions())[0]!.id;
  await page.reload();
  await expect.poll(() => card.textContent()).toMatch(/Disabled.*Switched off .* after 20 failed attempts/);
  expect(await card.textContent()).toMatch(/Last error, .*HTTP 500.*\(HTTP status 500\)/);
  await saveScreenshot(page, 'settings-webhooks');
  expect(await accessibilityViolations(page)).toEqual([]);
  await card.getByRole('button', { name: 'Add again (new secret)' }).click();
  expect(await shownOnce(/^Signing secret for .* \(added again\)/)).toMatch(/^whsec_/);
  await expect.poll(async () => (await subscriptions()).map((x) => x.status)).toEqual(['enabled']);
  const again = (await subscriptions())[0]!;
  expect(again.id).not.toBe(old);
  expect(again).toMatchObject({ url: new URL(receiver.url).href, events: ['channel.bind_updated'] });
  await expect.poll(() => page.getByRole('region', { name: /^Subscription / }).count()).toBe(1);
  await expect.poll(() => card.textContent()).toContain('Enabled');
});

it("shows a long delivery log's newest attempts first, and newer ones after a refresh", async () => {
  await start();
  const receiver = await startReceiver(204);
  receivers.push(receiver);
  const channels = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((n) => createChannelWithScoreboard(call, n)));
  const sub = expectStatus(
    await call<{ id: string }>('POST', '/v1/webhooks', { url: receiver.url, events: ['channel.bind_updated'] }),
    201,
  );
  // 125 events over five channels (each channel has its own 30 updates a second): two pages of the log.
  await Promise.all(
    channels.map(async ({ channelId }) => {
      for (let n = 1; n <= 25; n++)
        expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
    }),
  );
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(125);
  const wholeLog = async () => {
    const lines: { eventId: string }[] = [];
    let cursor = '';
    for (;;) {
      const page = expectStatus(
        await call<{ data: { eventId: string }[]; nextCursor: string | null }>(
          'GET',
          `/v1/webhooks/${sub.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        ),
        200,
      );
      lines.push(...page.data);
      if (!page.nextCursor) return lines;
      cursor = page.nextCursor;
    }
  };
  await expect.poll(async () => (await wholeLog()).length).toBe(125);
  const newest = (await wholeLog()).at(-1)!.eventId;

  await page.getByRole('link', { name: 'Webhooks' }).click();
  const card = page.getByRole('region', { name: `Subscription ${receiver.url}` });
  await card.getByRole('button', { name: 'Deliveries' }).click();
  const rows = card.getByRole('table', { name: 'Deliveries' }).locator('tbody tr');
  await expect.poll(() => rows.count()).toBe(25);
  await expect.poll(() => rows.first().getAttribute('data-event')).toBe(newest);
  await card.getByRole('button', { name: 'Show 25 older' }).click();
  await expect.poll(() => rows.count()).toBe(50);

  expectStatus(await call('PATCH', `/v1/channels/${channels[0]!.channelId}/inputs`, { scoreA: 99 }), 200);
  await expect.poll(async () => (await wholeLog()).length).toBe(126);
  const newer = (await wholeLog()).at(-1)!.eventId;
  await card.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => rows.first().getAttribute('data-event')).toBe(newer);
  await expect.poll(() => rows.count()).toBe(50);
  await expect.poll(() => card.locator('tbody tr[data-outcome="succeeded"]').count()).toBe(50);
});

it('invites a member with a role and shows the one-time link; the last owner cannot be demoted', async () => {
  await start();
  await page.getByRole('link', { name: 'Members' }).click();
  await expect.poll(() => page.getByText(/viewer: reads only/).count()).toBe(1);
  await page.getByLabel('Invite by email').fill('camera@example.com');
  // An invitation is for an operator unless told otherwise, never an owner by default.
  const role = page.getByRole('combobox', { name: /^Role(?! of)/ });
  expect(await role.inputValue()).toBe('operator');
  await role.selectOption('viewer');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await shownOnce('Invitation link for camera@example.com');
  expect(link).toMatch(/\/invite\?token=/);
  const pending = page.getByRole('table', { name: 'Pending invitations' });
  const invited = pending.getByRole('row').filter({ hasText: 'camera@example.com' });
  await expect.poll(() => invited.count()).toBe(1);
  await expect.poll(() => invited.getByRole('cell').allTextContents()).toContain('viewer');
  const accepted = await fetch(`${server.url}/v1/auth/accept-invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token'), password: 'a long enough password' }),
  });
  expect(accepted.status).toBe(200);
  await page.reload();
  await expect.poll(() => page.getByLabel('Role of camera@example.com').inputValue()).toBe('viewer');
  await expect.poll(() => page.getByText('Pending invitations').count()).toBe(1);
  await expect.poll(() => pending.count()).toBe(0);
  expect(await accessibilityViolations(page)).toEqual([]);

  // Demoting the only owner is refused: the reason is shown and the role stays as it is.
  await page.getByLabel('Role of owner@example.com').selectOption('operator');
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/owner/i);
  await expect.poll(() => page.getByLabel('Role of owner@example.com').inputValue()).toBe('owner');
  await page.getByLabel('Role of camera@example.com').selectOption('operator');
  await expect.poll(() => page.getByText('camera@example.com is now operator.').count()).toBe(1);
  const members = expectStatus(
    await owner.call<{ data: { email: string; role: string }[] }>('GET', '/v1/members'),
    200,
  ).data;
  expect(members.find((m) => m.email === 'camera@example.com')?.role).toBe('operator');
});

it('lets the server admin, and only the admin, decide who may create workspaces', async () => {
  await start();
  const crew = await addMember(server.url, owner.call, 'crew@example.com', 'operator');
  const createWorkspace = (name: string) => crew.call('POST', '/v1/workspaces', { name });
  await page.getByRole('link', { name: 'Server' }).click();
  const allowed = page.getByRole('checkbox', { name: 'crew@example.com may create workspaces' });
  await expect.poll(() => allowed.isChecked()).toBe(false);
  expect(await page.getByRole('checkbox', { name: 'owner@example.com may create workspaces' }).isDisabled()).toBe(true);
  expect(await createWorkspace('Refused')).toMatchObject({ status: 403 });

  await allowed.check();
  await expect.poll(() => page.getByText('crew@example.com may now create workspaces.').count()).toBe(1);
  expectStatus(await createWorkspace('Studio B'), 201);
  await page.reload();
  await expect
    .poll(() => page.getByRole('row').filter({ hasText: 'crew@example.com' }).textContent())
    .toContain('1 workspace');
  expect(await accessibilityViolations(page)).toEqual([]);
  await saveScreenshot(page, 'settings-server');
  await allowed.uncheck();
  await expect.poll(() => page.getByText('crew@example.com may no longer create workspaces.').count()).toBe(1);
  expect(await createWorkspace('Refused again')).toMatchObject({ status: 403 });

  await page.getByRole('checkbox', { name: /^Every account may create workspaces/ }).check();
  await expect.poll(() => page.getByText('Every account may now create workspaces.').count()).toBe(1);
  expectStatus(await createWorkspace('Studio C'), 201);

  // Anyone else sees no Server page, not even by its address.
  const other = await signedInPage(browser, server.url, crew.email);
  expect(await other.page.getByRole('link', { name: 'Server' }).count()).toBe(0);
  await other.page.goto(`${server.url}/#/settings/server`);
  await expect.poll(() => other.page.getByRole('heading', { name: 'Channels', level: 1 }).count()).toBe(1);
  expect(await other.page.getByRole('heading', { name: 'Server' }).count()).toBe(0);
});

it('creates an incoming hook with a mapping; posts from Node show in its recent posts, errors included', async () => {
  await start();
  const { channelId } = await createChannelWithScoreboard(call, 'Main');
  await page.goto(`${server.url}/#/channels/${channelId}/settings`);
  const form = page.getByRole('form', { name: 'New hook' });
  await form.getByLabel('Hook name').fill('Scorekeeper');
  await expect.poll(() => form.getByText('every top-level field sets the input of the same name').count()).toBe(1);

  // The same field twice is said beside it, and nothing is created.
  for (const n of [1, 2]) {
    await form.getByRole('button', { name: 'Add a field' }).click();
    await form.getByLabel(`JSON field ${n}`, { exact: true }).fill('game.home.score');
  }
  await form.getByRole('button', { name: 'Create hook' }).click();
  await expect.poll(() => describedBy(form.getByLabel('JSON field 2', { exact: true }))).toContain('listed twice');
  await form.getByRole('button', { name: 'Remove field 2' }).click();
  await form.getByLabel('Input for field 1').selectOption('scoreA');
  await form.getByRole('button', { name: 'Add a field' }).click();
  await form.getByLabel('JSON field 2', { exact: true }).fill('game.clock.ms');
  await form.getByLabel('Input for field 2').selectOption('gameClock');
  await form.getByRole('button', { name: 'Create hook' }).click();
  const url = await shownOnce('URL of Scorekeeper');
  expect(url).toContain('/v1/hooks/');
  // The curl to try is a dry run, with a value of each input's type (a time for a clock's `ms`).
  const curl = (await page.getByText(/^curl -s -X POST/).textContent())!;
  expect(curl).toContain(`'${url}?dryRun=1'`);
  expect(curl).toContain(`-d '{"game":{"home":{"score":1},"clock":{"ms":300000}}}'`);

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  expect((await post({ game: { home: { score: 4 } } })).status).toBe(200);
  expect((await post({ game: { home: { score: 'lots' } } })).status).toBe(400);
  const state = expectStatus(
    await call<{ inputs: Record<string, unknown> }>('GET', `/v1/channels/${channelId}/state`),
    200,
  );
  expect(state.inputs.scoreA).toBe(4);
  const hook = page.getByRole('group', { name: 'Hook Scorekeeper' });
  const mapping = hook.getByRole('listitem');
  await expect.poll(() => mapping.allTextContents()).toEqual(['game.home.score → scoreA', 'game.clock.ms → gameClock']);
  await hook.getByRole('button', { name: 'Refresh posts' }).click();
  const posts = hook.getByRole('table', { name: 'Recent posts to Scorekeeper' });
  await expect.poll(() => posts.locator('tbody tr').count()).toBe(2);
  expect(await posts.locator('tbody tr').first().textContent()).toMatch(/400.*invalid_request.*must be a number/);
  expect(await posts.locator('tbody tr').last().textContent()).toContain('{"scoreA":4}');
  await expect.poll(() => hook.textContent()).toContain('1 failed');
  await saveScreenshot(page, 'channel-settings');
  expect(await accessibilityViolations(page)).toEqual([]);

  // Tried as shown, the curl answers what it would apply and changes nothing on air.
  const [, shownUrl, shownBody] = /'(\S+)'[^]*-d '(.+)'/.exec(curl)!;
  const tried = await fetch(shownUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: shownBody,
  });
  expect(await tried.json()).toEqual({
    frame: null,
    applied: { scoreA: 1, gameClock: 300_000 },
    ignored: [],
    dryRun: true,
  });
  const untouched = expectStatus(
    await call<{ inputs: Record<string, unknown>; clocks: Record<string, { ms: number }> }>(
      'GET',
      `/v1/channels/${channelId}/state`,
    ),
    200,
  );
  expect(untouched.inputs.scoreA).toBe(4);
  expect(untouched.clocks.gameClock!.ms).not.toBe(300_000);

  // Editing the mapping keeps the URL.
  await hook.getByRole('button', { name: 'Edit Scorekeeper' }).click();
  const edit = hook.getByRole('form', { name: 'Edit Scorekeeper' });
  await edit.getByLabel('JSON field 1', { exact: true }).fill('home');
  await edit.getByRole('button', { name: 'Save hook' }).click();
  await expect.poll(() => mapping.allTextContents()).toEqual(['home → scoreA', 'game.clock.ms → gameClock']);
  expect((await post({ home: 6 })).status).toBe(200);
  const after = expectStatus(
    await call<{ inputs: Record<string, unknown> }>('GET', `/v1/channels/${channelId}/state`),
    200,
  );
  expect(after.inputs.scoreA).toBe(6);

  // A signed hook: the secret is shown once too, and the curl signs its post.
  await page.getByRole('button', { name: 'Done' }).click();
  await form.getByLabel('Hook name').fill('Signed feed');
  await form.getByLabel(/Require a signature/).check();
  await form.getByRole('button', { name: 'Create hook' }).click();
  const signedUrl = await shownOnce('URL of Signed feed');
  const secret = await shownOnce('Signing secret of Signed feed');
  expect(secret).toMatch(/^whsec_/);
  expect(await page.getByText(/X-Service-Signature/).textContent()).toContain(secret);
  const body = JSON.stringify({ scoreB: 3 });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = 'v1=' + crypto.createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
  const unsigned = await fetch(signedUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(unsigned.status).toBe(401);
  const signed = await fetch(signedUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signature },
    body,
  });
  expect(signed.status).toBe(200);
  const signedHook = page.getByRole('group', { name: 'Hook Signed feed' });
  await expect.poll(() => signedHook.textContent()).toContain('required: unsigned posts are refused');
  await signedHook.getByRole('button', { name: 'Refresh posts' }).click();
  // The unsigned post was refused at the door: it is in the refused posts, not in the recent ones.
  const signedPosts = signedHook.getByRole('table', { name: 'Recent posts to Signed feed' });
  await expect.poll(() => signedPosts.locator('tbody tr').count()).toBe(1);
  expect(await signedPosts.locator('tbody tr').first().textContent()).toContain('{"scoreB":3}');
  const refused = signedHook.getByRole('table', { name: 'Refused posts to Signed feed' });
  await expect.poll(() => refused.locator('tbody tr').count()).toBe(1);
  expect(await refused.locator('tbody tr').first().textContent()).toMatch(/1401bad_signature/);
  expect(await accessibilityViolations(page)).toEqual([]);
});
