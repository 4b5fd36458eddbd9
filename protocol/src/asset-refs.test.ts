import { describe, expect, it } from 'vitest';
import { assetFontFamily, assetRef, fontAssetRef, imageAssetRef } from './asset-refs.js';

const SHA = '0f'.repeat(32);

describe('asset references', () => {
  it('reads a path, or an http(s) URL on any host whose path is an asset', () => {
    const ref = { sha256: SHA, ext: 'png', path: `/assets/${SHA}.png` };
    expect(assetRef(`/assets/${SHA}.png`)).toEqual(ref);
    expect(assetRef(`https://graphics.example.com/assets/${SHA}.png`)).toEqual(ref);
    expect(assetRef(`http://10.0.0.5:8080/assets/${SHA}.png`)).toEqual(ref);
  });

  it.each([
    ['a query', `https://h.example/assets/${SHA}.png?x=1`],
    ['a fragment', `https://h.example/assets/${SHA}.png#a`],
    ['a user name', `https://u:p@h.example/assets/${SHA}.png`],
    ['a path written around', `https://h.example/x/../assets/${SHA}.png`],
    ['escapes', `https://h.example/assets/${SHA}%2Epng`],
    ['another scheme', `ftp://h.example/assets/${SHA}.png`],
    ['a data: URL', 'data:image/png;base64,AAAA'],
    ['upper-case hex', `/assets/${SHA.toUpperCase()}.png`],
    ['a path elsewhere', `/render/${SHA}.png`],
    ['a relative path', `assets/${SHA}.png`],
  ])('names nothing with %s', (_what, value) => {
    expect(assetRef(value)).toBeNull();
  });

  it('tells images from fonts by the extension the server serves them with', () => {
    expect(imageAssetRef(`/assets/${SHA}.svg`)?.ext).toBe('svg');
    expect(imageAssetRef(`/assets/${SHA}.woff2`)).toBeNull();
    expect(fontAssetRef(`/assets/${SHA}.woff2`)?.path).toBe(`/assets/${SHA}.woff2`);
    expect(fontAssetRef(`/assets/${SHA}.png`)).toBeNull();
    expect(fontAssetRef('Inter')).toBeNull();
    expect(assetFontFamily({ sha256: SHA })).toBe(`onair-asset-${SHA}`);
  });
});
