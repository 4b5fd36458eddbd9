/**
 * A sheet on air (docs/data-sources.md, "CSV and Google Sheets"): a CSV data source whose whole table feeds the
 * built-in ticker's `items` list, drawn by the real output page in Chromium from a real server polling a real local
 * feed; an edit of the sheet reaches the crawl by the next poll.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { addSource, csv, liveFeed } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let browser: Browser;
let feed: FeedServer;

beforeAll(async () => {
  [server, browser, feed] = await Promise.all([
    startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' }),
    launchChromium(),
    startFeedServer(),
  ]);
  call = api(server.url, server.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await feed?.close();
});

it("draws a sheet's rows in the ticker's crawl, and the sheet's next version after it changes", async () => {
  // `Text` feeds the list's `text` column (ignoring case); `Desk`, which it does not declare, is not read.
  const sheet = liveFeed(csv('Text,Desk\r\nStorm warning for the coast,News\r\nRail strike called off,News\r\n'));
  feed.route('/ticker.csv', sheet.handler);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Ticker' }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: 'Ticker', template: 'ticker' }), 201);
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
  await addSource(call, channel.id, {
    type: 'csv_url',
    url: `${feed.origin}/ticker.csv`,
    intervalMs: 1_000,
    table: { input: 'items' },
  });

  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await page.goto(channel.outputUrl);
    const crawlText = () => page.evaluate(() => document.querySelector('[data-type="crawl"]')?.textContent ?? '');
    await expect.poll(crawlText, { timeout: 20_000, interval: 100 }).toContain('Storm warning for the coast');
    expect(await crawlText()).toContain('Rail strike called off');

    Object.assign(sheet.answer, csv('Text\r\nPolls close at eight\r\n'));
    await expect.poll(crawlText, { timeout: 20_000, interval: 100 }).toContain('Polls close at eight');
  } finally {
    await page.close();
  }
}, 60_000);
