/**
 * The operator dashboard running a show in headless Chromium against the real server (docs/dashboard.md):
 * first-run setup → sign in → a channel → a scene from a template in the editor → cue → take → scores and names, drawn by the program
 * monitor and by a separate output page; two operators seeing each other's changes; a viewer with no write
 * controls whose writes the API refuses anyway; the connection banner when the server is killed, cleared
 * with a resync when it is back. Screenshots of the live view are saved as artifacts.
 */
import fs from 'node:fs';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import { addMember, setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Channel } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { saveScreenshot, signedInPage, signIn } from './helpers/dashboard.js';
import { makeDataDir, serverEnv, startTestServer, TEST_KEY, type TestServer } from './helpers/server.js';
import { freePort, spawnServer, type ChildServer } from './helpers/spawn-server.js';

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

/** The iframe of a monitor in the live view, once its output page has loaded its state. */
async function monitor(page: Page, title: 'Program monitor' | 'Preview monitor'): Promise<Frame> {
  const handle = await page.getByTitle(title).elementHandle();
  const frame = await handle.contentFrame();
  await expect.poll(() => frame!.evaluate(() => (window.__onair?.state().frame ?? -1) >= 0)).toBe(true);
  return frame!;
}

/** Text an output page draws for the element named `name` ('' when it draws no such element). */
function drawn(frame: Frame | Page, name: string): Promise<string> {
  return frame.evaluate(
    (n) => [...document.querySelectorAll(`[data-name="${n}"]`)].map((el) => el.textContent ?? '').join('|'),
    name,
  );
}

describe('running a show', () => {
  // The longest walk through the dashboard (a server, three pages, two viewports): 60 s for a busy machine.
  it('sets up, signs in, creates a channel, cues and takes a scene, bumps the score: monitors and output pages draw it', async () => {
    server = await startTestServer();
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    // First run: the printed setup link creates the owner, who goes on to the dashboard.
    await page.goto(`${server.url}/setup?token=${server.handle.firstRun.setupToken}`);
    await page.fill('#workspaceName', 'Arena');
    await page.fill('#email', 'producer@example.com');
    await page.fill('#password', 'correct horse battery staple');
    await page.click('button[type=submit]');
    await page.getByRole('link', { name: 'Open the dashboard' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Channels', level: 1 }).count()).toBe(1);
    await page.getByRole('button', { name: 'Log out' }).click();
    await signIn(page, server.url, 'producer@example.com');

    await page.getByLabel('New channel').fill('Cup final');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Cup final' }).count()).toBe(1);
    const channelId = /#\/channels\/([^/]+)\/live/.exec(page.url())![1]!;
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    // A scene from the scoreboard template, made in the scene editor, then back to the live view.
    await page.getByRole('link', { name: 'Add one from a template' }).click();
    await page.getByRole('radio', { name: /Scoreboard/ }).check();
    await page.getByLabel('Scene name').fill('Score');
    await page.getByRole('button', { name: 'Open in the editor' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Create scene' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/channels\/[^/]+\/scenes\/sc_[0-9a-f]+$/);
    await page.getByRole('link', { name: 'Back to live view' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Cue Score' }).click();
    const row = page
      .getByRole('list', { name: /Scenes/ })
      .getByRole('listitem')
      .filter({ hasText: 'Score' });
    await expect.poll(() => row.getByText('CUED').count()).toBe(1);
    const preview = await monitor(page, 'Preview monitor');
    await expect.poll(() => drawn(preview, 'homeName')).toBe('HOME');
    await page.getByRole('button', { name: 'TAKE' }).click();
    await expect.poll(() => row.getByText('ON AIR').count()).toBe(1);

    // Seven quick clicks are +7: each step starts from the one still in flight.
    const plus = page.getByRole('button', { name: 'Home score plus one' });
    for (let i = 0; i < 7; i++) await plus.click();
    await page.getByLabel('Home team', { exact: true }).fill('LIVERPOOL');
    await page.getByLabel('Home team', { exact: true }).press('Enter');
    const program = await monitor(page, 'Program monitor');
    await expect.poll(() => drawn(program, 'homeName')).toBe('LIVERPOOL');
    await expect.poll(() => program.evaluate(() => window.__onair?.state().inputs.scoreA)).toBe(7);
    await expect.poll(() => page.getByLabel('Home score value').inputValue()).toBe('7');

    const channel = expectStatus(await api(server.url, server.key)<Channel>('GET', `/v1/channels/${channelId}`), 200);
    const output = await context.newPage();
    await output.goto(channel.outputUrl);
    await expect.poll(() => drawn(output, 'homeName')).toBe('LIVERPOOL');
    await expect.poll(() => output.evaluate(() => window.__onair?.state().inputs.scoreA)).toBe(7);
    await expect.poll(() => page.getByText(/Done.*Home score: 7/).count()).toBe(1);
    // The feed reads GET /v1/events every 2 s.
    await expect
      .poll(() => page.locator('.event-feed li[data-type="channel.played"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await saveScreenshot(page, 'live-view');

    const wide = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const big = await wide.newPage();
    await signIn(big, server.url, 'producer@example.com');
    await big.goto(`${server.url}/#/channels/${channelId}/live`);
    await monitor(big, 'Program monitor');
    await saveScreenshot(big, 'live-view-1080p');
  }, 60_000);

  it('drives the show from the keyboard: select, cue, take, clear, score up/down, clock start/stop', async () => {
    server = await startTestServer();
    const owner = await setupOwner(server);
    const call = api(server.url, server.key);
    const { channelId } = await createChannelWithScoreboard(call);
    const { page } = await signedInPage(browser, server.url, owner.email);
    await page.goto(`${server.url}/#/channels/${channelId}/live`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    const state = async () =>
      expectStatus(
        await call<{
          program: unknown[];
          preview: unknown[];
          inputs: Record<string, unknown>;
          clocks: Record<string, { running: boolean }>;
        }>('GET', `/v1/channels/${channelId}/state`),
        200,
      );
    await page.keyboard.press('j');
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: /Scenes/ })
          .locator('li[aria-current="true"]')
          .count(),
      )
      .toBe(1);
    await page.keyboard.press('p');
    await expect.poll(async () => (await state()).preview.length).toBe(1);
    await page.keyboard.press('t');
    await expect.poll(async () => (await state()).program.length).toBe(1);
    await page.getByRole('group', { name: 'Home score' }).focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.keyboard.press('-');
    await expect.poll(async () => (await state()).inputs.scoreA).toBe(1);
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('s');
    await expect.poll(async () => (await state()).clocks.gameClock?.running).toBe(true);
    await page.keyboard.press('s');
    await expect.poll(async () => (await state()).clocks.gameClock?.running).toBe(false);
    await page.keyboard.press('x');
    await expect.poll(async () => (await state()).program.length).toBe(0);
    await expect.poll(() => page.getByText('Take everything cued to air').count()).toBe(1);
  });
});

describe('several people', () => {
  it('two operators see each other’s changes within a second', async () => {
    server = await startTestServer();
    const owner = await setupOwner(server);
    const operator = await addMember(server.url, owner.call, 'op2@example.com', 'operator');
    const { channelId } = await createChannelWithScoreboard(api(server.url, server.key));
    const one = await signedInPage(browser, server.url, owner.email);
    const two = await signedInPage(browser, server.url, operator.email);
    for (const { page } of [one, two]) {
      await page.goto(`${server.url}/#/channels/${channelId}/live`);
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    }
    await two.page.getByRole('button', { name: 'Cue Score' }).click();
    await expect.poll(() => two.page.getByText(/Done.*Cue Score/).count()).toBe(1);
    // The 1 s timeouts below are the second this test is about (each counted from the change's "Done"), not a wait
    // to lengthen for a busy machine.
    await expect
      .poll(
        () =>
          one.page
            .getByRole('list', { name: /Scenes/ })
            .getByRole('listitem')
            .filter({ hasText: 'Score' })
            .getByText('CUED')
            .count(),
        { timeout: 1000 },
      )
      .toBe(1);
    await one.page.getByRole('button', { name: 'Away score plus one' }).click();
    await expect.poll(() => one.page.getByText(/Done.*Away score: 1/).count()).toBe(1);
    await expect.poll(() => two.page.getByLabel('Away score value').inputValue(), { timeout: 1000 }).toBe('1');
    await two.page.getByLabel('Away team', { exact: true }).fill('ARSENAL');
    await two.page.getByLabel('Away team', { exact: true }).press('Enter');
    await expect.poll(() => two.page.getByText(/Done.*Away team: ARSENAL/).count()).toBe(1);
    await expect
      .poll(() => one.page.getByLabel('Away team', { exact: true }).inputValue(), { timeout: 1000 })
      .toBe('ARSENAL');
  });

  it('shows a viewer no write controls, and the API refuses its writes anyway', async () => {
    server = await startTestServer();
    const owner = await setupOwner(server);
    const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');
    const { channelId } = await createChannelWithScoreboard(api(server.url, server.key));
    const { page } = await signedInPage(browser, server.url, viewer.email);
    await expect.poll(() => page.getByRole('button', { name: 'Create channel' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await page.goto(`${server.url}/#/channels/${channelId}/live`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    await expect.poll(() => page.getByText('view only').count()).toBe(1);
    for (const name of ['TAKE', 'Cue Score', 'Cut Score to air', 'Home score plus one', 'Start', 'Edit Score'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit Score' }).count()).toBe(0);
    await saveScreenshot(page, 'live-view-viewer');
    const refused = await page.evaluate(async (id) => {
      const res = await fetch(`/v1/channels/${id}/inputs`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scoreA: 9 }),
      });
      return { status: res.status, code: ((await res.json()) as { code: string }).code };
    }, channelId);
    expect(refused).toEqual({ status: 403, code: 'forbidden' });
    const overSocket = await page.evaluate(
      (id) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/v1/ws?channel=${id}`);
          ws.onopen = () => ws.send(JSON.stringify({ op: 'take', id: 'x' }));
          ws.onmessage = (e) => {
            const msg = JSON.parse(String(e.data)) as { type: string; code?: string };
            if (msg.type === 'error') resolve(msg.code ?? '');
          };
        }),
      channelId,
    );
    expect(overSocket).toBe('forbidden');
  });
});

describe('a lost server', () => {
  let child: ChildServer | null = null;
  afterEach(async () => {
    await child?.kill('SIGKILL');
    child = null;
  });

  // Three server starts (one in process, two spawned) and a browser: 60 s for a busy machine.
  it('shows the banner at once when the server is killed, and clears it with a resync when it is back', async () => {
    const dir = makeDataDir();
    const env = { ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info' };
    const first = await startServer(loadConfig(serverEnv(dir)));
    const owner = await setupOwner({ url: first.baseUrl, handle: first });
    await first.stop();
    const port = await freePort();
    const spawn = () => spawnServer({ ...env, ONAIR_PORT: String(port) });
    child = await spawn();
    const call = api(child.url, TEST_KEY);
    const { channelId } = await createChannelWithScoreboard(call);
    const { page } = await signedInPage(browser, child.url, owner.email);
    await page.goto(`${child.url}/#/channels/${channelId}/live`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);

    await child.kill('SIGKILL');
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Connection to the server lost' }).count())
      .toBe(1);
    await saveScreenshot(page, 'live-view-connection-lost');
    // A click while the line is down is not lost silently: it fails and says why.
    await page.getByRole('button', { name: 'Home score plus one' }).click();
    await expect.poll(() => page.getByText(/Failed.*Home score: 1.*connection to the server is down/).count()).toBe(1);

    child = await spawn();
    await expectStatus(await api(child.url, TEST_KEY)('PATCH', `/v1/channels/${channelId}/inputs`, { scoreB: 4 }), 200);
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Connection to the server lost' }).count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await expect.poll(() => page.getByLabel('Away score value').inputValue()).toBe('4');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    await child.kill('SIGKILL');
    child = null;
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
