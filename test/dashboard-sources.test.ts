/**
 * Data sources in the dashboard, in headless Chromium against the real server polling a real local feed on
 * 127.0.0.1 (allowed by ONAIR_WEBHOOK_ALLOW_PRIVATE, as for webhooks) (docs/dashboard.md, "Data sources"): an
 * operator adds a JSON source through the form, tests it first (the values it would set, the fields that map to
 * nothing, changing nothing), saves it and sees it OK with its last fetch and its value on air; a refused URL and an
 * interval out of range are said at their fields; pause, resume, refresh now, the fetch log, delete. A CSV source by
 * cursor is stepped with Next, Previous and First in the live view, each move changing what is on air, at 1280×720
 * with no page scroll. An operator sees Refresh now and the row buttons but not the owner's controls; a viewer sees
 * the sources and their rows, no button. axe-core checks each page.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { addMember, setupOwner, type Member } from './helpers/access-fixtures.js';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type List,
  type ScoreboardChannel,
} from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveElementScreenshot, saveScreenshot, signedInPage } from './helpers/dashboard.js';
import { addSource, csv, json, liveFeed, sourcesPath, type Source } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;
let feed: FeedServer;
let owner: Member;
let call: Api;
let ch: ScoreboardChannel;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  // One source per channel: each test needs no more, and the first shows the limit's refusal.
  server = await startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1', ONAIR_LIMIT_SOURCES_PER_CHANNEL: '1' });
  owner = await setupOwner(server);
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
  feed = await startFeedServer();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
  await feed?.close();
});

const WAIT = { timeout: 20_000, interval: 100 };
const RESULTS = [
  'Game, Home Team ,Home Score,Away Team,Away Score',
  'Semi 1,Lions,3,Tigers,1',
  'Semi 2,"Bears, North",0,Wolves,2',
  'Final,Lions,2,Wolves,2',
].join('\r\n');

const inputs = async () => (await getState(call, ch.channelId)).inputs;
const sources = async () => expectStatus(await call<List<Source>>('GET', sourcesPath(ch.channelId)), 200).data;

async function open(email: string, view: 'settings' | 'live'): Promise<Page> {
  const { page } = await signedInPage(browser, server.url, email);
  // Sooner than the test's own timeout, so that a missing element is named; a busy machine may take seconds.
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/#/channels/${ch.channelId}/${view}`);
  return page;
}

/** The text of what a field names as its description: its hint and its errors, shown beside it. */
async function describedBy(page: Page, field: Locator): Promise<string> {
  const ids = await field.getAttribute('aria-describedby');
  if (!ids) return '';
  const texts = await Promise.all(ids.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

it('adds a JSON source tested first; it is OK with its value on air; pause, resume, refresh, log, delete', async () => {
  const game = liveFeed(json({ home: { score: 3 }, away: { score: 1 }, venue: 'Arena' }, { etag: '"v1"' }));
  feed.route('/game.json', game.handler);
  const page = await open(owner.email, 'settings');
  const form = page.getByRole('form', { name: 'New source' });
  const url = form.getByLabel('URL', { exact: true });

  // Refusals are said at the fields they name, and nothing is saved.
  await url.fill('https://docs.google.com/spreadsheets/d/abc123/edit#gid=0');
  await form.getByRole('button', { name: 'Add source' }).click();
  await expect.poll(() => describedBy(page, url), WAIT).toContain('a Google Sheet is read as CSV');
  expect(await url.getAttribute('aria-invalid')).toBe('true');
  await form.getByRole('radio', { name: /^CSV URL/ }).check();
  await url.fill('https://docs.google.com/spreadsheets/d/e/2PACX-abc/pub?gid=0&single=true&output=csv');
  const interval = form.getByLabel('Fetch every (seconds)');
  expect(await describedBy(page, interval)).toContain('at least 30 s');
  await interval.fill('5');
  await form.getByRole('button', { name: 'Add source' }).click();
  await expect.poll(() => describedBy(page, interval), WAIT).toContain('must be from 30000');
  expect(await sources()).toEqual([]);

  // A JSON feed, tested before it is saved: what it would set, and what maps to nothing; nothing changes on air.
  await form.getByRole('radio', { name: /^JSON URL/ }).check();
  await url.fill(`${feed.origin}/game.json`);
  await form.getByLabel('Source name (optional)').fill('League feed');
  await interval.fill('60');
  expect(await describedBy(page, interval)).toContain('at least 1 s');
  await form.getByRole('button', { name: 'Add a field' }).click();
  await form.getByLabel('JSON field 1', { exact: true }).fill('home.score');
  await form.getByLabel('Input for field 1').selectOption('scoreA');
  await form.getByRole('button', { name: 'Add a field' }).click();
  await form.getByLabel('JSON field 2', { exact: true }).fill('away.score');
  await form.getByLabel('Input for field 2').selectOption('scoreB');
  await form.getByRole('button', { name: 'Test', exact: true }).click();
  const result = form.getByRole('region', { name: 'Test result' });
  await expect.poll(() => result.textContent(), WAIT).toContain('HTTP 200');
  const values = result.getByRole('table', { name: 'Values it would set' }).locator('tbody tr');
  expect(await values.allTextContents()).toEqual(['scoreA3', 'scoreB1']);
  expect(await result.textContent()).toContain('Map to nothing: venue');
  await saveElementScreenshot(form, 'data-source-test');
  expect(await sources()).toEqual([]);
  expect(await inputs()).toMatchObject({ scoreA: 0, scoreB: 0 });

  // Saved: fetched at once, OK, its values on air.
  await form.getByRole('button', { name: 'Add source' }).click();
  const card = page.getByRole('group', { name: 'Source League feed' });
  const state = card.locator('[data-state]');
  await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('ok');
  expect(await state.textContent()).toBe('OK');
  await expect.poll(inputs, WAIT).toMatchObject({ scoreA: 3, scoreB: 1 });
  await expect.poll(() => card.textContent(), WAIT).not.toMatch(/Last fetch\s*never/);
  expect(await card.textContent()).toContain('every 1 min');
  expect(await card.textContent()).toContain('ETag"v1"');
  await saveScreenshot(page, 'channel-sources');
  expect(await accessibilityViolations(page)).toEqual([]);

  // A second source is over the channel's limit: said under the form, nothing added.
  await url.fill(`${feed.origin}/game.json`);
  await form.getByRole('button', { name: 'Add source' }).click();
  await expect.poll(() => form.getByRole('alert').textContent(), WAIT).toContain('ONAIR_LIMIT_SOURCES_PER_CHANNEL');
  expect(await sources()).toHaveLength(1);

  // Edited with the same form: only what changed is sent.
  await card.getByRole('button', { name: 'Edit League feed' }).click();
  const edit = card.getByRole('form', { name: 'Edit League feed' });
  expect(await edit.getByLabel('JSON field 2', { exact: true }).inputValue()).toBe('away.score');
  await edit.getByLabel('Fetch every (seconds)').fill('30');
  await edit.getByRole('button', { name: 'Save source' }).click();
  await expect.poll(() => card.textContent(), WAIT).toContain('every 30 s');
  expect((await sources())[0]).toMatchObject({ intervalMs: 30_000, mapping: { 'home.score': 'scoreA' } });

  // Refresh now fetches at once (the interval is half a minute).
  game.answer.body = JSON.stringify({ home: { score: 4 }, away: { score: 1 } });
  await card.getByRole('button', { name: 'Refresh now' }).click();
  await expect.poll(inputs, WAIT).toMatchObject({ scoreA: 4 });

  // A failing feed: the source says why, the graphic keeps its values.
  game.answer.status = 500;
  await card.getByRole('button', { name: 'Refresh now' }).click();
  await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('failing');
  expect(await card.textContent()).toMatch(/Last error\s*HTTP 500/);
  expect(await inputs()).toMatchObject({ scoreA: 4 });
  game.answer.status = 200;

  // Pause: paused, no refresh; resume: fetched again, OK.
  await card.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('paused');
  expect(await card.getByRole('button', { name: 'Refresh now' }).isDisabled()).toBe(true);
  expect((await sources())[0]!.paused).toBe(true);
  const fetchesBefore = game.seen.length;
  await card.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('ok');
  await expect.poll(() => game.seen.length, WAIT).toBeGreaterThan(fetchesBefore);

  // The fetch log: newest first, each fetch's status and whether it changed anything.
  await card.getByText('Recent fetches').click();
  const log = card.getByRole('table', { name: 'Recent fetches of League feed' }).locator('tbody tr');
  await expect.poll(() => log.count(), WAIT).toBeGreaterThanOrEqual(4);
  const oldest = (await log.allTextContents()).at(-1)!;
  expect(oldest).toMatch(/200.*yes/);
  expect(await log.allTextContents()).toContainEqual(expect.stringMatching(/500.*noHTTP 500/));
  await saveElementScreenshot(card, 'data-source-card');
  expect(await accessibilityViolations(page)).toEqual([]);

  // Delete asks first.
  await card.getByRole('button', { name: 'Delete League feed' }).click();
  await card.getByRole('button', { name: 'Delete source' }).click();
  await expect.poll(() => card.count(), WAIT).toBe(0);
  expect(await sources()).toEqual([]);
});

it('steps a CSV source by cursor with Next, Previous and First in the live view, each row on air', async () => {
  feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
  const settings = await open(owner.email, 'settings');
  const form = settings.getByRole('form', { name: 'New source' });
  await form.getByRole('radio', { name: /^CSV URL/ }).check();
  await form.getByLabel('URL', { exact: true }).fill(`${feed.origin}/results.csv`);
  await form.getByLabel('Source name (optional)').fill('Results');
  await form.getByLabel('Fetch every (seconds)').fill('3600');
  for (const [n, column, input] of [
    [1, 'Home_Team', 'home'],
    [2, 'Home_Score', 'scoreA'],
  ] as const) {
    await form.getByRole('button', { name: 'Add a field' }).click();
    await form.getByLabel(`CSV column ${n}`, { exact: true }).fill(column);
    await form.getByLabel(`Input for field ${n}`).selectOption(input);
  }
  await form.getByRole('radio', { name: /^By cursor/ }).check();
  await form.getByRole('button', { name: 'Add source' }).click();
  await expect.poll(inputs, WAIT).toMatchObject({ home: 'Lions', scoreA: 3 });
  const [source] = await sources();
  expect(source).toMatchObject({ type: 'csv_url', row: { by: 'cursor' }, intervalMs: 3_600_000 });

  const page = await open(owner.email, 'live');
  const rows = page.getByRole('group', { name: 'Rows of Results' });
  const at = rows.locator('[data-row]');
  await expect.poll(() => at.textContent(), WAIT).toBe('row 1');
  expect(await rows.getByRole('button', { name: '‹ Previous' }).isDisabled()).toBe(true);
  const step = async (button: string, row: number, onAir: Record<string, unknown>) => {
    await rows.getByRole('button', { name: button }).click();
    await expect.poll(() => at.textContent(), WAIT).toBe(`row ${row}`);
    await expect.poll(inputs, WAIT).toMatchObject(onAir);
  };
  await step('Next ›', 2, { home: 'Bears, North', scoreA: 0 });
  await step('Next ›', 3, { home: 'Lions', scoreA: 2 });
  await step('‹ Previous', 2, { home: 'Bears, North', scoreA: 0 });
  await saveScreenshot(page, 'live-source-rows');
  await step('First', 1, { home: 'Lions', scoreA: 3 });
  const actions = page.getByRole('list', { name: 'Your actions, newest first' });
  await expect.poll(() => actions.textContent(), WAIT).toContain('Done First row of Results');

  // The live view still fits a laptop's screen, the row control in it.
  const fits = await page.evaluate(() => ({
    scrollHeight: document.scrollingElement!.scrollHeight,
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerHeight,
    innerWidth,
  }));
  expect(fits.scrollHeight).toBeLessThanOrEqual(fits.innerHeight);
  expect(fits.scrollWidth).toBeLessThanOrEqual(fits.innerWidth);
  const box = (await rows.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  expect(box.y + box.height).toBeLessThanOrEqual(720);
  expect(await accessibilityViolations(page)).toEqual([]);
});

it('shows an operator refresh and the row buttons only, and a viewer no button', async () => {
  feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
  await addSource(call, ch.channelId, {
    type: 'csv_url',
    url: `${feed.origin}/results.csv`,
    name: 'Results',
    intervalMs: 3_600_000,
    row: { by: 'cursor' },
    mapping: { Home_Team: 'home' },
  });
  await expect.poll(inputs, WAIT).toMatchObject({ home: 'Lions' });
  const operator = await addMember(server.url, owner.call, 'op@example.com', 'operator');
  const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');

  const opSettings = await open(operator.email, 'settings');
  const card = opSettings.getByRole('group', { name: 'Source Results' });
  await expect.poll(() => card.locator('[data-state]').getAttribute('data-state'), WAIT).toBe('ok');
  expect(await card.getByRole('button', { name: 'Refresh now' }).count()).toBe(1);
  for (const name of ['Pause', 'Edit Results', 'Delete Results']) {
    expect(await card.getByRole('button', { name }).count(), name).toBe(0);
  }
  expect(await opSettings.getByRole('form', { name: 'New source' }).count()).toBe(0);
  const opLive = await open(operator.email, 'live');
  const opRows = opLive.getByRole('group', { name: 'Rows of Results' });
  await opRows.getByRole('button', { name: 'Next ›' }).click();
  await expect.poll(inputs, WAIT).toMatchObject({ home: 'Bears, North' });

  const viewSettings = await open(viewer.email, 'settings');
  const seen = viewSettings.getByRole('group', { name: 'Source Results' });
  await expect.poll(() => seen.locator('[data-state]').getAttribute('data-state'), WAIT).toBe('ok');
  expect(await seen.getByRole('button').count()).toBe(0);
  const viewLive = await open(viewer.email, 'live');
  const viewRows = viewLive.getByRole('group', { name: 'Rows of Results' });
  await expect.poll(() => viewRows.locator('[data-row]').textContent(), WAIT).toBe('row 2');
  expect(await viewRows.getByRole('button').count()).toBe(0);
  expect(await accessibilityViolations(viewLive)).toEqual([]);
});
