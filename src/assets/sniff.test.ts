import { describe, expect, it } from 'vitest';
import { sniff } from './sniff.js';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000' + '00'.repeat(20), 'hex');
const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([5, 0, 7, 0]), Buffer.alloc(10)]);
const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0001108000c000a03012200021101031101', 'hex');
const webp = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.alloc(4),
  Buffer.from('WEBPVP8X'),
  Buffer.alloc(8),
  Buffer.from([9, 0, 0, 4, 0, 0]),
]);
const woff2 = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(60)]);

describe('sniff', () => {
  it.each([
    ['PNG', png, 'image/png', 'png', 3, 2],
    ['GIF', gif, 'image/gif', 'gif', 5, 7],
    ['JPEG', jpeg, 'image/jpeg', 'jpg', 10, 12],
    ['WebP', webp, 'image/webp', 'webp', 10, 5],
  ])('reads %s and its size from the header', (_, bytes, type, ext, width, height) => {
    expect(sniff(bytes)).toEqual({ type, kind: 'image', ext, width, height });
  });

  it('reads WOFF2 as a font', () => {
    expect(sniff(woff2)).toMatchObject({ type: 'font/woff2', kind: 'font', ext: 'woff2' });
  });

  it.each([
    ['<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n  <svg width="1"></svg>'],
  ])('reads SVG text: %s', (text) => {
    expect(sniff(Buffer.from(text))).toMatchObject({ type: 'image/svg+xml', ext: 'svg' });
  });

  it.each([
    ['HTML', '<html><script>1</script></html>'],
    ['text that mentions svg later', 'hello <svg></svg>'],
    ['a DOCTYPE first', '<!DOCTYPE svg><svg></svg>'],
    ['an svgfoo element', '<svgfoo/>'],
    ['a truncated PNG signature', '\x89PNG'],
  ])('refuses %s', (_, text) => {
    expect(sniff(Buffer.from(text, 'latin1'))).toBeNull();
  });
});
