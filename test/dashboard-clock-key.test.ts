/**
 * The live view's S key on a slow line (docs/dashboard.md, "Keys"): frames reach the page late, so after the first
 * press the page does not yet show the clock running. The second press must still stop it — what the operator meant
 * — not send another start. The page's WebSocket is routed through the test, which holds every server message back.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type State } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** How long each server message is held back on its way to the page. */
const LINE_DELAY_MS = 2_000;

let browser: Browser;
let server: TestServer | null = null;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
  server = null;
});

it('S twice stops the clock the first S started, though the page has not yet seen it run', async () => {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const { channelId } = await createChannelWithScoreboard(call);
  const { page } = await signedInPage(browser, server.url, owner.email);
  let slow = false;
  await page.routeWebSocket(/\/v1\/ws/, (ws) => {
    const upstream = ws.connectToServer();
    upstream.onMessage((message) => {
      if (slow) setTimeout(() => ws.send(message), LINE_DELAY_MS);
      else ws.send(message);
    });
  });
  await page.goto(`${server.url}/#/channels/${channelId}/live`);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  const running = async () =>
    expectStatus(await call<State>('GET', `/v1/channels/${channelId}/state`), 200).clocks.gameClock?.running;

  slow = true;
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  await expect.poll(running).toBe(true);
  // The server runs the clock; the page, LINE_DELAY_MS behind, still draws it stopped.
  await page.keyboard.press('s');
  await expect.poll(running).toBe(false);
  // Once the line has caught up, the page shows it stopped, and S starts it again.
  slow = false;
  await expect.poll(() => page.getByRole('button', { name: /Start/ }).first().isVisible()).toBe(true);
  await page.keyboard.press('s');
  await expect.poll(running).toBe(true);
}, 60_000);
