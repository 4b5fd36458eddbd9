import { afterEach, describe, expect, it } from 'vitest';
import { assetUrl, configureAssetAccess, imageUrl } from './asset-urls.js';

const SHA = 'e1'.repeat(32);

describe('asset URLs', () => {
  afterEach(() => configureAssetAccess('', '', null));

  it("loads an asset, by its path or a URL on any host, from this page's server with its output token", () => {
    configureAssetAccess('http://onair.local:8080', 'ch_1', 'tok');
    const expected = `http://onair.local:8080/assets/${SHA}.png?channel=ch_1&token=tok`;
    expect(imageUrl(`/assets/${SHA}.png`)).toBe(expected);
    expect(imageUrl(`https://old-host.example/assets/${SHA}.png`)).toBe(expected);
    expect(assetUrl(`/assets/${SHA}.woff2`)).toBe(`http://onair.local:8080/assets/${SHA}.woff2?channel=ch_1&token=tok`);
  });

  it('loads other http(s) URLs as they are, and nothing else', () => {
    configureAssetAccess('http://onair.local:8080', 'ch_1', 'tok');
    expect(imageUrl('https://cdn.example.com/logo.png')).toBe('https://cdn.example.com/logo.png');
    expect(imageUrl('javascript:alert(1)')).toBeNull();
    expect(imageUrl('/render/logo.png')).toBeNull();
  });

  it('adds no token where the page has none (the dashboard preview, with its session)', () => {
    configureAssetAccess('http://onair.local:8080', 'ch_1', null);
    expect(imageUrl(`/assets/${SHA}.gif`)).toBe(`http://onair.local:8080/assets/${SHA}.gif`);
  });
});
