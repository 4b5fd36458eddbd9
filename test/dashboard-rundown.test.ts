/**
 * Running a show from a rundown in the live view, in headless Chromium against the real server (docs/dashboard.md,
 * "The rundown"): at a laptop's 1280×720 the monitors, the rundown and the focused item's values fit on one screen
 * with no page scroll; items added from a scene with their own values, played next and cued, drawn by the monitors;
 * Clear all asks first and Ctrl+Z brings back what was on air; the keys (`?`, ↑/↓, F5, Esc, Space) and never while
 * typing; a stale item edit refused and reloaded; who did each thing in the event feed.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, getState, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { accessibilityViolations, saveScreenshot, signedInPage } from './helpers/dashboard.js';
import { startTestServer, type TestServer } from './helpers/server.js';

interface Item {
  id: string;
  version: number;
  values: Record<string, unknown>;
}
interface Rundown {
  id: string;
  items: Item[];
  focus: string | null;
}

let browser: Browser;
let server: TestServer;
let call: Api;
let ownerEmail: string;
let channelId: string;
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
  channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Show' }), 201).id;
  strap = await itemStrap();
});
afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
  await server?.dispose();
});

const path = (rest: string) => `/v1/channels/${channelId}/${rest}`;

/** A lower third whose name and title belong to each item (item inputs), whatever the template says. */
async function itemStrap(): Promise<Scene> {
  const scene = expectStatus(
    await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }),
    201,
  );
  const definition = scene.definition as { inputs: { name: string; scope?: string }[] };
  for (const input of definition.inputs) if (input.name === 'name' || input.name === 'title') input.scope = 'item';
  return expectStatus(await call<Scene>('PUT', path(`scenes/${scene.id}`), { name: 'Strap', definition }), 200);
}

/** A rundown with an item per name, made over REST. */
async function rundownWith(...names: string[]): Promise<{ rundown: Rundown; items: Item[] }> {
  const rundown = expectStatus(await call<Rundown>('POST', path('rundowns'), { name: 'Match' }), 201);
  const items: Item[] = [];
  for (const name of names) {
    const body = { sceneId: strap.id, values: { name, title: 'Guest' } };
    items.push(expectStatus(await call<Item>('POST', path(`rundowns/${rundown.id}/items`), body), 201));
  }
  return { rundown, items };
}

async function openLive(): Promise<Page> {
  const { page } = await signedInPage(browser, server.url, ownerEmail);
  await page.goto(`${server.url}/#/channels/${channelId}/live`);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  return page;
}

/** A monitor's output page, once it has its state. */
async function monitor(page: Page, title: 'Program monitor' | 'Preview monitor'): Promise<Frame> {
  const frame = await (await page.getByTitle(title).elementHandle()).contentFrame();
  await expect.poll(() => frame!.evaluate(() => (window.__onair?.state().frame ?? -1) >= 0)).toBe(true);
  return frame!;
}

/** The name a monitor draws on the strap ('' when none), in lower case (the template draws capitals). */
function drawnName(frame: Frame): Promise<string> {
  return frame.evaluate(() =>
    [...document.querySelectorAll('[data-name="nameText"]')]
      .map((el) => (el.textContent ?? '').toLowerCase())
      .join('|'),
  );
}

const onAir = async () =>
  (await getState(call, channelId)).program.map(({ sceneId, itemId, values }) => ({ sceneId, itemId, values }));

const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Rundown items' }).getByRole('listitem').filter({ hasText: name });

it('fits monitors, rundown and the focused item on a 1280×720 screen; items from a scene play next and cue', async () => {
  const page = await openLive();
  await page.getByRole('button', { name: 'New rundown' }).click();
  await page.getByLabel('New rundown name').fill('Match night');
  await page.getByRole('button', { name: 'Create rundown' }).click();
  await expect.poll(() => page.getByText('No items yet').count()).toBe(1);
  await page.getByRole('button', { name: '+ Add item' }).click();
  const form = page.getByRole('form', { name: 'Add an item' });
  for (const [name, title] of [
    ['Anna Alpha', 'Host'],
    ['Ben Bravo', 'Coach'],
  ] as const) {
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Title').fill(title);
    await form.getByRole('button', { name: 'Add to rundown' }).click();
    await expect.poll(() => row(page, name).count()).toBe(1);
  }
  await saveScreenshot(page, 'live-rundown-add-item');
  await form.getByRole('button', { name: 'Done' }).click();
  // The first item added has the focus; its values are there to edit.
  const editor = page.getByRole('region', { name: 'Focused item: Anna Alpha' });
  await expect.poll(() => editor.getByLabel('Name').inputValue()).toBe('Anna Alpha');

  const fits = await page.evaluate(() => ({
    scrollHeight: document.scrollingElement!.scrollHeight,
    innerHeight,
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth,
  }));
  expect(fits.scrollHeight).toBeLessThanOrEqual(fits.innerHeight);
  expect(fits.scrollWidth).toBeLessThanOrEqual(fits.innerWidth);
  const regions = {
    preview: page.getByTitle('Preview monitor'),
    program: page.getByTitle('Program monitor'),
    rundown: page.getByRole('region', { name: 'Rundown', exact: true }),
    itemValues: editor.getByRole('group', { name: 'Item values' }),
    playout: page.getByRole('toolbar', { name: 'Playout' }),
  };
  for (const [name, locator] of Object.entries(regions)) {
    const box = (await locator.boundingBox())!;
    expect(box, name).not.toBeNull();
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.y, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(1280);
    expect(box.y + box.height, name).toBeLessThanOrEqual(720);
    expect(box.height, name).toBeGreaterThan(24);
  }

  // Space plays the focused item; the focus moves on to Ben, whom Cue puts in preview.
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect.poll(() => row(page, 'Anna Alpha').getAttribute('data-state')).toBe('program');
  await expect.poll(() => row(page, 'Ben Bravo').getAttribute('aria-current')).toBe('true');

  // The list of keys (after the focus keys: the first key after it closes was seen lost on a busy machine).
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect.poll(() => overlay.isVisible()).toBe(true);
  for (const key of [
    'Space',
    '↑ / ↓',
    'N',
    'F5',
    'Esc',
    'T',
    'J / K',
    'P',
    'C',
    'X',
    'Shift + X',
    '+ / −',
    'S',
    'Ctrl + Z',
    'Ctrl + Shift + Z',
    '?',
  ])
    expect(await overlay.locator('kbd', { hasText: key }).count(), key).toBeGreaterThan(0);
  expect(await overlay.getByText('Clear everything off air (asks first)').count()).toBe(1);
  await saveScreenshot(page, 'live-keys');
  await page.keyboard.press('?');
  await expect.poll(() => overlay.count()).toBe(0);
  await page.getByRole('button', { name: 'Cue', exact: true }).click();
  await expect.poll(() => row(page, 'Ben Bravo').getAttribute('data-state')).toBe('preview');
  const preview = await monitor(page, 'Preview monitor');
  const program = await monitor(page, 'Program monitor');
  await expect.poll(() => drawnName(preview)).toBe('ben bravo');
  await expect.poll(() => drawnName(program)).toBe('anna alpha');
  await expect.poll(() => row(page, 'Anna Alpha').getByText('PROGRAM').count()).toBe(1);
  await expect.poll(() => row(page, 'Ben Bravo').getByText('PREVIEW').count()).toBe(1);
  // The event feed (read every 2 s) says who did it.
  await expect
    .poll(() => page.locator('.event-feed li[data-type="channel.played"]').first().textContent(), { timeout: 20_000 })
    .toMatch(new RegExp(`by ${ownerEmail} \\(dashboard\\)`));
  await saveScreenshot(page, 'live-rundown');
  expect(await accessibilityViolations(page)).toEqual([]);
}, 60_000);

it('asks before Clear all (Cancel and Esc keep the air), clears on confirm, and Ctrl+Z brings the air back', async () => {
  const { rundown } = await rundownWith('Anna Alpha', 'Ben Bravo');
  expectStatus(await call('POST', path(`rundowns/${rundown.id}/play-next`)), 200);
  const before = await onAir();
  expect(before).toHaveLength(1);
  const page = await openLive();
  await expect.poll(() => row(page, 'Anna Alpha').getAttribute('data-state')).toBe('program');

  const dialog = page.getByRole('alertdialog', { name: 'Clear everything off air?' });
  await page.getByRole('toolbar', { name: 'Playout' }).getByRole('button', { name: 'Clear all' }).click();
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await saveScreenshot(page, 'live-clear-all');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  // Shift+X asks too; Esc in the dialog cancels it (and is not "stop" while the dialog is open).
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Shift+X');
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
  // Nothing was sent: no clear and no stop in this operator's actions, and the air is as it was.
  await page.getByRole('button', { name: 'Focus Ben Bravo' }).click();
  await expect.poll(() => page.getByText(/Done.*Focus Ben Bravo/).count()).toBe(1);
  expect(
    await page
      .locator('.actions-log')
      .getByText(/Clear all|Stop/)
      .count(),
  ).toBe(0);
  expect(await onAir()).toEqual(before);

  await page.getByRole('toolbar', { name: 'Playout' }).getByRole('button', { name: 'Clear all' }).click();
  await dialog.getByRole('button', { name: 'Clear all' }).click();
  await expect.poll(async () => (await onAir()).length).toBe(0);
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expect.poll(onAir).toEqual(before);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await onAir()).length).toBe(0);
  await page.keyboard.press('Control+z');
  await expect.poll(onAir).toEqual(before);

  // Turned off for this session, Clear all clears at once, also after a reload of the tab.
  await page.keyboard.press('Shift+X');
  await dialog.getByLabel('Don’t ask again in this session').check();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
  await expect.poll(() => page.getByLabel('Ask before Clear all (this session)').isChecked()).toBe(false);
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Shift+X');
  await expect.poll(async () => (await onAir()).length).toBe(0);
  expect(await dialog.count()).toBe(0);
}, 60_000);

it('lists every key with ?, moves the focus with ↑/↓, updates on air with F5, stops with Esc, not while typing', async () => {
  const { rundown, items } = await rundownWith('Anna Alpha', 'Ben Bravo', 'Cleo Charlie');
  const page = await openLive();
  await expect.poll(() => row(page, 'Cleo Charlie').count()).toBe(1);
  await page.locator('main').click({ position: { x: 5, y: 5 } });

  const focus = async () => expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200).focus;
  // The keys go to the page: ↑ / ↓ in a list that scrolls (the event feed, once it fills) scroll that list instead.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // One press at a time, each seen by the server before the next (on a busy machine two quick presses were one).
  await page.keyboard.press('ArrowDown');
  await expect.poll(focus).toBe(items[1]!.id);
  await page.keyboard.press('ArrowDown');
  await expect.poll(focus).toBe(items[2]!.id);
  await page.keyboard.press('ArrowUp');
  await expect.poll(focus).toBe(items[1]!.id);
  await expect.poll(() => row(page, 'Ben Bravo').getAttribute('aria-current')).toBe('true');

  // The key list takes the keys while it is open and gives them back when it closes: the next key acts at once.
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect.poll(() => overlay.isVisible()).toBe(true);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('?');
  // Pressed straight after the key list closed (an operator does not wait for the next paint).
  await page.keyboard.press('ArrowUp');
  expect(await overlay.count()).toBe(0);
  await expect
    .poll(focus)
    .toBe(items[0]!.id)
    .catch(async (err: Error) => {
      // What the page sent, and whether the line was up, say where a lost key went.
      const status = await page.locator('main').getAttribute('data-status');
      throw new Error(`${err.message}\nline: ${status}\n${await page.locator('.actions-log').innerText()}`);
    });
  await page.keyboard.press('ArrowDown');
  await expect.poll(focus).toBe(items[1]!.id);

  // Typing a space (or an arrow) in a field is typing, not play next.
  const editor = page.getByRole('region', { name: 'Focused item: Ben Bravo' });
  await editor.getByLabel('Name').fill('Ben');
  await editor.getByLabel('Name').press('Space');
  await editor.getByLabel('Name').press('ArrowUp');
  await editor.getByLabel('Name').press('End');
  await editor.getByLabel('Name').pressSequentially('Bravo Jr');
  expect(await editor.getByLabel('Name').inputValue()).toBe('Ben Bravo Jr');
  expect(await onAir()).toEqual([]);
  expect(await focus()).toBe(items[1]!.id);

  // Space (outside a field) plays Ben as saved; F5 then puts the edited name on air, and saves it into the item.
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect.poll(async () => (await onAir())[0]?.values).toEqual({ name: 'Ben Bravo', title: 'Guest' });
  // Play next moved the focus on to Cleo: back to Ben, whose draft is kept. The operator sees both before the next
  // key (the page may draw them a moment after the server has them: Ben was focused before, so his row says nothing).
  await expect.poll(() => row(page, 'Cleo Charlie').getAttribute('aria-current')).toBe('true');
  await expect.poll(() => row(page, 'Ben Bravo').getAttribute('data-state')).toBe('program');
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => row(page, 'Ben Bravo').getAttribute('aria-current')).toBe('true');
  await page.keyboard.press('F5');
  await expect.poll(async () => (await onAir())[0]?.values).toEqual({ name: 'Ben Bravo Jr', title: 'Guest' });
  await expect
    .poll(async () => {
      const read = expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200);
      return read.items[1]?.values.name;
    })
    .toBe('Ben Bravo Jr');
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await onAir()).length).toBe(0);
  await expect.poll(() => row(page, 'Ben Bravo Jr').getAttribute('data-state')).toBe('done');
}, 60_000);

it('refuses a save of an item someone else changed meanwhile, says so, and shows the item as it is now', async () => {
  const { rundown, items } = await rundownWith('Anna Alpha');
  const page = await openLive();
  const editor = page.getByRole('region', { name: 'Focused item: Anna Alpha' });
  await expect.poll(() => editor.getByLabel('Name').inputValue()).toBe('Anna Alpha');
  await editor.getByLabel('Name').fill('Anna typed here');
  // Another operator (here the API) saves first.
  expectStatus(
    await call('PATCH', path(`rundowns/${rundown.id}/items/${items[0]!.id}`), {
      values: { name: 'Anna from elsewhere' },
      version: items[0]!.version,
    }),
    200,
  );
  // The panel is named after the item, which is now called what the other operator saved.
  await page
    .getByRole('region', { name: /^Focused item/ })
    .getByRole('button', { name: 'Save item' })
    .click();
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'someone else changed' }).count()).toBe(1);
  await expect
    .poll(() =>
      page
        .getByRole('region', { name: /^Focused item/ })
        .getByLabel('Name')
        .inputValue(),
    )
    .toBe('Anna from elsewhere');
  const read = expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200);
  expect(read.items[0]!.values.name).toBe('Anna from elsewhere');

  // Edited again from what is saved now, it saves.
  const now = page.getByRole('region', { name: 'Focused item: Anna from elsewhere' });
  await now.getByLabel('Duration (s)').fill('2.5');
  await now.getByLabel('Label').fill('Opening guest');
  await now.getByRole('button', { name: 'Save item' }).click();
  await expect
    .poll(async () => {
      const item = expectStatus(await call<Rundown>('GET', path(`rundowns/${rundown.id}`)), 200).items[0] as Item & {
        durationMs: number | null;
        label: string;
      };
      return [item.durationMs, item.label, item.values.name];
    })
    .toEqual([2500, 'Opening guest', 'Anna from elsewhere']);
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'someone else changed' }).count()).toBe(0);
}, 60_000);

it('says in the scene editor that the scene is on air and what Save does, and asks before leaving unsaved changes', async () => {
  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'On Air' } }), 200);
  const { page } = await signedInPage(browser, server.url, ownerEmail);
  await page.goto(`${server.url}/#/channels/${channelId}/scenes/${strap.id}`);
  await expect.poll(() => page.getByRole('heading', { name: 'Scene: Strap' }).count()).toBe(1);
  const notice = page.locator('[data-on-air]');
  await expect.poll(() => notice.getAttribute('data-on-air')).toBe('program');
  expect(await notice.textContent()).toMatch(
    /on program now \(layer 20\).*Save changes the graphic on air at the next frame/,
  );
  await saveScreenshot(page, 'scene-editor-on-air');
  expectStatus(await call('POST', path('clear'), {}), 200);
  await expect.poll(() => notice.getAttribute('data-on-air')).toBe('none');

  await page.getByLabel('Scene name').fill('Strap renamed');
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await page.getByRole('link', { name: 'Back to live view' }).click();
  await expect.poll(() => ask.isVisible()).toBe(true);
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect.poll(() => ask.count()).toBe(0);
  expect(page.url()).toMatch(/\/scenes\/sc_[0-9a-f]+$/);
  expect(await page.getByLabel('Scene name').inputValue()).toBe('Strap renamed');

  // Closing the tab asks too (the browser's own question).
  const asked: string[] = [];
  page.on('dialog', (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);

  await page.getByRole('link', { name: 'Back to live view' }).click();
  await ask.getByRole('button', { name: 'Leave without saving' }).click();
  await expect.poll(() => page.url()).toMatch(/#\/channels\/[^/]+\/live$/);
  const scene = expectStatus(await call<Scene>('GET', path(`scenes/${strap.id}`)), 200);
  expect(scene.name).toBe('Strap');
}, 60_000);
