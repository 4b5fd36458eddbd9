/**
 * Reading an OGraf graphic on an output page in Chromium: the `ograf …` lines the test graphics log
 * (test/fixtures/ograf/README.md), the frame a layer's graphic runs in, and what its DOM shows.
 */
import type { ConsoleMessage, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Collects every `ograf <action> <params>` line the page's graphics log, without the `ograf ` prefix, in order. */
export function graphicLog(page: Page): string[] {
  const log: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.text().startsWith('ograf ')) log.push(msg.text().slice('ograf '.length));
  });
  return log;
}

/** The frame of the graphic drawn last on `layer` (the one entering, when another is still leaving). */
export async function graphicFrame(page: Page, layer: number): Promise<Frame> {
  let frame: Frame | null = null;
  await expect
    .poll(async () => {
      const handle = await page.$(`[data-layer="${layer}"] [data-scene]:last-child iframe`);
      frame = (await handle?.contentFrame()) ?? null;
      return frame !== null;
    })
    .toBe(true);
  return frame!;
}

export type FrameRead = 'text' | 'opacity' | 'background' | 'visibility';

/** What the element at `selector` in the graphic's frame shows; null when there is none. */
export function inFrame(frame: Frame, selector: string, what: FrameRead): Promise<string | null> {
  return frame.evaluate(
    ([sel, w]) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      if (w === 'text') return el.textContent;
      const style = getComputedStyle(el);
      return w === 'opacity' ? style.opacity : w === 'background' ? style.backgroundColor : style.visibility;
    },
    [selector, what] as const,
  );
}

/** How many graphic frames `layer` holds (one drawn, and any still leaving). */
export const graphicFrames = (page: Page, layer: number) => page.locator(`[data-layer="${layer}"] iframe`).count();
