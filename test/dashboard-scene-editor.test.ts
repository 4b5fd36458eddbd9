/**
 * The scene editor in headless Chromium against the real server (docs/dashboard.md): a scene started from the
 * scoreboard template, edited in the form and drawn by the sketch preview (the real output page, fed by
 * postMessage, no socket); an error shown at the element it names; nothing stored or on air until Save; Save
 * creates it. A viewer sees the definition read-only. The cards of text that fits and of a crawl show their fields.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { addMember, setupOwner } from './helpers/access-fixtures.js';
import { expectStatus, type Api, type Channel, type List, type Scene, type State } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage, signIn } from './helpers/dashboard.js';
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
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
});

/** The output page's test handle (renderer/src/main.ts); test/helpers/browser-globals.d.ts types only part of it. */
interface OnairHandle {
  drawn(): { layer: number; sceneId: string | null }[];
}

/** What each layer of the preview's output page draws. */
function drawnLayers(frame: Frame): Promise<{ layer: number; sceneId: string | null }[]> {
  return frame.evaluate(() => (window.__onair as unknown as OnairHandle | undefined)?.drawn() ?? []);
}

/** The preview's output page, once it draws a scene. */
async function preview(page: Page): Promise<Frame> {
  const handle = await page.getByTitle('Scene preview').elementHandle();
  const frame = await handle.contentFrame();
  await expect.poll(async () => (await drawnLayers(frame!)).some((d) => d.sceneId !== null)).toBe(true);
  return frame!;
}

/** Text the preview draws for the element named `name`. */
function drawn(frame: Frame, name: string): Promise<string> {
  return frame.evaluate((n) => document.querySelector(`[data-name="${n}"]`)?.textContent ?? '', name);
}

const scenesOf = async (call: Api, channelId: string) =>
  expectStatus(await call<List<Scene>>('GET', `/v1/channels/${channelId}/scenes`), 200).data;

// The editor's whole round (dry runs drawn, a save, a delete): 60 s for a busy machine.
it('starts from the scoreboard template, previews edits, shows an error at its element, and saves', async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Studio' }), 201);
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, owner.email);
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));

  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByRole('radio', { name: /Scoreboard/ }).check();
  await page.getByLabel('Scene name').fill('Match bug');
  await page.getByRole('button', { name: 'Open in the editor' }).click();

  // The template is drawn by the output page in sketch mode, on its layer, as a scene that does not exist.
  const frame = await preview(page);
  await expect.poll(() => drawnLayers(frame)).toEqual([{ layer: 10, sceneId: 'sc_dryrun' }]);
  await expect.poll(() => drawn(frame, 'homeName')).toMatch(/^home$/i);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count()).toBe(1);

  // Element 3 is the home team's name: its text, then its colour, changed in the form reach the preview.
  const homeName = page.getByRole('group', { name: /^Element 3/ });
  await homeName.getByLabel('Text').fill('Go {home}');
  await expect.poll(() => drawn(frame, 'homeName')).toMatch(/^go home$/i);
  await homeName.getByLabel('Colour', { exact: true }).fill('#ff0000');
  await expect
    .poll(() =>
      frame.evaluate(() => {
        const el = document.querySelector('[data-name="homeName"]');
        return el ? getComputedStyle(el.querySelector('*') ?? el).color : '';
      }),
    )
    .toBe('rgb(255, 0, 0)');

  // An error: the message appears in element 3's card, under its field, and in the list at the top.
  await homeName.getByLabel('Font size').fill('-5');
  await expect.poll(() => homeName.locator('.field-error').allTextContents()).toEqual([expect.stringMatching(/>=1/)]);
  await expect
    .poll(() => page.getByRole('list', { name: 'All problems' }).textContent())
    .toContain('definition.elements.2.fontSize');
  await expect.poll(() => homeName.getByLabel('Font size').getAttribute('aria-invalid')).toBe('true');
  // The preview keeps the last valid version.
  expect(await drawn(frame, 'homeName')).toMatch(/^go home$/i);
  // Choosing it in the list shows its field.
  await page.getByRole('button', { name: 'definition.elements.2.fontSize' }).click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('f-definition-elements-2-fontSize');
  // The JSON view lists it too, and says plainly when what is typed there is not JSON.
  await page.getByRole('button', { name: 'JSON' }).click();
  await expect
    .poll(() => page.getByRole('list', { name: 'Problems in the definition' }).textContent())
    .toContain('definition.elements.2.fontSize');
  const json = page.getByRole('textbox', { name: 'Definition (JSON)' });
  const text = await json.inputValue();
  expect(JSON.parse(text)).toMatchObject({ layer: 10, elements: { 2: { fontSize: -5, text: 'Go {home}' } } });
  await json.fill(text.slice(0, -1));
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not valid JSON' }).count()).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: 'Create scene' }).isDisabled()).toBe(true);
  await json.fill(text);
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not valid JSON' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Form' }).click();
  await homeName.getByLabel('Font size').fill('40');
  await expect.poll(() => homeName.locator('.field-error').count()).toBe(0);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count()).toBe(1);

  // An input's scope: the home team's name made an item input (each graphic cued carries its own).
  const homeInput = page.getByRole('group', { name: /^Input 1/ });
  await homeInput.getByLabel('Scope').selectOption('item');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count()).toBe(1);

  // Until Save, the dry runs stored nothing and put nothing on air; the preview opened no socket.
  expect(await scenesOf(owner.call, channel.id)).toEqual([]);
  const state = expectStatus(await owner.call<State>('GET', `/v1/channels/${channel.id}/state`), 200);
  expect(state.program).toEqual([]);
  expect(sockets).toEqual([]);
  await saveScreenshot(page, 'scene-editor');

  await page.getByRole('button', { name: 'Create scene' }).click();
  await expect.poll(() => page.url()).toMatch(/#\/channels\/[^/]+\/scenes\/sc_[0-9a-f]+$/);
  const [saved] = await scenesOf(owner.call, channel.id);
  expect(saved).toMatchObject({ name: 'Match bug', layer: 10 });
  const element = (saved!.definition as { elements: Record<string, unknown>[] }).elements[2];
  expect(element).toMatchObject({ name: 'homeName', text: 'Go {home}', color: '#ff0000', fontSize: 40 });
  expect((saved!.definition as { inputs: Record<string, unknown>[] }).inputs[0]).toMatchObject({
    name: 'home',
    scope: 'item',
  });
  // The saved scene opens in the editor, drawn under its own id.
  await expect.poll(() => page.getByRole('heading', { name: 'Scene: Match bug' }).count()).toBe(1);
  // The same preview may still draw the dry run for a moment: wait for the saved scene's id.
  const again = await preview(page);
  await expect.poll(() => drawnLayers(again)).toEqual([{ layer: 10, sceneId: saved!.id }]);
  expect(await accessibilityViolations(page)).toEqual([]);

  // Deleting a scene on air is refused with the server's reason; once it is cleared, it goes.
  expectStatus(await owner.call('POST', `/v1/channels/${channel.id}/program`, { sceneId: saved!.id }), 200);
  await page.getByRole('button', { name: 'Delete scene…' }).click();
  await page.getByRole('button', { name: 'Delete scene', exact: true }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/on program on layer 10/);
  expect(await scenesOf(owner.call, channel.id)).toHaveLength(1);
  expectStatus(await owner.call('POST', `/v1/channels/${channel.id}/clear`, {}), 200);
  await page.getByRole('button', { name: 'Delete scene…' }).click();
  await page.getByRole('button', { name: 'Delete scene', exact: true }).click();
  await expect.poll(() => page.url()).toMatch(/#\/channels\/[^/]+\/live$/);
  expect(await scenesOf(owner.call, channel.id)).toEqual([]);
}, 60_000);

it('shows a viewer the definition read-only, with no editor controls', async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Annex' }), 201);
  const scene = expectStatus(
    await owner.call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Lower', template: 'lower-third' }),
    201,
  );
  const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');
  const { page } = await signedInPage(browser, server.url, viewer.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes/${scene.id}`);
  await expect.poll(() => page.getByRole('heading', { name: 'Scene: Lower' }).count()).toBe(1);
  const frame = await preview(page);
  await expect.poll(() => drawnLayers(frame)).toEqual([{ layer: 20, sceneId: scene.id }]);
  const json = page.getByRole('textbox', { name: 'Definition (JSON)' });
  expect(await json.getAttribute('readonly')).not.toBeNull();
  expect(JSON.parse(await json.inputValue())).toEqual(scene.definition);
  for (const name of ['Save', 'Form', 'Delete scene…', 'Add element'])
    expect(await page.getByRole('button', { name }).count(), name).toBe(0);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await expect.poll(() => page.getByText('Creating scenes needs the channels:write permission.').count()).toBe(1);
});

it('shows the fields of text that fits: the lower third panel follows its name in the preview', async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Straps' }), 201);
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByRole('radio', { name: /Lower third/ }).check();
  await page.getByLabel('Scene name').fill('Strap');
  await page.getByRole('button', { name: 'Open in the editor' }).click();
  const frame = await preview(page);

  const panel = page.getByRole('group', { name: /^Element 2/ });
  const name = page.getByRole('group', { name: /^Element 3/ });
  expect(await panel.getByLabel('Follows').inputValue()).toBe('nameText');
  expect(await name.getByLabel('Grows from').inputValue()).toBe('236');
  const panelWidth = () =>
    frame.evaluate(() => document.querySelector('[data-name="namePanel"]')?.getBoundingClientRect().width ?? 0);
  const stageScale = await frame.evaluate(
    () => document.querySelector('[data-name="accentBar"]')!.getBoundingClientRect().width / 10,
  );
  await expect.poll(async () => (await panelWidth()) / stageScale).toBeLessThan(700);
  await name.getByLabel('Text').fill('{name} and a much longer name for the strap');
  await expect.poll(async () => (await panelWidth()) / stageScale).toBeGreaterThan(800);

  await name.getByLabel('Smallest size').fill('60');
  const errors = page.locator('[data-path="definition.elements.2.minFontSize"] .field-error');
  await expect.poll(() => errors.allInnerTexts(), { timeout: 20_000 }).toEqual(['must not be more than fontSize (54)']);
  await expect.poll(() => name.getByLabel('Smallest size').getAttribute('aria-invalid')).toBe('true');
});

type ListInput = { name: string; type: string; columns?: unknown; maxRows?: number; default?: unknown };

// A scene built in the form with two refused edits on the way: 60 s for a busy machine.
it("sets a list input's columns, most rows and default rows in the form, and saves them", async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Tables' }), 201);
  const { page } = await signedInPage(browser, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByLabel('Scene name').fill('League');
  await page.getByRole('button', { name: 'Open in the editor' }).click();
  await page.getByRole('button', { name: 'Add input' }).click();
  const card = page.getByRole('group', { name: /^Input 1/ });
  await card.getByLabel('Name', { exact: true }).fill('standings');
  await card.getByLabel('Type', { exact: true }).selectOption('list');

  // A new list has one text column; a second named the same is refused at its name.
  const column = (n: number) => card.getByRole('group', { name: new RegExp(`^Column ${n}`) });
  await column(1).getByLabel('Name').fill('team');
  await card.getByRole('button', { name: 'Add column' }).click();
  await column(2).getByLabel('Name').fill('team');
  await expect
    .poll(() => column(2).locator('.field-error').allTextContents(), { timeout: 20_000 })
    .toEqual(['duplicate column "team"']);
  expect(await column(2).getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
  await column(2).getByLabel('Name').fill('pts');
  await column(2).getByLabel('Type').selectOption('number');
  // A third column moved to the front.
  await card.getByRole('button', { name: 'Add column' }).click();
  await column(3).getByLabel('Name').fill('pos');
  await column(3).getByLabel('Type').selectOption('number');
  await card.getByRole('button', { name: 'Up (Column 3)' }).click();
  await card.getByRole('button', { name: 'Up (Column 2)' }).click();
  await expect.poll(() => column(1).locator('legend').first().textContent()).toBe('Column 1 · pos');

  // Most rows past the limit is refused at its field.
  const maxRows = card.getByLabel('Most rows');
  await maxRows.fill('500');
  await expect
    .poll(() => card.locator('[data-path="definition.inputs.0.maxRows"] .field-error').count(), { timeout: 20_000 })
    .toBe(1);
  await maxRows.fill('10');
  await card.getByLabel('Default rows (JSON)').fill('[{"pos": 1, "team": "Lions", "pts": 42}]');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count(), { timeout: 20_000 }).toBe(1);
  expect(await card.locator('.field-error').count()).toBe(0);
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Create scene' }).click();
  await expect.poll(async () => (await scenesOf(owner.call, channel.id)).length, { timeout: 20_000 }).toBe(1);
  const [saved] = await scenesOf(owner.call, channel.id);
  expect((saved!.definition as { inputs: ListInput[] }).inputs[0]).toMatchObject({
    name: 'standings',
    type: 'list',
    columns: [
      { name: 'pos', type: 'number' },
      { name: 'team', type: 'text' },
      { name: 'pts', type: 'number' },
    ],
    maxRows: 10,
    default: [{ pos: 1, team: 'Lions', pts: 42 }],
  });
}, 60_000);

it("shows a crawl's fields: the ticker's list, item and speed, with an error at the speed", async () => {
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'News' }), 201);
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, owner.email);
  await page.goto(`${server.url}/#/channels/${channel.id}/scenes`);
  await page.getByRole('radio', { name: /Ticker/ }).check();
  await page.getByLabel('Scene name').fill('Crawl');
  await page.getByRole('button', { name: 'Open in the editor' }).click();
  const frame = await preview(page);
  await expect.poll(() => frame.locator('[data-type="crawl"]').count()).toBe(1);

  const crawl = page.getByRole('group', { name: /^Element 2: crawl/ });
  expect(await crawl.getByLabel('List input').inputValue()).toBe('items');
  expect(await crawl.getByLabel('Item').inputValue()).toBe('{text}');
  expect(await crawl.getByLabel('Speed').inputValue()).toBe('120');
  // A crawl never shrinks its text: the card has no smallest size.
  expect(await crawl.getByLabel('Smallest size').count()).toBe(0);
  await crawl.getByLabel('Speed').fill('5');
  const errors = page.locator('[data-path="definition.elements.1.speed"] .field-error');
  await expect.poll(() => errors.allInnerTexts(), { timeout: 20_000 }).toEqual([expect.stringMatching(/>=10/)]);
  await crawl.getByLabel('Speed').fill('200');
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Valid' }).count(), { timeout: 20_000 }).toBe(1);
});
