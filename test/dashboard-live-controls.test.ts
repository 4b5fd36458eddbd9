/**
 * Two details of the live view (docs/dashboard.md) in headless Chromium against the real server: the number field
 * of a stepper steps with + / − / ↑ / ↓ instead of typing the character, and the connection banner lies over the
 * page, so the monitors do not move when it comes and goes.
 */
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, getState, type Api } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
});

/** A signed-in page on the live view of a channel showing the scoreboard, with `before` run ahead of loading it. */
async function liveView(before?: (page: Page) => Promise<void>): Promise<{ page: Page; call: Api; channelId: string }> {
  server = await startTestServer();
  const owner = await setupOwner(server);
  const call = api(server.url, server.key);
  const { channelId } = await createChannelWithScoreboard(call);
  const { page } = await signedInPage(browser, server.url, owner.email);
  await before?.(page);
  await page.goto(`${server.url}/#/channels/${channelId}/live`);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  return { page, call, channelId };
}

it('steps the number in the field with + / − / ↑ / ↓, sending each step, and types none of them', async () => {
  const { page, call, channelId } = await liveView();
  const field = page.getByLabel('Home score value');
  const scoreA = async () => (await getState(call, channelId)).inputs.scoreA;
  await field.focus();
  await page.keyboard.press('+');
  await expect.poll(scoreA).toBe(1);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect.poll(scoreA).toBe(3);
  await page.keyboard.press('-');
  await page.keyboard.press('ArrowDown');
  await expect.poll(scoreA).toBe(1);
  await expect.poll(() => field.inputValue()).toBe('1');
  await expect.poll(() => page.getByText('Home score: 3').count()).toBeGreaterThan(0);

  // Typing a number and Enter still sets it, and the focus stays in the field for the next step.
  await field.fill('12');
  await page.keyboard.press('Enter');
  await expect.poll(scoreA).toBe(12);
  await page.keyboard.press('+');
  await expect.poll(scoreA).toBe(13);
  await expect.poll(() => field.inputValue()).toBe('13');
});

/** What the page shows, each time its document changes: which banner, and where the program monitor is. */
interface Seen {
  banner: 'down' | 'back' | null;
  top: number;
  left: number;
}

/** Records, in the page, the program monitor's position at every change of the document. */
function watchLayout(page: Page): Promise<void> {
  return page.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { __seen: Seen[] }).__seen = seen;
    const note = () => {
      const text = document.body.textContent ?? '';
      const banner = text.includes('Connection to the server lost')
        ? 'down'
        : text.includes('Back online')
          ? 'back'
          : null;
      const box = document.querySelector('iframe[title="Program monitor"]')!.getBoundingClientRect();
      seen.push({ banner, top: box.top, left: box.left });
    };
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
    note();
  });
}

it('shows the connection banner over the page: the monitors stay where they are while it comes and goes', async () => {
  // The dashboard's own line goes through the test: it can drop it, and refuse new ones until told otherwise.
  let offline = false;
  const lines: WebSocketRoute[] = [];
  const { page } = await liveView((p) =>
    p.routeWebSocket(/\/v1\/ws\?.*scenes=all/, (line) => {
      if (offline) return void line.close({ code: 1001 });
      line.connectToServer();
      lines.push(line);
    }),
  );
  await watchLayout(page);
  offline = true;
  for (const line of lines.splice(0)) await line.close({ code: 1001 });
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Connection to the server lost' }).count()).toBe(1);
  offline = false;
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => page.getByText('Back online').count(), { timeout: 10_000 }).toBe(0);

  const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
  expect(seen.some((s) => s.banner === 'down')).toBe(true);
  expect(seen.some((s) => s.banner === 'back')).toBe(true);
  const moved = seen.filter((s) => s.top !== seen[0]!.top || s.left !== seen[0]!.left);
  expect(moved).toEqual([]);
}, 60_000);
