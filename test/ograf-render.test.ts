/**
 * OGraf graphics end to end (docs/ograf.md): the test graphics (test/fixtures/ograf) uploaded as zips to the real
 * server, made into scenes and played through the API, and checked in Chromium through the channel's output URL:
 * take, update without a re-take, continue through the steps, a custom action with its payload, clear with the
 * graphic's out animation, a reload mid-graphic that resumes on the same step without replaying its in, and the
 * failures of a graphic (a throwing `load`, a `stopAction` that never resolves) listed among the channel's outputs.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, expectStatus, patchInputs, type Api, type Channel } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { graphicZip, type FixtureGraphic } from './helpers/ograf-fixtures.js';
import { graphicFrame, graphicFrames, graphicLog, inFrame } from './helpers/ograf-page.js';
import { startTestServer, type TestServer } from './helpers/server.js';

interface GraphicScene {
  id: string;
  definition: { layer: number; graphic: { data: { input: string; path: string[] }[] } };
}

let browser: Browser;
let server: TestServer;
let call: Api;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});
beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close().catch(() => undefined);
  await server.dispose();
});

/** Uploads the fixture's zip and makes a scene of it on `channelId`. */
async function graphicScene(channelId: string, name: FixtureGraphic): Promise<GraphicScene> {
  const res = await fetch(`${server.url}/v1/graphics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/zip' },
    body: graphicZip(name),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const graphic = ((await res.json()) as { data: { id: string }[] }).data[0]!;
  const scene = await call<GraphicScene>('POST', `/v1/channels/${channelId}/scenes`, { name, graphic: graphic.id });
  return expectStatus(scene, 201);
}

/** The input of `scene` that fills `path` of the graphic's data. */
function inputAt(scene: GraphicScene, ...path: string[]): string {
  const found = scene.definition.graphic.data.find((d) => d.path.join('.') === path.join('.'));
  if (!found) throw new Error(`no input for ${path.join('.')}`);
  return found.input;
}

async function channel(): Promise<Channel> {
  return expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'OGraf' }), 201);
}

async function open(url: string): Promise<{ page: Page; log: string[] }> {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  pages.push(page);
  const log = graphicLog(page);
  await page.goto(url);
  await expect.poll(() => page.evaluate(() => window.__onair?.status())).toBe('open');
  return { page, log };
}

const post = async (path: string, body?: unknown) => expectStatus(await call('POST', path, body), 200);

interface Output {
  errors: { message: string }[];
  layers: { layer: number; sceneId: string; inDone: boolean }[];
}
const outputLayers = async (channelId: string) =>
  expectStatus(await call<{ data: Output[] }>('GET', `/v1/channels/${channelId}/outputs`), 200).data.flatMap(
    (o) => o.layers,
  );
const outputErrors = async (channelId: string) =>
  expectStatus(await call<{ data: Output[] }>('GET', `/v1/channels/${channelId}/outputs`), 200).data.flatMap((o) =>
    o.errors.map((e) => e.message),
  );

describe('OGraf graphics through the output URL', () => {
  it('take, update without a re-take, continue, a reload mid-graphic, and clear with the out animation', async () => {
    const ch = await channel();
    const lower = await graphicScene(ch.id, 'lower-third');
    const layer = lower.definition.layer;
    await patchInputs(call, ch.id, { [inputAt(lower, 'name')]: 'Jane Doe', [inputAt(lower, 'title')]: 'Reporter' });
    const { page, log } = await open(ch.outputUrl);

    await post(`/v1/channels/${ch.id}/preview`, { sceneId: lower.id });
    await post(`/v1/channels/${ch.id}/take`);
    let frame = await graphicFrame(page, layer);
    await expect.poll(() => inFrame(frame, '.name', 'opacity')).toBe('1');
    expect(log.filter((l) => /^(load|playAction)/.test(l))).toEqual([
      expect.stringMatching(/^load \{.*"name":"Jane Doe"/),
      'playAction {}',
    ]);

    await patchInputs(call, ch.id, { [inputAt(lower, 'name')]: 'Ada Lovelace' });
    await expect.poll(() => inFrame(frame, '.name', 'text')).toBe('Ada Lovelace');
    expect(log.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {}']);

    await post(`/v1/channels/${ch.id}/continue`);
    await expect.poll(() => inFrame(frame, '.title', 'opacity')).toBe('1');
    expect(log.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {}', 'playAction {"delta":1}']);

    // A reload mid-graphic: straight back on step 1, the in-animation not replayed.
    const reloaded = graphicLog(page);
    await page.reload();
    frame = await graphicFrame(page, layer);
    await expect.poll(() => inFrame(frame, '.title', 'opacity')).toBe('1');
    expect(await inFrame(frame, '.name', 'text')).toBe('Ada Lovelace');
    expect(reloaded.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {"goto":1,"skipAnimation":true}']);

    await post(`/v1/channels/${ch.id}/clear`);
    await expect.poll(() => reloaded.at(-1)).toBe('stopAction {}');
    await expect
      .poll(async () => Number(await inFrame(frame, '.name', 'opacity')))
      .toSatisfy((opacity: number) => opacity > 0 && opacity < 1);
    await expect.poll(() => graphicFrames(page, layer)).toBe(0);
    expect(reloaded.at(-1)).toBe('dispose {}');
  });

  it('runs a custom action with the payload the trigger was fired with', async () => {
    const ch = await channel();
    const bug = await graphicScene(ch.id, 'score-bug');
    const { page, log } = await open(ch.outputUrl);
    await post(`/v1/channels/${ch.id}/program`, { sceneId: bug.id });
    const frame = await graphicFrame(page, bug.definition.layer);
    await expect.poll(() => inFrame(frame, '.bug', 'visibility')).toBe('visible');
    // Once its playAction has resolved, the output reports the graphic's `in` done, as for a native scene.
    await expect
      .poll(async () => (await outputLayers(ch.id)).find((l) => l.sceneId === bug.id)?.inDone, { timeout: 20_000 })
      .toBe(true);
    await post(`/v1/channels/${ch.id}/triggers/highlight`, { payload: { color: '#ff0000' } });
    await expect.poll(() => inFrame(frame, '.bug', 'background')).toBe('rgb(255, 0, 0)');
    expect(log).toContain('customAction {"id":"highlight","payload":{"color":"#ff0000"}}');
  });

  it('fills nested data from its inputs, and gives it again whole when one changes', async () => {
    const ch = await channel();
    const match = await graphicScene(ch.id, 'match');
    await patchInputs(call, ch.id, {
      [inputAt(match, 'home', 'name')]: 'LIONS',
      [inputAt(match, 'home', 'score')]: 3,
      [inputAt(match, 'away', 'name')]: 'TIGERS',
      [inputAt(match, 'away', 'score')]: 1,
    });
    const { page } = await open(ch.outputUrl);
    await post(`/v1/channels/${ch.id}/program`, { sceneId: match.id });
    const frame = await graphicFrame(page, match.definition.layer);
    await expect.poll(() => inFrame(frame, '.score', 'text')).toBe('LIONS 3-1 TIGERS');
    await patchInputs(call, ch.id, { [inputAt(match, 'away', 'score')]: 2 });
    await expect.poll(() => inFrame(frame, '.score', 'text')).toBe('LIONS 3-2 TIGERS');
  });

  it("lists a graphic's failures among the channel's outputs: a throwing load, a stop that never ends", async () => {
    const ch = await channel();
    const broken = await graphicScene(ch.id, 'broken-load');
    const stuck = await graphicScene(ch.id, 'stuck-stop');
    const { page, log } = await open(ch.outputUrl);
    await post(`/v1/channels/${ch.id}/program`, { sceneId: broken.id });
    await expect
      .poll(() => outputErrors(ch.id), { timeout: 20_000 })
      .toContain('graphic test-broken-load@0.0.1: load: cannot load the sponsor logo');

    await post(`/v1/channels/${ch.id}/program`, { sceneId: stuck.id });
    await expect.poll(() => log).toContain('playAction {"goto":0,"skipAnimation":true}');
    await post(`/v1/channels/${ch.id}/clear`);
    await expect.poll(() => log.at(-1)).toBe('stopAction {}');
    await expect.poll(() => graphicFrames(page, stuck.definition.layer), { timeout: 25_000 }).toBe(0);
    await expect
      .poll(() => outputErrors(ch.id))
      .toContain('graphic test-stuck-stop@1.0.0: stopAction: stopAction did not settle within 10000 ms');
  }, 60_000);
});
