import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { problemResponse } from '../problem.js';
import { renderRoutes } from './routes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-render-routes-'));
fs.mkdirSync(path.join(dir, 'fonts'));
fs.writeFileSync(path.join(dir, 'fonts', 'inter-latin-400-normal-ABCD1234.woff2'), 'wOF2');
fs.writeFileSync(path.join(dir, 'fonts', 'notes.txt'), 'not a font');
fs.writeFileSync(path.join(dir, 'graphic-host-ABCD.html'), '<!doctype html>');
fs.writeFileSync(path.join(dir, 'render-ABCD.js'), '0');

function app(): Hono<ApiEnv> {
  const a = new Hono<ApiEnv>();
  a.onError((err) => problemResponse(err instanceof AppError ? err : new AppError('internal', 'boom')));
  a.route('/', renderRoutes({ renderer: { dir, html: '<!doctype html>' } } as unknown as ApiDeps));
  return a;
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('renderer asset route', () => {
  it('serves the graphics host page sandboxed, with no Referer, and scripts without', async () => {
    const page = await app().request('/render/assets/graphic-host-ABCD.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const script = await app().request('/render/assets/render-ABCD.js');
    expect(script.headers.get('content-security-policy')).toBeNull();
  });
});

describe('renderer font route', () => {
  it('serves a bundled font as woff2, cached for good (its name carries its hash)', async () => {
    const res = await app().request('/render/fonts/inter-latin-400-normal-ABCD1234.woff2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('wOF2');
  });

  it('answers 404 for names not listed at start, other files, and paths out of the folder', async () => {
    const routes = app();
    fs.writeFileSync(path.join(dir, 'fonts', 'later-EFGH5678.woff2'), 'late');
    for (const name of ['later-EFGH5678.woff2', 'notes.txt', '..%2Fmanifest.json', 'missing.woff2']) {
      expect((await routes.request(`/render/fonts/${name}`)).status, name).toBe(404);
    }
  });

  it('leaves /render/<channelId> to the output page', async () => {
    const res = await app().request('/render/fonts');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });
});
