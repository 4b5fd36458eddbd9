/**
 * Preview shows the next graphic with its own values (docs/rundowns.md): two real output pages in headless Chromium,
 * program and `?bus=preview`, draw each instance of one lower third with its own name: A on air, B prepared and then
 * cued, B taken.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let browser: Browser;
let server: TestServer;
let call: Api;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await server?.dispose();
});

const text = (page: Page) => page.evaluate(() => document.body.innerText);

it('draws A on program while B is prepared and then cued in preview, and B on program once taken', async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Straps' }), 201);
  const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
  const made = expectStatus(await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }), 201);
  const definition = made.definition as { inputs: { name: string; scope?: string }[] };
  for (const input of definition.inputs) if (input.name === 'name' || input.name === 'title') input.scope = 'item';
  const strap = expectStatus(await call<Scene>('PUT', path(`scenes/${made.id}`), { name: 'Strap', definition }), 200);

  const program = await browser.newPage({ viewport: { width: 960, height: 540 } });
  const preview = await browser.newPage({ viewport: { width: 960, height: 540 } });
  await program.goto(channel.outputUrl);
  await preview.goto(`${channel.outputUrl}&bus=preview`);

  expectStatus(await call('POST', path('program'), { sceneId: strap.id, values: { name: 'Anna Alpha' } }), 200);
  await expect.poll(() => text(program)).toMatch(/ANNA ALPHA/i);

  // Prepared in a rundown: nothing on air moves.
  const rundown = expectStatus(await call<{ id: string }>('POST', path('rundowns'), { name: 'Show' }), 201);
  const item = expectStatus(
    await call<{ id: string }>('POST', path(`rundowns/${rundown.id}/items`), {
      sceneId: strap.id,
      values: { name: 'Ben Bravo', title: 'Coach' },
    }),
    201,
  );
  expect(await text(program)).toMatch(/ANNA ALPHA/i);
  expect(await text(program)).not.toMatch(/BEN BRAVO/i);

  // Cued: preview draws B, program still A.
  expectStatus(await call('POST', path(`rundowns/${rundown.id}/cue`), { itemId: item.id }), 200);
  await expect.poll(() => text(preview)).toMatch(/BEN BRAVO/i);
  expect(await text(program)).toMatch(/ANNA ALPHA/i);
  expect(await text(program)).not.toMatch(/BEN BRAVO/i);

  // Taken: program draws B.
  expectStatus(await call('POST', path('take')), 200);
  await expect.poll(() => text(program)).toMatch(/BEN BRAVO/i);
  await expect.poll(() => text(program)).not.toMatch(/ANNA ALPHA/i);
  await program.close();
  await preview.close();
}, 90_000);
