/**
 * Output pages in headless Chromium against the real server report what they painted (docs/outputs.md): the API
 * lists the page with the frame of a take soon after it; a page that cannot paint (its main thread busy, or hidden:
 * no display frames) shows as lagging; an image that 404s on air, or a library font the browser cannot load, is an
 * output error; a page in OBS (window.obsstudio, stubbed) says whether its source is visible, a page in CasparCG (its
 * global remove(), stubbed) reports its PLAY and STOP, a page in vMix (its name in the user agent) says it is there;
 * and the output events reach a real HTTPS receiver.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SceneDefinition } from '@onair/protocol';
import { api, expectStatus, getState, type Api, type Channel } from './helpers/api.js';
import { sha256, uploadForm } from './helpers/asset-files.js';
import { launchChromium } from './helpers/browser.js';
import { installProbe } from './helpers/renderer-probe.js';
import { lowerThird, scoreboard } from './helpers/renderer-scenes.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, testCertificate, type Receiver } from './helpers/webhook-receiver.js';
import type { Confirmation } from '../src/outputs/outputs.js';

const require = createRequire(import.meta.url);

/**
 * A Chromium on Windows as vMix's Web Browser input runs it: vMix adds its name and version to the user agent, which
 * is all the page can tell it by (renderer/src/host-hooks.ts).
 */
const VMIX_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 vMix/27';

interface Output {
  id: string;
  kind: string;
  bus: string;
  paintedFrame: number;
  lagFrames: number;
  health: 'ok' | 'lagging' | 'error';
  visible: boolean | null;
  active: boolean | null;
  size: { width: number; height: number };
  layers: { layer: number; sceneId: string; itemId: string | null; inDone: boolean }[];
  errors: { at: string; message: string; url: string | null }[];
}

let browser: Browser;
let server: TestServer;
let receiver: Receiver;
let call: Api;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

beforeEach(async () => {
  const { cert } = await testCertificate();
  server = await startTestServer({ webhookCa: cert }, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  receiver = await startReceiver();
  call = api(server.url, server.key);
});
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close().catch(() => undefined);
  await server.dispose();
  await receiver.close();
});

/** A channel with the scoreboard on air, and a subscription to every event of it at the receiver. */
async function channelOnAir(extra: SceneDefinition[] = []): Promise<{ channel: Channel; scenes: string[] }> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Outputs' }), 201);
  const scenes: string[] = [];
  for (const definition of [scoreboard(), ...extra]) {
    const scene = await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'S', definition });
    scenes.push(expectStatus(scene, 201).id);
  }
  expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scenes[0] }), 200);
  const hook = { url: `${receiver.url}/hooks`, events: [], channelId: channel.id };
  expectStatus(await call('POST', '/v1/webhooks', hook), 201);
  return { channel, scenes };
}

async function openPage(
  url: string,
  init?: () => void,
  { probe = false, userAgent }: { probe?: boolean; userAgent?: string } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 }, userAgent });
  pages.push(page);
  if (probe) await installProbe(page);
  if (init) await page.addInitScript(init);
  await page.goto(url);
  return page;
}

const outputs = async (channelId: string) =>
  expectStatus(await call<{ data: Output[] }>('GET', `/v1/channels/${channelId}/outputs`), 200).data;

/** The one output of the channel, once it is listed and `check` holds for it. */
async function outputWhere(channelId: string, check: (o: Output) => boolean, timeout = 20_000): Promise<Output> {
  let found: Output | undefined;
  await expect
    .poll(
      async () => {
        found = (await outputs(channelId)).find(check);
        return found !== undefined;
      },
      { timeout, interval: 50 },
    )
    .toBe(true);
  return found!;
}

const delivered = (type: string, outputId?: string) =>
  receiver.received.find((r) => r.json.type === type && (outputId === undefined || r.json.data.outputId === outputId));

describe('output pages', () => {
  it('are listed with the frame of a take within a report interval, and raise output.lost when closed', async () => {
    const { channel, scenes } = await channelOnAir([lowerThird()]);
    const confirmed: Confirmation[] = [];
    server.handle.outputs.onConfirmed((c) => confirmed.push(c));
    const page = await openPage(channel.outputUrl);
    const first = await outputWhere(channel.id, (o) => o.layers.length === 1);
    expect(first).toMatchObject({ kind: 'browser', bus: 'program', visible: null, health: 'ok' });
    expect(first.size).toEqual({ width: 960, height: 540 });
    expect(first.id).toMatch(/^out_/);
    await expect.poll(() => delivered('output.connected', first.id) !== undefined, { timeout: 10_000 }).toBe(true);

    const taken = expectStatus(
      await call<{ frame: number }>('POST', `/v1/channels/${channel.id}/program`, { sceneId: scenes[1] }),
      200,
    );
    const tookAt = Date.now();
    const shown = await outputWhere(channel.id, (o) => o.paintedFrame >= taken.frame);
    // One report interval (500 ms), plus a paint and a busy machine's slack.
    expect(Date.now() - tookAt).toBeLessThan(1_500);
    expect(shown.paintedFrame).toBe((await getState(call, channel.id)).frame);
    expect(shown.layers.map((l) => [l.layer, l.sceneId])).toEqual([
      [10, scenes[0]],
      [20, scenes[1]],
    ]);
    // The lower third fades in over 1 s: its `in` is reported done once it has played, which confirms it aired.
    await outputWhere(channel.id, (o) => o.layers.every((l) => l.inDone));
    const lower = (await getState(call, channel.id)).program.find((e) => e.layer === 20)!;
    await expect
      .poll(() => confirmed.find((c) => c.layer === 20))
      .toMatchObject({
        channelId: channel.id,
        outputId: first.id,
        sceneId: scenes[1],
        itemId: null,
        since: lower.since,
      });
    expect(confirmed.filter((c) => c.layer === 10)).toHaveLength(1);

    await page.close();
    const closedAt = Date.now();
    await expect.poll(() => delivered('output.lost', first.id) !== undefined, { timeout: 10_000 }).toBe(true);
    expect(delivered('output.lost', first.id)!.at - closedAt).toBeLessThan(5_000);
    expect(delivered('output.lost', first.id)!.json.data).toMatchObject({ kind: 'browser', bus: 'program' });
    expect(await outputs(channel.id)).toEqual([]);
  });

  // A page says it is alive every 5 s; 12 s without a word is lagging (docs/outputs.md, "Health"): slow by design.
  it('show as lagging while the page cannot paint: its main thread busy, or hidden', { timeout: 90_000 }, async () => {
    const { channel } = await channelOnAir();
    const page = await openPage(channel.outputUrl, undefined, { probe: true });
    const output = await outputWhere(channel.id, (o) => o.health === 'ok');

    const busy = page.evaluate(() => {
      const end = Date.now() + 17_000;
      while (Date.now() < end);
    });
    await outputWhere(channel.id, (o) => o.health === 'lagging', 25_000);
    await busy;
    await outputWhere(channel.id, (o) => o.health === 'ok');
    await expect.poll(() => delivered('output.lagging', output.id) !== undefined, { timeout: 10_000 }).toBe(true);

    // Hidden by its host: no more display frames (the probe holds back requestAnimationFrame, as a hidden page gets none).
    await page.evaluate(() => (window.__probe!.paused = true));
    await outputWhere(channel.id, (o) => o.health === 'lagging', 25_000);
    await page.evaluate(() => window.__probe!.resume());
    await outputWhere(channel.id, (o) => o.health === 'ok');
  });

  /** A page on air, then a scene of `element` alone on layer 30 taken: the output once it reports an error. */
  async function takeFailing(element: SceneDefinition['elements'][number]) {
    const definition: SceneDefinition = {
      version: 1,
      layer: 30,
      inputs: [],
      elements: [element],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [],
    };
    const { channel, scenes } = await channelOnAir([definition]);
    await openPage(channel.outputUrl);
    const output = await outputWhere(channel.id, (o) => o.health === 'ok');
    expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scenes[1] }), 200);
    const failed = await outputWhere(channel.id, (o) => o.health === 'error');
    return { channel, output, failed };
  }

  /** The output.error webhook came for the output, and never carries the output token. */
  async function expectErrorHookWithoutToken(channel: { outputUrl: string }, output: { id: string }) {
    await expect.poll(() => delivered('output.error', output.id) !== undefined, { timeout: 10_000 }).toBe(true);
    const token = new URL(channel.outputUrl).searchParams.get('token')!;
    expect(JSON.stringify(delivered('output.error', output.id)!.json)).not.toContain(token);
  }

  it('report an image that 404s on air as an output error, without the token', async () => {
    const missing = `/assets/${'0'.repeat(64)}.png`;
    const { channel, output, failed } = await takeFailing({
      type: 'image',
      name: 'crest',
      x: 0,
      y: 0,
      width: 200,
      height: 200,
      src: missing,
    });
    expect(failed.errors).toEqual([
      {
        at: expect.any(String) as string,
        message: 'image failed to load',
        url: `${server.url}${missing}?channel=${channel.id}`,
      },
    ]);
    await expectErrorHookWithoutToken(channel, output);
  });

  it('report a library font the browser cannot load as an output error, without the token', async () => {
    // A damaged WOFF2 (cut short): the library takes it by its signature, as it would from a user; no browser can use it.
    const whole = fs.readFileSync(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff2'));
    const damaged = whole.subarray(0, 400);
    const up = await uploadForm(server.url, server.key, damaged, 'house.woff2');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const path = up.body.path as string;
    const { channel, output, failed } = await takeFailing({
      type: 'text',
      name: 'name',
      x: 0,
      y: 0,
      width: 600,
      height: 80,
      text: 'Ada',
      fontSize: 48,
      fontFamily: path,
    });
    expect(failed.errors).toEqual([
      {
        at: expect.any(String) as string,
        message: `font onair-asset-${sha256(damaged)} failed to load`,
        url: `${server.url}${path}?channel=${channel.id}`,
      },
    ]);
    await expectErrorHookWithoutToken(channel, output);
  });

  it('inside OBS say whether the source is visible and on program', async () => {
    const { channel } = await channelOnAir();
    await openPage(channel.outputUrl, () => {
      const obs = { pluginVersion: '2.21.0', getStatus: (cb: (s: object) => void) => cb({ streaming: true }) };
      Object.assign(window, { obsstudio: obs });
      // What OBS fires for a source hidden in the scene (and so not on program).
      window.addEventListener('load', () => {
        window.dispatchEvent(new CustomEvent('obsSourceVisibleChanged', { detail: { visible: false } }));
        window.dispatchEvent(new CustomEvent('obsSourceActiveChanged', { detail: { active: false } }));
      });
    });
    const output = await outputWhere(channel.id, (o) => o.visible !== null && o.active !== null);
    expect(output).toMatchObject({ kind: 'obs', visible: false, active: false });
  });

  it('inside CasparCG report its PLAY and STOP, and no layers while stopped', async () => {
    const { channel } = await channelOnAir();
    // CasparCG's HTML producer gives the page a global remove(); CG PLAY and CG STOP call play() and stop().
    const page = await openPage(channel.outputUrl, () => Object.assign(window, { remove: () => undefined }));
    const listed = await outputWhere(channel.id, (o) => o.layers.length > 0);
    expect(listed).toMatchObject({ kind: 'casparcg', visible: null, active: null });
    await page.evaluate(() => (window as unknown as { play(): void }).play());
    await outputWhere(channel.id, (o) => o.active === true && o.visible === true);
    await page.evaluate(() => (window as unknown as { stop(): void }).stop());
    const stopped = await outputWhere(channel.id, (o) => o.active === false && o.layers.length === 0);
    expect(stopped).toMatchObject({ kind: 'casparcg', visible: false });
  });

  it('inside vMix say so, from the user agent of its browser input', async () => {
    const { channel } = await channelOnAir();
    await openPage(channel.outputUrl, undefined, { userAgent: VMIX_USER_AGENT });
    const listed = await outputWhere(channel.id, (o) => o.layers.length > 0);
    expect(listed).toMatchObject({ kind: 'vmix', visible: null, active: null });
  });
});
