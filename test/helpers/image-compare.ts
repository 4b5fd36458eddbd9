/**
 * Compares two screenshots with a tolerance, for the reference-image tests: a pixel differs when any of its
 * four channels is off by more than `channelTolerance`; the images match when at most `maxDifferingShare` of
 * the pixels differ. Antialiasing that shifts between machines touches a few edge pixels by a little; a moved,
 * missing or recoloured element touches many by a lot. Also writes RGBA PNGs (the references and the diff
 * image a failure leaves behind), without an image library.
 */
import { crc32, deflateSync } from 'node:zlib';
import { decodePng } from './png.js';

export interface Rgba {
  width: number;
  height: number;
  /** width × height × 4 bytes, row by row, straight (not premultiplied) alpha. */
  data: Uint8Array;
}

export interface Comparison {
  /** Pixels off by more than the tolerance in at least one channel. */
  differing: number;
  /** differing / all pixels, 0–1. */
  share: number;
  /**
   * Differing pixels whose eight neighbours all differ too. Antialiasing differences run along edges, one or
   * two pixels wide; a changed digit, a moved box or a missing image leaves blobs.
   */
  solid: number;
  /** The largest channel difference seen anywhere. */
  maxDelta: number;
  /** The expected image faded to grey, with the differing pixels in red: where to look. */
  diff: Rgba;
}

export function readRgba(png: Buffer): Rgba {
  const pixels = decodePng(png);
  const data = new Uint8Array(pixels.width * pixels.height * 4);
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) data.set(pixels.at(x, y), (y * pixels.width + x) * 4);
  }
  return { width: pixels.width, height: pixels.height, data };
}

export function compareImages(actual: Rgba, expected: Rgba, channelTolerance: number): Comparison {
  const { width, height } = expected;
  if (actual.width !== width || actual.height !== height) {
    throw new Error(`size ${actual.width}×${actual.height}, expected ${width}×${height}`);
  }
  const differs = new Uint8Array(width * height);
  const diff = new Uint8Array(expected.data.length);
  let differing = 0;
  let maxDelta = 0;
  for (let p = 0; p < differs.length; p++) {
    const i = p * 4;
    let delta = 0;
    for (let c = 0; c < 4; c++) delta = Math.max(delta, Math.abs(actual.data[i + c]! - expected.data[i + c]!));
    maxDelta = Math.max(maxDelta, delta);
    if (delta > channelTolerance) {
      differs[p] = 1;
      differing += 1;
      diff.set([255, 0, 0, 255], i);
    } else {
      // The expected pixel as a pale grey over white, so the red stands out but the layout can be read.
      const grey = (expected.data[i]! + expected.data[i + 1]! + expected.data[i + 2]!) / 3;
      const shade = Math.round(255 - ((255 - grey) * expected.data[i + 3]!) / 255 / 3);
      diff.set([shade, shade, shade, 255], i);
    }
  }
  return {
    differing,
    share: differing / differs.length,
    solid: solidPixels(differs, width, height),
    maxDelta,
    diff: { width, height, data: diff },
  };
}

/** Set pixels of the mask whose eight neighbours are set too: the inside of a blob. */
function solidPixels(mask: Uint8Array, width: number, height: number): number {
  let solid = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      let all = true;
      for (let dy = -1; dy <= 1 && all; dy++) {
        for (let dx = -1; dx <= 1 && all; dx++) all = mask[(y + dy) * width + x + dx] === 1;
      }
      if (all) solid += 1;
    }
  }
  return solid;
}

/** The pixel's alpha (0–255). */
export function alphaAt(image: Rgba, x: number, y: number): number {
  return image.data[(y * image.width + x) * 4 + 3]!;
}

/** An 8-bit RGBA, non-interlaced PNG: every row unfiltered, deflated at the highest level. */
export function encodePng(image: Rgba): Buffer {
  const stride = image.width * 4;
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(image.data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}
