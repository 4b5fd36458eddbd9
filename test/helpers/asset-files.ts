/** Small real files for asset tests: a solid-colour PNG built with zlib, and an SVG. */
import { deflateSync } from 'node:zlib';
import { createHash } from 'node:crypto';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([head, typed, crc]);
}

/** An 8-bit RGBA PNG of one colour; `pad` adds a comment chunk to make the file bigger. */
export function solidPng(width: number, height: number, rgba: [number, number, number, number], pad = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgba).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const parts = [chunk('IHDR', ihdr), chunk('IDAT', pixels)];
  if (pad > 0) parts.push(chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(pad, 0x61)])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ...parts, chunk('IEND', Buffer.alloc(0))]);
}

export function sha256(bytes: Buffer | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Uploads a file as a form; answers the status and the parsed body. */
export async function uploadForm(
  baseUrl: string,
  key: string,
  file: Buffer,
  name: string,
  type = 'application/octet-stream',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type }), name);
  const res = await fetch(`${baseUrl}/v1/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
