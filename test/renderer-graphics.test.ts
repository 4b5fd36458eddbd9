/**
 * OGraf graphics on the output page, in headless Chromium, driven by the fake render feed (the real page, bundle and
 * graphics host page; hand-made snapshots and frames) with the test graphics of test/fixtures/ograf served as onair
 * serves a graphic's files: each action a bus change calls, checked in the graphic's own frame (its console lines
 * and its DOM), against the wire contract alone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaintedMessage, ProgramEntry, SceneView } from '@onair/protocol';
import { launchChromium } from './helpers/browser.js';
import { decodePng } from './helpers/png.js';
import { fixtureGraphicScene, serveFixtureGraphics } from './helpers/ograf-fixtures.js';
import { graphicFrame, graphicFrames as iframes, graphicLog, inFrame } from './helpers/ograf-page.js';
import { startFakeFeed, type FakeFeed } from './helpers/renderer-fake-feed.js';

let browser: Browser;
let feed: FakeFeed | null = null;
const pages: Page[] = [];

const since = '2026-01-01T00:00:00.000Z';
const LOGO = `/assets/${'c'.repeat(64)}.png`;
const text = (name: string, label = name) => ({ name, type: 'text' as const, label, default: '' });

const LOWER = fixtureGraphicScene({
  id: 'lower',
  graphic: 'lower-third',
  inputs: [text('name', 'Name'), text('title', 'Title')],
});
const BUG = fixtureGraphicScene({
  id: 'bug',
  graphic: 'score-bug',
  layer: 30,
  inputs: [text('label'), { name: 'logo', type: 'asset', label: 'Logo', default: '' }],
  triggers: [
    { name: 'highlight', customAction: 'highlight', animation: 'flash' },
    { name: 'reset', customAction: 'reset', animation: 'flash' },
  ],
});
const BROKEN = fixtureGraphicScene({ id: 'broken', graphic: 'broken-load', layer: 40 });
const STUCK = fixtureGraphicScene({ id: 'stuck', graphic: 'stuck-stop', layer: 50 });
const MATCH = fixtureGraphicScene({
  id: 'match',
  graphic: 'match',
  layer: 60,
  inputs: [text('home_name'), text('home_score'), text('away_name'), text('away_score')],
  data: [
    { input: 'home_name', path: ['home', 'name'] },
    { input: 'home_score', path: ['home', 'score'] },
    { input: 'away_name', path: ['away', 'name'] },
    { input: 'away_score', path: ['away', 'score'] },
  ],
});
/** A native scene on layer 1, to show that graphics never take other layers down. */
const NATIVE: SceneView = {
  id: 'native',
  name: 'native',
  definition: {
    version: 1,
    layer: 1,
    inputs: [],
    elements: [{ type: 'text', x: 0, y: 0, width: 400, height: 60, text: 'NATIVE', fontSize: 40 }],
    transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
    triggers: [],
  },
};

function entry(scene: SceneView, over: Partial<ProgramEntry> = {}): ProgramEntry {
  return { sceneId: scene.id, layer: scene.definition.layer, itemId: null, values: {}, since, ...over };
}

async function start(program: ProgramEntry[] = [], inputs: Record<string, string | number> = {}) {
  feed = await startFakeFeed(
    {
      scenes: [LOWER, BUG, BROKEN, STUCK, MATCH, NATIVE],
      program,
      inputs: { name: 'Jane Doe', title: 'Reporter', label: 'LIVE', ...inputs },
    },
    (app) => {
      serveFixtureGraphics(app as never);
      // A picture of the asset library, served only with the page's token, as onair serves one.
      app.get(LOGO, async (c) => {
        if (c.req.query('token') !== 'fake') return c.body(null, 401);
        const red = await fetch(`${feed!.url}/test/red.png`);
        return new Response(await red.arrayBuffer(), { headers: { 'Content-Type': 'image/png' } });
      });
    },
  );
  return feed;
}

/** The page, and every `ograf …` line the graphics in it logged, in order. */
async function open(query = ''): Promise<{ page: Page; log: string[] }> {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  pages.push(page);
  const log = graphicLog(page);
  await page.goto(feed!.pageUrl(query));
  // Frames sent before the page has its snapshot would be folded into it (drawn settled, not animated).
  await expect.poll(() => page.evaluate(() => window.__onair?.state().frame ?? -1)).toBeGreaterThanOrEqual(0);
  return { page, log };
}

function errorsReported(): string[] {
  return feed!
    .received()
    .filter((m) => m.op === 'painted')
    .flatMap((m) => ((m as unknown as PaintedMessage).errors ?? []).map((e) => e.message));
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
  await feed?.close();
  feed = null;
});

afterAll(async () => {
  await browser?.close();
});

describe('an OGraf graphic on the output page', () => {
  it('takes, updates without a re-take, steps on continue, and clears with its out animation', async () => {
    await start();
    const { page, log } = await open();
    feed!.frame({ program: [entry(LOWER, { step: 0, since: new Date().toISOString() })] });
    const frame = await graphicFrame(page, 10);
    await expect.poll(() => log.slice(0, 2)).toEqual(['load {"name":"Jane Doe","title":"Reporter"}', 'playAction {}']);
    await expect.poll(() => inFrame(frame, '.name', 'opacity')).toBe('1');
    expect(await inFrame(frame, '.name', 'text')).toBe('Jane Doe');
    expect(await inFrame(frame, '.title', 'opacity')).toBe('0');

    // A new value: the graphic is told, in place.
    feed!.frame({ inputs: { name: 'Ada Lovelace' } });
    await expect.poll(() => inFrame(frame, '.name', 'text')).toBe('Ada Lovelace');
    expect(log.filter((l) => l.startsWith('updateAction'))).toEqual([
      'updateAction {"data":{"name":"Ada Lovelace","title":"Reporter"}}',
    ]);

    // continue: the program entry's step moves on.
    feed!.frame({ program: [{ ...feed!.channel.program[0]!, step: 1 }] });
    await expect.poll(() => inFrame(frame, '.title', 'opacity')).toBe('1');
    expect(log.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {}', 'playAction {"delta":1}']);
    expect(log.filter((l) => l.startsWith('load'))).toHaveLength(1);

    // clear: stopAction's out animation (1.5 s) is seen, then dispose, then the frame goes.
    feed!.frame({ program: [] });
    await expect.poll(() => log.at(-1)).toBe('stopAction {}');
    // Read in the graphic's own frame: while it animates out, its frame is still on the page.
    await expect
      .poll(async () => Number(await inFrame(frame, '.name', 'opacity')))
      .toSatisfy((opacity: number) => opacity > 0 && opacity < 1);
    await expect.poll(() => log.at(-1)).toBe('dispose {}');
    await expect.poll(() => page.locator('iframe').count()).toBe(0);
  });

  it('resumes on the same step after a reload, without playing its in again, and rides out a reconnect', async () => {
    await start([entry(LOWER, { step: 1 })]);
    const first = await open();
    const before = await graphicFrame(first.page, 10);
    await expect.poll(() => inFrame(before, '.title', 'opacity')).toBe('1');
    expect(first.log.slice(0, 2)).toEqual([
      'load {"name":"Jane Doe","title":"Reporter"}',
      'playAction {"goto":1,"skipAnimation":true}',
    ]);

    // A reload mid-graphic: back on step 1 at once, the in-animation never replayed.
    const reloaded = graphicLog(first.page);
    await first.page.reload();
    const after = await graphicFrame(first.page, 10);
    await expect.poll(() => inFrame(after, '.title', 'opacity')).toBe('1');
    expect(await inFrame(after, '.name', 'opacity')).toBe('1');
    expect(reloaded.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {"goto":1,"skipAnimation":true}']);

    // A lost connection: the snapshot that follows shows the same instance, which is left alone.
    const count = reloaded.length;
    feed!.dropAll();
    await expect.poll(() => first.page.evaluate(() => window.__onair?.status())).toBe('open');
    await expect.poll(() => feed!.sockets()).toBe(1);
    expect(await inFrame(after, '.title', 'opacity')).toBe('1');
    expect(reloaded.slice(count)).toEqual([]);
  });

  it('runs a custom action with the payload it was fired with', async () => {
    await start([entry(BUG)]);
    const { page, log } = await open();
    const frame = await graphicFrame(page, 30);
    await expect.poll(() => inFrame(frame, '.bug', 'visibility')).toBe('visible');
    feed!.frame({ triggers: [{ name: 'highlight', sceneId: 'bug', at: Date.now(), payload: { color: '#ff0000' } }] });
    await expect.poll(() => inFrame(frame, '.bug', 'background')).toBe('rgb(255, 0, 0)');
    // On the page's own picture: the bug in red (1920×1080 drawn at half size), transparent where it draws nothing.
    const shot = decodePng(await page.screenshot({ omitBackground: true }));
    expect(shot.at(810, 35)).toEqual([255, 0, 0, 255]);
    expect(shot.at(200, 400)[3]).toBe(0);
    feed!.frame({ triggers: [{ name: 'reset', sceneId: 'bug', at: Date.now() }] });
    await expect.poll(() => inFrame(frame, '.bug', 'background')).toBe('rgb(34, 34, 34)');
    expect(log.filter((l) => l.startsWith('customAction'))).toEqual([
      'customAction {"id":"highlight","payload":{"color":"#ff0000"}}',
      'customAction {"id":"reset","payload":{}}',
    ]);
  });

  it('gives a graphic a picture of the library as a data: URL, never with the page token', async () => {
    await start([entry(BUG)], { logo: LOGO });
    const { page, log } = await open();
    const frame = await graphicFrame(page, 30);
    await expect.poll(() => frame.evaluate(() => document.querySelector('img')?.naturalWidth ?? 0)).toBe(8);
    expect(await frame.evaluate(() => document.querySelector('img')!.src)).toMatch(/^data:image\/png;base64,/);
    expect(log.join('\n')).not.toContain('token');
  });

  it('gives a graphic its nested data, and the whole of it again when one field changes', async () => {
    await start([entry(MATCH)], { home_name: 'LIONS', home_score: 3, away_name: 'TIGERS', away_score: 1 });
    const { page, log } = await open();
    const frame = await graphicFrame(page, 60);
    await expect.poll(() => inFrame(frame, '.score', 'text')).toBe('LIONS 3-1 TIGERS');
    expect(log[0]).toBe('load {"home":{"name":"LIONS","score":3},"away":{"name":"TIGERS","score":1}}');
    feed!.frame({ inputs: { away_score: 2 } });
    await expect.poll(() => inFrame(frame, '.score', 'text')).toBe('LIONS 3-2 TIGERS');
    expect(log.at(-1)).toBe(
      'updateAction {"data":{"home":{"name":"LIONS","score":3},"away":{"name":"TIGERS","score":2}}}',
    );
  });

  it('reports a graphic that throws in load as an output error, and draws the other layers', async () => {
    await start([entry(NATIVE), entry(BROKEN)]);
    const { page, log } = await open();
    await expect.poll(errorsReported).toContain('graphic test-broken-load@0.0.1: load: cannot load the sponsor logo');
    expect(await page.evaluate(() => document.body.innerText)).toContain('NATIVE');
    // No action reaches a graphic that did not load.
    expect(log).toEqual(['load {}']);
  });

  it('gives up a stopAction that never resolves, and the layer takes the next graphic meanwhile', async () => {
    await start([entry(STUCK)]);
    const { page, log } = await open();
    await graphicFrame(page, 50);
    await expect.poll(() => log).toContain('playAction {"goto":0,"skipAnimation":true}');
    feed!.frame({ program: [] });
    await expect.poll(() => log.at(-1)).toBe('stopAction {}');
    // The next graphic on the same layer is drawn at once, over the one still leaving.
    feed!.frame({ program: [entry(BUG, { layer: 50, since: new Date().toISOString() })] });
    await expect.poll(() => iframes(page, 50)).toBe(2);
    const bug = await graphicFrame(page, 50);
    await expect.poll(() => inFrame(bug, '.bug', 'visibility')).toBe('visible');
    // After the action timeout (10 s) the stuck one is disposed and gone, and the report says why.
    await expect.poll(() => iframes(page, 50), { timeout: 25_000 }).toBe(1);
    expect(log).toContain('dispose {}');
    await expect
      .poll(errorsReported)
      .toContain('graphic test-stuck-stop@1.0.0: stopAction: stopAction did not settle within 10000 ms');
  }, 45_000);

  it('draws a rundown item cued on the preview bus with its own values, at its first step, settled', async () => {
    await start();
    feed!.channel.preview = [{ sceneId: 'lower', layer: 10, itemId: 'it_1', values: { name: 'Cued Guest' } }];
    const { page, log } = await open('bus=preview');
    const frame = await graphicFrame(page, 10);
    await expect.poll(() => inFrame(frame, '.name', 'opacity')).toBe('1');
    expect(await inFrame(frame, '.name', 'text')).toBe('Cued Guest');
    expect(log.filter((l) => l.startsWith('playAction'))).toEqual(['playAction {"goto":0,"skipAnimation":true}']);
  });

  it("runs the graphic's code apart from the page: no token, no page, no storage", async () => {
    await start([entry(LOWER)]);
    const { page } = await open();
    const frame = await graphicFrame(page, 10);
    await expect.poll(() => inFrame(frame, '.name', 'opacity')).toBe('1');
    const seen = await frame.evaluate(() => {
      const tryRead = (read: () => unknown) => {
        try {
          return String(read());
        } catch {
          return 'refused';
        }
      };
      return {
        origin: self.origin,
        referrer: document.referrer,
        url: location.href,
        parentDocument: tryRead(() => window.parent.document.title),
        parentState: tryRead(() => (window.parent as unknown as { __onair: unknown }).__onair),
        storage: tryRead(() => localStorage.length),
        cookie: tryRead(() => document.cookie),
      };
    });
    expect(seen).toMatchObject({ origin: 'null', referrer: '', parentDocument: 'refused', parentState: 'refused' });
    expect(seen.storage).toBe('refused');
    expect(seen.cookie).toBe('refused');
    expect(seen.url).not.toContain('token');
    expect(seen.url).toMatch(/\/render\/assets\/graphic-host-[0-9A-F]+\.html$/);
  });
});
