/**
 * Rolling a webhook's signing secret from the dashboard (docs/dashboard.md, "Settings"; docs/webhooks.md, "Rolling
 * the secret"), in headless Chromium against the real server: "Roll secret" asks once more, shows the new secret
 * once, and says until when the old one still signs; a delivery after it verifies with both.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, testCertificate, verifyDelivery, type Receiver } from './helpers/webhook-receiver.js';

let browser: Browser;
let server: TestServer | undefined;
let receiver: Receiver | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await receiver?.close();
  await server?.dispose();
});

it('rolls a webhook secret: the new one shown once, the old one still signing beside it', async () => {
  const { cert } = await testCertificate();
  server = await startTestServer({ webhookCa: cert }, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  receiver = await startReceiver(204);
  const { channelId } = await createChannelWithScoreboard(call, 'Main');
  const created = expectStatus(
    await call<{ id: string; secret: string }>('POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['channel.bind_updated'],
    }),
    201,
  );
  const { page } = await signedInPage(browser, server.url, owner.email);
  page.setDefaultTimeout(8000);
  await page.getByRole('link', { name: 'Webhooks' }).click();

  const card = page.getByRole('region', { name: `Subscription ${receiver.url}` });
  await card.getByRole('button', { name: 'Roll secret' }).click();
  await card.getByRole('button', { name: 'Roll', exact: true }).click();
  const secret = await shownOnce(page, /^New signing secret for .* \(the old one keeps signing until .+\)/);
  expect(secret).toMatch(/^whsec_/);
  expect(secret).not.toBe(created.secret);
  await expect.poll(() => card.textContent()).toMatch(/Old secret still signs until/);
  expect(await accessibilityViolations(page)).toEqual([]);

  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
  await expect.poll(() => receiver!.received.length).toBe(1);
  expect(verifyDelivery(receiver.received[0]!, secret)).toBeNull();
  expect(verifyDelivery(receiver.received[0]!, created.secret)).toBeNull();

  // Shown once: after Done, and after a reload, the page no longer holds it.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await expect.poll(() => card.textContent()).toMatch(/Old secret still signs until/);
  expect(await page.content()).not.toContain(secret);
});

/** The secret a SecretOnce box shows, by its label. */
const shownOnce = (page: Page, label: RegExp) => page.getByRole('textbox', { name: label }).inputValue();
