/**
 * Security headers of the HTML pages, and the pages still working under them in headless Chromium: no
 * Content-Security-Policy violation on any page, the API reference renders, the output page draws, and
 * only the output page may be framed (by this origin).
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, createChannelWithScoreboard } from './helpers/api.js';
import { launchChromium } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const OWN_PAGES = ['/', '/docs', '/setup', '/invite', '/reset'];

let server: TestServer;
let browser: Browser | undefined;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await browser?.close();
  await server.dispose();
});

async function outputPath(): Promise<string> {
  const { channelId, token } = await createChannelWithScoreboard(api(server.url, server.key), 'Security');
  return `/render/${channelId}?token=${token}`;
}

/** The policy's directives by name. */
function directives(policy: string | null): Map<string, string[]> {
  const entries = (policy ?? '').split(';').map((d) => d.trim().split(/\s+/));
  return new Map(entries.filter((d) => d[0]).map(([name, ...values]) => [name!, values]));
}

function expectCommonHeaders(res: Response, path: string): Map<string, string[]> {
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
  expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src'), path).toEqual(["'self'"]);
  expect(res.headers.get('content-security-policy'), path).not.toContain('unsafe-');
  return csp;
}

describe('HTML page headers', () => {
  it.each(OWN_PAGES)('%s: self-only policy, never framed, no referrer, no sniffing', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    const csp = expectCommonHeaders(res, path);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.has('script-src')).toBe(false); // default-src 'self' alone: no inline script anywhere
    expect(csp.has('style-src')).toBe(false);
    // Nothing inline that the policy would block: no <style>, no <script> without src, no style="" or onX="".
    const html = await res.text();
    expect(html).not.toMatch(/<style|<script(?![^>]*\ssrc=)[^>]*>|\sstyle=|\son[a-z]+=/i);
  });

  it('the output page may be framed by this origin only, and its inline loader and style are allowed by hash', async () => {
    const path = await outputPath();
    const res = await fetch(`${server.url}${path}`);
    const csp = expectCommonHeaders(res, '/render/:channelId');
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(csp.get('script-src')?.slice(1)).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
    expect(csp.get('style-src')?.slice(1)).toEqual([expect.stringMatching(/^'sha256-/)]);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('every static file is served with nosniff', async () => {
    for (const path of ['/account.css', '/account.js', '/docs/assets/swagger-ui.css']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

/** Records every CSP violation on the page, from before its first script runs. */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  browser ??= await launchChromium();
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy: ${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  return { page, violations: async () => violations };
}

describe('pages under their policy in headless Chromium', () => {
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
  });

  it('the landing, setup and invitation pages load their own stylesheets with no violation', async () => {
    const { page, violations } = await watchedPage();
    for (const path of ['/', '/setup', '/invite', '/reset']) {
      await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      const styled = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
      expect(styled, path).toContain('system-ui');
    }
    expect(await violations()).toEqual([]);
  });

  it('the API reference renders with no violation', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${server.url}/docs`);
    await expect
      .poll(() => page.locator('.swagger-ui .info .title').textContent(), { timeout: 15_000 })
      .toContain('onair API');
    await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(5);
    expect(await violations()).toEqual([]);
  });

  it('the output page draws with no violation, framed by this origin; the other pages refuse to be framed', async () => {
    const path = await outputPath();
    const { page, violations } = await watchedPage();
    await page.goto(`${server.url}${path}`);
    await expect.poll(() => page.evaluate(() => window.__onair?.status()), { timeout: 15_000 }).toBe('open');
    await expect.poll(() => page.evaluate(() => document.body.innerText)).toContain('HOME');

    await page.goto(`${server.url}/`);
    const framed = await frame(page, path);
    await expect.poll(() => framed.evaluate(() => window.__onair?.status()), { timeout: 15_000 }).toBe('open');
    expect(await violations()).toEqual([]);

    const refused = await frame(page, '/docs');
    await expect.poll(() => refused.url()).toMatch(/^chrome-error:/);
  });
});

/** Adds an iframe showing `path` to the page and returns its frame. */
async function frame(page: Page, path: string): Promise<Frame> {
  const name = `f${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ([src, id]) => {
      const el = document.createElement('iframe');
      el.name = id;
      el.src = src;
      document.body.append(el);
    },
    [path, name] as const,
  );
  await expect.poll(() => page.frame({ name }) !== null).toBe(true);
  return page.frame({ name })!;
}
