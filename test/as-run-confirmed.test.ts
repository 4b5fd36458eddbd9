/**
 * The as-run log's confirmations from a real output page (docs/as-run.md, "Confirmations"): Chromium draws the
 * channel's outputUrl; take A, update, take B, clear through the API; each line names the output the outputs list
 * shows as having confirmed painting it, at a time inside the line (or within a report of its end).
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

interface Line {
  sceneId: string;
  values: Record<string, unknown>;
  startAt: string;
  endAt: string | null;
  confirmedAt: string | null;
  confirmedBy: string[];
}

/** How late a page may report a frame it painted (docs/outputs.md: at once on a change, at most twice a second). */
const REPORT_SLACK_MS = 1_000;

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

it('take A, update, take B, clear with an output page open: both lines confirmed by that output', async () => {
  server = await startTestServer();
  const call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Confirmed' }), 201);
  const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
  const strap = expectStatus(
    await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }),
    201,
  );
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  await page.goto(channel.outputUrl);
  const outputs = async () =>
    expectStatus(await call<{ data: { id: string; layers: unknown[] }[] }>('GET', path('outputs')), 200).data;
  await expect.poll(async () => (await outputs()).length, { timeout: 20_000 }).toBe(1);
  const [output] = await outputs();

  const lines = async () => expectStatus(await call<{ data: Line[] }>('GET', path('as-run')), 200).data;
  /** Waits until the last line is confirmed: a step is only taken once the page has painted the one before. */
  const confirmed = async (count: number) =>
    expect
      .poll(async () => (await lines()).filter((l) => l.confirmedBy.length > 0).length, { timeout: 20_000 })
      .toBe(count);

  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Ada', title: 'Host' } }), 200);
  await confirmed(1);
  expectStatus(await call('POST', path('update'), { values: { title: 'Analyst' } }), 200);
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Grace' } }), 200);
  await confirmed(2);
  expectStatus(await call('POST', path('clear')), 200);
  await expect.poll(async () => (await lines()).every((l) => l.endAt !== null)).toBe(true);

  const [a, b] = await lines();
  expect(a!.values).toMatchObject({ name: 'Ada', title: 'Host' });
  expect(b!.values).toMatchObject({ name: 'Grace' });
  for (const line of [a!, b!]) {
    expect(line.confirmedBy).toEqual([output!.id]);
    const at = Date.parse(line.confirmedAt!);
    expect(at).toBeGreaterThanOrEqual(Date.parse(line.startAt));
    expect(at).toBeLessThanOrEqual(Date.parse(line.endAt!) + REPORT_SLACK_MS);
  }
}, 60_000);
