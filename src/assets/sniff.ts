/**
 * What an uploaded file is, read from its bytes alone (never its name or the Content-Type it came with): the image
 * formats a browser draws (PNG, JPEG, GIF, WebP, SVG) and WOFF2 fonts, with an image's size when its header says it
 * cheaply. Anything else is refused by the caller.
 */
import type { AssetKind } from '../store/asset-store.js';

export interface Sniffed {
  type: string;
  kind: AssetKind;
  /** The file extension of the asset's URL. */
  ext: string;
  width: number | null;
  height: number | null;
}

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');
const be16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const le16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, at: number) => le16(b, at) | ((b[at + 2] ?? 0) << 16);
const be32 = (b: Uint8Array, at: number) => Buffer.from(b.subarray(at, at + 4)).readUInt32BE(0);

const image = (type: string, ext: string, size: [number, number] | null): Sniffed => ({
  type,
  kind: 'image',
  ext,
  width: size?.[0] ?? null,
  height: size?.[1] ?? null,
});

/** The file's type, or null when it is none of the formats the library takes. */
export function sniff(b: Uint8Array): Sniffed | null {
  if (b.length >= 24 && startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return ascii(b, 12, 16) === 'IHDR' ? image('image/png', 'png', [be32(b, 16), be32(b, 20)]) : null;
  }
  if (b.length >= 4 && startsWith(b, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'jpg', jpegSize(b));
  if (b.length >= 10 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) {
    return image('image/gif', 'gif', [le16(b, 6), le16(b, 8)]);
  }
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') {
    return image('image/webp', 'webp', webpSize(b));
  }
  if (b.length >= 48 && ascii(b, 0, 4) === 'wOF2') {
    return { type: 'font/woff2', kind: 'font', ext: 'woff2', width: null, height: null };
  }
  if (looksLikeSvg(b)) return image('image/svg+xml', 'svg', null);
  return null;
}

/** The size in the first start-of-frame marker, walking the segments (no pixel is decoded). */
function jpegSize(b: Uint8Array): [number, number] | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return [be16(b, at + 7), be16(b, at + 5)];
    at += 2 + be16(b, at + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): [number, number] | null {
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) return [le24(b, 24) + 1, le24(b, 27) + 1];
  if (chunk === 'VP8 ' && b.length >= 30) return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  return null;
}

/**
 * An SVG is UTF-8 text whose first element is `<svg`: after an optional BOM, XML declaration, comments and white
 * space. A DOCTYPE (which can declare entities) is not taken.
 */
export function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, 4096)).replace(/^\uFEFF/, '');
  const prologue = /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/.exec(head)?.[0] ?? '';
  return /^<svg[\s>/]/.test(head.slice(prologue.length));
}
