import { describe, expect, it } from 'vitest';
import type { PaintedError } from '@onair/protocol';
import { createGraphicAssets } from './graphic-assets.js';

const SHA = 'a'.repeat(64);
const PATH = `/assets/${SHA}.png`;

function harness(answer: (path: string) => Promise<string>) {
  const loads: string[] = [];
  const reported: PaintedError[] = [];
  const assets = createGraphicAssets({
    load: (path) => {
      loads.push(path);
      return answer(path);
    },
    report: (error) => reported.push(error),
  });
  return { assets, loads, reported };
}

describe('graphic assets', () => {
  it('gives a library picture as a data: URL once it has loaded, loading it once', async () => {
    const h = harness(async () => 'data:image/png;base64,AAAA');
    let ready = 0;
    const data = { logo: PATH, team: { flag: `https://cdn.example.com${PATH}` }, name: 'Lions' };
    expect(h.assets.inline(data, () => (ready += 1))).toBeNull();
    expect(h.assets.inline(data, () => (ready += 1))).toBeNull();
    await expect.poll(() => ready).toBe(2);
    expect(h.assets.inline(data, () => undefined)).toEqual({
      logo: 'data:image/png;base64,AAAA',
      team: { flag: 'data:image/png;base64,AAAA' },
      name: 'Lions',
    });
    expect(h.loads).toEqual([PATH]);
  });

  it('passes other URLs and values as they are, at once', () => {
    const h = harness(async () => 'data:,');
    const data = { photo: 'https://example.com/photo.png', n: 3, on: true };
    expect(h.assets.inline(data, () => undefined)).toEqual(data);
    expect(h.loads).toEqual([]);
  });

  it('reports a picture that cannot be loaded and leaves its path', async () => {
    const h = harness(() => Promise.reject(new Error('HTTP 404')));
    let ready = false;
    expect(h.assets.inline({ logo: PATH }, () => (ready = true))).toBeNull();
    await expect.poll(() => ready).toBe(true);
    expect(h.assets.inline({ logo: PATH }, () => undefined)).toEqual({ logo: PATH });
    expect(h.reported).toEqual([{ message: 'graphic asset failed to load', url: PATH }]);
  });
});
