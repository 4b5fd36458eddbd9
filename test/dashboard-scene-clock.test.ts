/**
 * A clock's stop in the scene editor, in headless Chromium against the real server (docs/dashboard.md): the
 * scoreboard's game clock turned to count up while it still stops at 0:00 would never start, so the error shows
 * at its "Stop at" field and Save stores nothing; with a stop it can run to, it saves.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { expectStatus, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { signedInPage } from './helpers/dashboard.js';
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
