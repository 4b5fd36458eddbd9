/**
 * The dashboard's outputs and as-run log (docs/dashboard.md, "Outputs" and "As-run") in real Chromium against the
 * real server: the live view's output chips for a real output page opened beside it, gone when it closes, with the
 * loss in the event feed and the alert line; amber and red chips, with the alert line, for an output that falls behind
 * and one whose image failed (output connections speaking the page's protocol); the as-run page listing a take and a clear with duration and actor,
 * filtered by time, and its CSV export holding the same lines.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, getState, tokenOf, type Api, type Channel, type Scene } from './helpers/api.js';
import { fromCsv, type AsRunPage } from './helpers/as-run.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

let browser: Browser;
let server: TestServer;
let call: Api;
let ownerEmail: string;
let channel: Channel;
let strap: Scene;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  server = await startTestServer();
  ownerEmail = (await setupOwner(server)).email;
  call = api(server.url, server.key);
  channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Show' }), 201);
  strap = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }), 201);
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
});

function path(rest: string): string {
  return `/v1/channels/${channel.id}/${rest}`;
}

async function openPage(route: string): Promise<Page> {
  const { page } = await signedInPage(browser, server.url, ownerEmail);
  await page.goto(`${server.url}/#/channels/${channel.id}/${route}`);
  return page;
}

const chips = (page: Page, bus: string, health: string) =>
  page.locator(`.output-chip[data-health="${health}"]`).filter({ hasText: ` ${bus} ` });

it('shows each output as a chip beside the program monitor; a closed output is gone, in the feed and the alert line', async () => {
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Ada' } }), 200);
  const page = await openPage('live');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  // The live view's own monitors are not outputs: with the scene on program, nothing draws it yet.
  await expect.poll(() => page.getByText('No output connected').count(), { timeout: 20_000 }).toBe(1);
  expect(await page.locator('.output-chip').count()).toBe(0);

  const output = await page.context().newPage();
  await output.goto(channel.outputUrl);
  await expect.poll(() => chips(page, 'program', 'ok').count(), { timeout: 20_000 }).toBe(1);
  expect(await page.getByText('No output connected').count()).toBe(0);
  const chip = chips(page, 'program', 'ok').first();
  await expect.poll(() => chip.textContent()).toMatch(/browser · program · OK/);
  await chip.locator('summary').click();
  await expect.poll(() => chip.locator('.output-details').textContent()).toMatch(/Address.*Painted frame.*\d+ fps/);
  await chip.locator('summary').click();
  expect(await accessibilityViolations(page)).toEqual([]);
  await saveScreenshot(page, 'live-outputs');

  await output.close();
  await expect.poll(() => chips(page, 'program', 'ok').count(), { timeout: 20_000 }).toBe(0);
  await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toMatch(/Output lost: browser/);
  // The feed reads GET /v1/events every 2 s.
  await expect
    .poll(() => page.locator('.event-feed li[data-type="output.lost"]').first().textContent(), { timeout: 20_000 })
    .toMatch(/Output lost: browser \(program\) at \S+.*by onair itself/);
});

it('shows an output that falls behind in amber and one whose image failed in red, each in the alert line', async () => {
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Ada' } }), 200);
  const page = await openPage('live');
  await expect.poll(() => page.getByText('No output connected').count(), { timeout: 20_000 }).toBe(1);
  // Two output connections that say what they painted, as the output page does.
  const token = tokenOf(channel.outputUrl);
  const [slow, broken] = await Promise.all([0, 1].map(() => RenderClient.connect(server.url, channel.id, { token })));
  const onAir = await getState(call, channel.id);
  const report = (frame: number, extra: object = {}) => ({
    op: 'painted',
    frame,
    layers: onAir.program.map((e) => ({ layer: e.layer, sceneId: e.sceneId, itemId: e.itemId, inDone: true })),
    fps: 50,
    width: 1920,
    height: 1080,
    kind: 'vmix',
    bus: 'program',
    ...extra,
  });
  slow!.send(report(onAir.frame));
  broken!.send(report(onAir.frame, { kind: 'casparcg' }));
  await expect.poll(() => chips(page, 'program', 'ok').count(), { timeout: 20_000 }).toBe(2);

  // A new value goes out; the vMix page keeps reporting the old frame: it falls behind.
  expectStatus(await call('PATCH', path('inputs'), { name: 'Grace' }), 200);
  const behind = chips(page, 'program', 'lagging');
  const reportOld = setInterval(() => slow!.send(report(onAir.frame)), 600);
  try {
    await expect.poll(() => behind.count(), { timeout: 20_000 }).toBe(1);
  } finally {
    clearInterval(reportOld);
  }
  await expect.poll(() => behind.first().textContent()).toMatch(/vMix · program · lagging · \d+ f behind/);
  await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toMatch(/Output lagging: vMix/);

  // The CasparCG page could not load an image on air.
  const url = `${server.url}/assets/${'0'.repeat(64)}.png`;
  broken!.send(report(onAir.frame, { kind: 'casparcg', errors: [{ message: 'image failed to load', url }] }));
  const failing = chips(page, 'program', 'error');
  await expect.poll(() => failing.count(), { timeout: 20_000 }).toBe(1);
  await failing.first().locator('summary').click();
  await expect.poll(() => failing.first().locator('.output-details').textContent()).toContain(`${url}: image failed`);
  await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toMatch(/Output error: CasparCG/);
  expect(await accessibilityViolations(page)).toEqual([]);
  slow!.close();
  broken!.close();
});

/** A `datetime-local` value for `iso` in the page's own time zone, to the second. */
function localInput(page: Page, iso: string): Promise<string> {
  return page.evaluate((t) => {
    const d = new Date(t);
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
    return `${date}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, iso);
}

it('lists takes and clears with duration and actor, filters by time, and exports the same lines as CSV', async () => {
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Ada' } }), 200);
  await new Promise((r) => setTimeout(r, 1200)); // an interval of a second or so, to read as 0:01
  expectStatus(await call('POST', path('clear')), 200);
  // The range's start: the next whole second after A ended, and B taken after it.
  const from = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
  await new Promise((r) => setTimeout(r, from.getTime() - Date.now() + 50));
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Grace' } }), 200);
  expectStatus(await call('POST', path('clear')), 200);
  const all = expectStatus(await call<AsRunPage>('GET', path('as-run')), 200).data;
  expect(all).toHaveLength(2);
  const [a, b] = all;

  const page = await openPage('live');
  await page.getByRole('link', { name: 'As-run', exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Show: as-run log' }).count()).toBe(1);
  const rows = page.locator('.as-run-table tbody tr');
  await expect.poll(() => rows.count()).toBe(2);
  const first = rows.first();
  expect(await first.getAttribute('data-id')).toBe(a!.id);
  const cells = await first.locator('td').allTextContents();
  expect(cells[1]).toBe('Strap');
  expect(cells[5]).toBe(`0:${String(Math.round(a!.durationMs! / 1000)).padStart(2, '0')}`);
  expect(cells[5]).toMatch(/^0:0[12]$/);
  expect(cells[6]).toBe(a!.takenBy.name);
  expect(cells[7]).toBe(a!.clearedBy!.name);
  expect(await accessibilityViolations(page)).toEqual([]);
  await saveScreenshot(page, 'as-run');

  await page.getByLabel('From').fill(await localInput(page, from.toISOString()));
  await page.getByRole('button', { name: 'Show' }).click();
  await expect.poll(() => rows.count()).toBe(1);
  expect(await rows.first().getAttribute('data-id')).toBe(b!.id);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fromCsv(fs.readFileSync(await (await download).path(), 'utf8'));
  const ranged = expectStatus(await call<AsRunPage>('GET', path(`as-run?from=${from.toISOString()}`)), 200).data;
  expect(csv).toEqual(ranged);
  expect(csv.map((l) => l.id)).toEqual([b!.id]);
});
