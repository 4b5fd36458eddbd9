/**
 * What a data source's fetch checks of an answer before it is read, and how its body is read: a content type the
 * source's type can be, no compression, at most `maxBytes`, valid UTF-8. Every failure is a FetchProblem, a short
 * sentence for the source's fetch log that never quotes the body (the log must not show what an address answers).
 */
import { createHash } from 'node:crypto';
import type { SourceType } from './source-url.js';

export class FetchProblem extends Error {
  override readonly name = 'FetchProblem';
}

const JSON_TYPES = new Set(['application/json', 'text/json', 'text/plain']);
const CSV_TYPES = new Set([
  'text/csv',
  'application/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** A media type as written in a header, shown back only when it has this shape. */
const MEDIA_TYPE = /^[a-z0-9][\w.+-]{0,63}\/[a-z0-9][\w.+-]{0,63}$/;

const kind = (type: SourceType) => (type === 'json_url' ? 'JSON' : 'CSV');

/** Throws unless the answer's content type may carry this source's type (a missing one may). */
export function checkContentType(type: SourceType, header: string | null): void {
  const media = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === '') return;
  if (type === 'json_url' ? JSON_TYPES.has(media) || /^application\/[\w.-]+\+json$/.test(media) : CSV_TYPES.has(media))
    return;
  if (HTML_TYPES.has(media)) {
    throw new FetchProblem(
      `answered HTML, not ${kind(type)} (a sign-in page, or a sheet that is not published as ${kind(type)}?)`,
    );
  }
  const shown = MEDIA_TYPE.test(media) ? media : 'an unexpected type';
  throw new FetchProblem(`answered ${shown}, not ${kind(type)}`);
}

/** No Accept-Encoding is sent, so a compressed answer is one we cannot cap or read. */
export function checkEncoding(header: string | null): void {
  const encoding = (header ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') throw new FetchProblem('answered compressed content');
}

export interface ReadBody {
  /** Decoded UTF-8, the byte order mark removed. */
  text: string;
  sha256: string;
  bytes: number;
}

/** The whole body, or a FetchProblem once more than `maxBytes` came (reading stops there). */
export async function readBody(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
  counted: (bytes: number) => void,
): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    counted(size);
    if (size > maxBytes) {
      body.destroy();
      throw overCap(maxBytes);
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks, size);
  return { text: decodeUtf8(bytes), sha256: createHash('sha256').update(bytes).digest('hex'), bytes: size };
}

/** Throws when a declared length is already over the cap: nothing need be read. */
export function checkLength(header: string | null, maxBytes: number): void {
  const length = Number(header);
  if (header !== null && Number.isFinite(length) && length > maxBytes) throw overCap(maxBytes);
}

function decodeUtf8(bytes: Buffer): string {
  try {
    // fatal: a wrong byte is an error, not a U+FFFD on air; the decoder drops a leading BOM itself.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FetchProblem('the answer is not valid UTF-8');
  }
}

function overCap(maxBytes: number): FetchProblem {
  return new FetchProblem(`the answer is over the ${sizeText(maxBytes)} cap`);
}

/** `1 MiB`, `512 KiB`, `1000 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
