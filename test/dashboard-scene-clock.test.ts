/**
 * A clock's stop in the scene editor, in headless Chromium against the real server (docs/dashboard.md): the
 * scoreboard's game clock turned to count up while it still stops at 0:00 would never start, so the error shows
 * at its "Stop at" field and Save stores nothing; with a stop it can run to, it saves.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { expectStatus, type Channel, type List, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  owner = await setupOwner(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

type Inputs = { inputs: Record<string, unknown>[] };

const gameClock = async (channelId: string, sceneId: string) => {
  const scene = expectStatus(await owner.call<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200);
  return (scene.definition as Inputs).inputs.find((i) => i.name === 'gameClock');
};

// A save refused, then two edits and a save: 60 s for a busy machine.
it('refuses a count-up clock stopping at 0:00 at its Stop at field, and saves it with a stop it can reach', async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Arena' }), 201);
  const body = { name: 'Score', template: 'scoreboard' };
  const scene = expectStatus(await owner.call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, body), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes/${scene.id}`);
  await expect.poll(() => page.getByRole('heading', { name: 'Scene: Score' }).count(), { timeout: 20_000 }).toBe(1);

  const card = page.getByRole('group', { name: /· gameClock$/ });
  const stopAt = card.getByLabel('Stop at (m:ss or none)');
  expect(await stopAt.inputValue()).toBe('0:00');
  await card.getByLabel('Direction').selectOption('up');
  const path = (await card.getAttribute('id'))!.replace(/^f-definition-inputs-/, '');
  await expect
    .poll(() => card.locator('[data-path$=".stopAt"] .field-error').allTextContents(), { timeout: 20_000 })
    .toEqual([expect.stringMatching(/counting up from 12:00 never runs to a stop at 0:00/)]);
  await expect.poll(() => stopAt.getAttribute('aria-invalid')).toBe('true');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => page.getByRole('list', { name: 'All problems' }).textContent(), { timeout: 20_000 })
    .toContain(`definition.inputs.${path}.stopAt`);
  expect(await gameClock(channel.id, scene.id)).toMatchObject({ direction: 'down', stopAt: 0 });

  // "none": a clock that never stops is valid.
  await stopAt.fill('none');
  await expect.poll(() => card.locator('.field-error').count(), { timeout: 20_000 }).toBe(0);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count()).toBe(1);
  // 45:00 is valid too, and is what is saved.
  await stopAt.fill('45:00');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count(), { timeout: 20_000 }).toBe(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => gameClock(channel.id, scene.id), { timeout: 20_000 })
    .toMatchObject({ direction: 'up', stopAt: 2_700_000 });
  expect(await stopAt.inputValue()).toBe('45:00');
}, 60_000);

type Period = { name: string; startAt?: number; stopAt?: number | null };
const savedClock = async (channelId: string) => {
  const scenes = expectStatus(await owner.call<List<Scene>>('GET', `/v1/channels/${channelId}/scenes`), 200).data;
  return (scenes[0]?.definition as Inputs | undefined)?.inputs[0];
};

// A scene built in the form, saved, then a refused edit: 90 s for a busy machine.
it('builds a football clock with two halves in the form, saves it, and shows a period that cannot run at its stop', async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Pitch' }), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByLabel('Scene name').fill('Match clock');
  await page.getByRole('button', { name: 'Open in the editor' }).click();
  await page.getByRole('button', { name: 'Add input' }).click();
  const card = page.getByRole('group', { name: /^Input 1/ });
  await card.getByLabel('Name', { exact: true }).fill('matchClock');
  await card.getByLabel('Type').selectOption('clock');
  await card.getByLabel('Default (m:ss)').fill('0:00');

  // Periods replace Stop at: the field goes once the first is added.
  expect(await card.getByLabel('Stop at (m:ss or none)').count()).toBe(1);
  const period = (n: number) => card.getByRole('group', { name: new RegExp(`^Period ${n}`) });
  const fillPeriod = async (n: number, name: string, start: string, stop: string) => {
    await card.getByRole('button', { name: 'Add period' }).click();
    await period(n).getByLabel('Name').fill(name);
    await period(n).getByLabel('Starts at (m:ss)').fill(start);
    await period(n).getByLabel('Stops at (m:ss or none)').fill(stop);
  };
  await fillPeriod(1, '1st half', '0:00', '45:00');
  expect(await card.getByLabel('Stop at (m:ss or none)').count()).toBe(0);
  await fillPeriod(2, '2nd half', '45:00', '90:00');
  // Reordered and removed: a third period moved above the 2nd half, then taken away.
  await card.getByRole('button', { name: 'Add period' }).click();
  await period(3).getByLabel('Name').fill('Extra time');
  await card.getByRole('button', { name: 'Up (Period 3)' }).click();
  await expect.poll(() => period(2).getAttribute('id')).toBe('f-definition-inputs-0-periods-1');
  expect(await period(2).locator('legend').first().textContent()).toBe('Period 2 · Extra time');
  await expect.poll(() => period(3).getByLabel('Stops at (m:ss or none)').inputValue()).toBe('90:00');
  await card.getByRole('button', { name: 'Remove Period 2' }).click();
  expect(await period(2).locator('legend').first().textContent()).toBe('Period 2 · 2nd half');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count(), { timeout: 20_000 }).toBe(1);
  await saveScreenshot(page, 'scene-editor-periods');
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Create scene' }).click();
  await expect.poll(() => savedClock(channel.id), { timeout: 20_000 }).toBeDefined();
  const saved = await savedClock(channel.id);
  expect(saved).toMatchObject({ name: 'matchClock', type: 'clock' });
  expect(saved!.stopAt).toBeUndefined();
  expect(saved!.periods as Period[]).toEqual([
    { name: '1st half', startAt: 0, stopAt: 2_700_000 },
    { name: '2nd half', startAt: 2_700_000, stopAt: 5_400_000 },
  ]);

  // The saved scene opens in the editor; a 2nd half stopping before it starts is refused at its Stops at.
  await expect
    .poll(() => page.getByRole('heading', { name: 'Scene: Match clock' }).count(), { timeout: 20_000 })
    .toBe(1);
  const stop = period(2).getByLabel('Stops at (m:ss or none)');
  await expect.poll(() => stop.inputValue()).toBe('90:00');
  await stop.fill('30:00');
  await expect
    .poll(() => period(2).locator('[data-path$=".periods.1.stopAt"] .field-error').allTextContents(), {
      timeout: 20_000,
    })
    .toEqual([expect.stringMatching(/2nd half: a clock counting up from 45:00 never runs to a stop at 30:00/)]);
  expect(await stop.getAttribute('aria-invalid')).toBe('true');
  expect(await period(1).locator('.field-error').count()).toBe(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => page.getByRole('list', { name: 'All problems' }).textContent(), { timeout: 20_000 })
    .toContain('definition.inputs.0.periods.1.stopAt');
  expect(((await savedClock(channel.id))!.periods as Period[])[1]).toMatchObject({ stopAt: 5_400_000 });
}, 90_000);
