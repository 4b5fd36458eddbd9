/**
 * A crawl element (docs/scenes.md, "crawl") as the real output page draws it, in Chromium, from a real server: the
 * rows of a list input on one line that enters from the right edge of its box and moves left at its speed, loops
 * without a jump, and, when the list changes, keeps what is on screen moving as it was while the new items follow.
 *
 * The page records, on every display frame, the document timeline's time and each run of text reaching into the
 * crawl's box with its left edge. Between two frames every run still in the box must have moved left by exactly
 * speed × time (2 px of slack): a jump back, a gap at the loop point or a restart on a list change all break that.
 * The positions follow the animations' time, not the wall clock, so a busy machine drops frames but never fails it.
 * The built-in ticker is checked the same way at its own speed, and through preview, a take and a clear.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Where a crawl's box is on the 1920×1080 stage, and how fast it goes. */
interface Geometry {
  x: number;
  width: number;
  speed: number;
}

const BOX: Geometry = { x: 200, width: 1000, speed: 400 };
/** The built-in ticker's crawl (src/templates/ticker.ts). */
const TICKER: Geometry = { x: 96, width: 1728, speed: 120 };
const ITEMS = { name: 'items', type: 'list', label: 'Items', columns: [{ name: 'text', type: 'text' }] };
const CRAWL = {
  type: 'crawl',
  name: 'crawl',
  list: 'items',
  text: '{text}',
  separator: ' | ',
  speed: BOX.speed,
  x: BOX.x,
  y: 900,
  width: BOX.width,
  height: 60,
  fontSize: 40,
  fontFamily: 'Inter',
};

interface Run {
  text: string;
  x: number;
  width: number;
}
interface Frame {
  t: number;
  runs: Run[];
}

let server: TestServer;
let call: Api;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  call = api(server.url, server.key);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function crawlOnAir(
  items: string[],
): Promise<{ channel: Channel; setItems: (items: string[]) => Promise<void> }> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Crawl' }), 201);
  const ch = `/v1/channels/${channel.id}`;
  const definition = { inputs: [ITEMS], elements: [CRAWL] };
  const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: 'Crawl', definition }), 201);
  const setItems = async (next: string[]) => {
    expectStatus(await call('PATCH', `${ch}/inputs`, { items: next.map((text) => ({ text })) }), 200);
  };
  await setItems(items);
  expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
  return { channel, setItems };
}

/** Records every display frame's runs in the crawl's box, stage pixels from its left edge. */
function record(box: { x: number; width: number }): void {
  const frames: { t: number; runs: { text: string; x: number; width: number }[] }[] = [];
  (window as unknown as { __crawl: typeof frames }).__crawl = frames;
  const frame = () => {
    const crawl = document.querySelector('[data-type="crawl"]');
    const t = document.timeline.currentTime;
    if (crawl && typeof t === 'number') {
      const runs = [...crawl.querySelectorAll('div')]
        .filter((el) => el.childElementCount === 0 && el.textContent !== '')
        .map((el) => {
          const rect = el.getBoundingClientRect();
          return { text: el.textContent ?? '', x: rect.left - box.x, width: rect.width };
        })
        .filter((r) => r.x < box.width && r.x + r.width > 0)
        .sort((a, b) => a.x - b.x);
      frames.push({ t, runs });
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Lists every Element.animate call but the crawl's: `in` plays on a scene's units, `out` on its root. */
function listTransitions(): void {
  const played: string[] = [];
  (window as unknown as { __played: string[] }).__played = played;
  const proto = Element.prototype as { animate: (this: Element, ...args: Parameters<Element['animate']>) => Animation };
  const native = proto.animate;
  proto.animate = function (this: Element, ...args) {
    const options = args[1];
    const id = typeof options === 'object' ? options.id : undefined;
    if (id !== 'crawl') played.push((this as HTMLElement).dataset.scene === undefined ? 'in' : 'out');
    return native.apply(this, args);
  };
}

async function openOutput(url: string, box: Geometry = BOX, more?: () => void): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.addInitScript(record, box);
  if (more) await page.addInitScript(more);
  await page.goto(url);
  return page;
}

const frames = (page: Page) => page.evaluate(() => (window as unknown as { __crawl: Frame[] }).__crawl);

/** The frames seen until `until` holds for the latest one (polled), within `timeoutMs`. */
async function framesUntil(page: Page, until: (f: Frame) => boolean, timeoutMs = 20_000): Promise<Frame[]> {
  let all: Frame[] = [];
  await expect
    .poll(
      async () => {
        all = await frames(page);
        const last = all[all.length - 1];
        return last !== undefined && until(last);
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true);
  return all;
}

/** Every run still in the box one frame later has moved left by speed × time, to within 2 px. */
function jumps(all: Frame[], box: Geometry = BOX): string[] {
  const found: string[] = [];
  for (let i = 1; i < all.length; i++) {
    const [before, after] = [all[i - 1]!, all[i]!];
    const moved = (box.speed * (after.t - before.t)) / 1000;
    for (const run of before.runs) {
      const x = run.x - moved;
      if (x + run.width <= 2 || x >= box.width - 2) continue;
      if (!after.runs.some((r) => r.text === run.text && Math.abs(r.x - x) <= 2)) {
        const seen = after.runs.map((r) => `${r.text.trim()}@${r.x.toFixed(1)}`).join(', ');
        found.push(`t=${after.t.toFixed(0)}: "${run.text.trim()}" expected at ${x.toFixed(1)}, saw ${seen}`);
      }
    }
  }
  return found;
}

/** The screen is covered from the box's left edge to its right, no gap between runs. */
function covered(frame: Frame): boolean {
  let reach = 0;
  for (const run of frame.runs) {
    if (run.x > reach + 1) return false;
    reach = Math.max(reach, run.x + run.width);
  }
  return reach >= BOX.width - 1;
}

describe('a crawl on the output page', () => {
  it('enters from the right, draws the items in order, moves at its speed and loops without a jump', async () => {
    const { channel } = await crawlOnAir(['Alpha', 'Beta']);
    const page = await openOutput(channel.outputUrl);
    try {
      // It enters from the right edge, then loops: a cycle of two short items takes under a second.
      const first = await framesUntil(page, (f) => f.runs.length > 0);
      const entering = first[first.length - 1]!;
      expect(entering.runs[0]!.x).toBeGreaterThan(BOX.width * 0.8);
      expect(entering.runs[0]!.text).toBe('Alpha | Beta | ');
      // In by 2.5 s (1000 px at 400 px/s), then three seconds of loops.
      const leadInMs = (BOX.width / BOX.speed) * 1000;
      const start = entering.t;
      const all = await framesUntil(page, (f) => f.t - start > leadInMs + 3_000);
      const looping = all.filter((f) => f.t - start > leadInMs + 100);
      expect(looping.length).toBeGreaterThan(10);
      expect(looping.every(covered), 'a gap in the line').toBe(true);
      expect(looping.every((f) => f.runs[0]!.x <= 0 && f.runs[0]!.x > -f.runs[0]!.width)).toBe(true);
      expect(jumps(all.filter((f) => f.t >= start))).toEqual([]);
      // Only transform moves it, and on the animations' clock: the speed cannot depend on the frame rate.
      const keys = await page.evaluate(() =>
        document.getAnimations().flatMap((a) =>
          (a.effect as KeyframeEffect)
            .getKeyframes()
            .flatMap((k) =>
              Object.keys(k).filter((key) => !['offset', 'easing', 'composite', 'computedOffset'].includes(key)),
            )
            .map((key) => `${a.id}:${key}`),
        ),
      );
      expect(new Set(keys)).toEqual(new Set(['crawl:transform']));
    } finally {
      await page.close();
    }
  });

  it('keeps what is on screen moving when the list changes, and runs the new items in after it', async () => {
    const { channel, setItems } = await crawlOnAir(['Alpha', 'Beta']);
    const page = await openOutput(channel.outputUrl);
    try {
      const before = await framesUntil(page, (f) => covered(f));
      const changedAt = before[before.length - 1]!.t;
      await setItems(['Gamma', 'Delta', 'Epsilon']);
      const all = await framesUntil(page, (f) => f.runs.some((r) => r.text === 'Gamma | Delta | Epsilon | '));
      const after = all.filter((f) => f.t >= changedAt - 500);
      expect(jumps(after)).toEqual([]);
      // The new items come in from beyond the right edge, after the old ones, never over them.
      const firstNew = after.find((f) => f.runs.some((r) => r.text.startsWith('Gamma')))!;
      const newRun = firstNew.runs.find((r) => r.text.startsWith('Gamma'))!;
      expect(newRun.x).toBeGreaterThan(BOX.width - 2 - (BOX.speed * 100) / 1000);
      expect(covered(firstNew)).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('draws nothing for an empty list, and lets the last items crawl out when it is emptied', async () => {
    const { channel, setItems } = await crawlOnAir([]);
    const page = await openOutput(channel.outputUrl);
    try {
      // Recorded frames start once the crawl element is on the page: drawn, with nothing in it.
      const empty = await framesUntil(page, () => true);
      expect(empty.every((f) => f.runs.length === 0)).toBe(true);
      await setItems(['Only']);
      await framesUntil(page, (f) => f.runs.some((r) => r.text === 'Only | ' && r.x < BOX.width / 2));
      await setItems([]);
      const out = await framesUntil(page, (f) => f.runs.length === 0);
      expect(jumps(out)).toEqual([]);
      // Nothing left moving: the loop went with the items.
      const running = () =>
        page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
      await expect.poll(running, { timeout: 10_000 }).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('in the ticker template: its items crawl in at 120 px/s, and a new list does not move them', async () => {
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Ticker' }), 201);
    const ch = `/v1/channels/${channel.id}`;
    const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: 'Ticker', template: 'ticker' }), 201);
    const items = (texts: string[]) => ({ items: texts.map((text) => ({ text })) });
    expectStatus(await call('PATCH', `${ch}/inputs`, items(['Storm warning for the coast', 'Rail strike off'])), 200);
    expectStatus(await call('POST', `${ch}/program`, { sceneId: scene.id }), 200);
    const page = await openOutput(channel.outputUrl, TICKER);
    try {
      const first = await framesUntil(page, (f) => f.runs.length > 0);
      const run = first[first.length - 1]!.runs[0]!;
      expect(run.text).toBe('Storm warning for the coast     •     Rail strike off     •     ');
      expect(run.x).toBeGreaterThan(TICKER.width * 0.8);
      const start = first[first.length - 1]!.t;
      await framesUntil(page, (f) => f.t - start > 1_500);
      expectStatus(await call('PATCH', `${ch}/inputs`, items(['Markets close higher'])), 200);
      const all = await framesUntil(page, (f) => f.t - start > 4_000);
      const moved = all.filter((f) => f.t >= start);
      expect(jumps(moved, TICKER)).toEqual([]);
      // 2.5 s on, the first item is 300 px further left (by the animations' clock: to within a pixel or two).
      const later = moved[moved.length - 1]!;
      const storm = later.runs.find((r) => r.text.startsWith('Storm'))!;
      expect(storm.x).toBeCloseTo(run.x - (TICKER.speed * (later.t - start)) / 1000, -1);
      const fresh = await framesUntil(page, (f) => f.runs.some((r) => r.text.startsWith('Markets')), 30_000);
      expect(
        jumps(
          fresh.filter((f) => f.t >= start),
          TICKER,
        ),
      ).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('in the ticker template: crawls in preview, is taken to program with its wipe and cleared with it', async () => {
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Ticker buses' }), 201);
    const ch = `/v1/channels/${channel.id}`;
    const scene = expectStatus(await call<Scene>('POST', `${ch}/scenes`, { name: 'Ticker', template: 'ticker' }), 201);
    expectStatus(await call('PATCH', `${ch}/inputs`, { items: [{ text: 'Cued item' }] }), 200);
    expectStatus(await call('POST', `${ch}/preview`, { sceneId: scene.id }), 200);
    const [preview, program] = await Promise.all([
      openOutput(`${channel.previewUrl}&clean=1`, TICKER),
      openOutput(channel.outputUrl, TICKER, listTransitions),
    ]);
    const played = () => program.evaluate(() => (window as unknown as { __played: string[] }).__played);
    try {
      const cued = await framesUntil(preview, (f) => f.runs.length > 0);
      expect(jumps(cued, TICKER)).toEqual([]);
      expect(await frames(program)).toEqual([]);
      expectStatus(await call('POST', `${ch}/take`), 200);
      const taken = await framesUntil(program, (f) => f.runs.length > 0);
      expect(taken[taken.length - 1]!.runs[0]!.text).toBe('Cued item     •     ');
      expect(jumps(taken, TICKER)).toEqual([]);
      expect(await played()).toContain('in');
      expectStatus(await call('POST', `${ch}/clear`), 200);
      await expect.poll(() => program.locator('[data-type="crawl"]').count(), { timeout: 20_000 }).toBe(0);
      expect(await played()).toContain('out');
    } finally {
      await Promise.all([preview.close(), program.close()]);
    }
  });

  it('is refused, field named, when its list is not a list input', async () => {
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Bad crawl' }), 201);
    const definition = { inputs: [{ name: 'title', type: 'text' }], elements: [{ ...CRAWL, list: 'title' }] };
    const res = await call('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Bad', definition });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(errorPaths(problem)[0]).toBe('definition.elements.0.list');
    expect(problem.detail).toContain('a crawl element draws a list input');
  });
});
