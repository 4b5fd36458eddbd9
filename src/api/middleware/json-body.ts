/**
 * Reads and parses a JSON request body once, with clear errors: 415 for a body that is not JSON,
 * 400 for malformed JSON or a string holding U+0000 (../../nul-char.ts), 413 past the size limit (the transport also
 * stops reading there).
 */
import { BODY_LIMIT_RULE, MAX_BODY_BYTES } from '@onair/protocol';
import type { MiddlewareHandler } from 'hono';
import { bufferedBody } from '../../http/buffered-body.js';
import { AppError } from '../../errors.js';
import { MAX_JSON_DEPTH, nestingDepth } from '../../json-depth.js';
import { nulInJson } from '../../nul-char.js';
import { readUpload } from '../assets/upload-body.js';
import { GRAPHIC_UPLOAD_PATH, readGraphicUpload } from '../graphics/graphic-upload.js';
import type { ApiEnv } from '../env.js';

/** Routes that read their body themselves, as bytes. */
export const RAW_BODY_PREFIX = '/v1/hooks/';
/** Asset uploads: a form or a file, under their own cap (the transport's, ONAIR_ASSET_MAX_BYTES), never JSON. */
export const UPLOAD_PATH = '/v1/assets';
const decoder = new TextDecoder();
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

export function jsonBody(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const buffered = bufferedBody(c.req.raw);
    if (c.req.method === 'POST' && c.req.path === UPLOAD_PATH) {
      const raw = buffered ?? new Uint8Array(await c.req.arrayBuffer());
      const upload = await readUpload(raw, c.req.header('content-type'), c.req.url);
      c.set('body', upload);
      return next();
    }
    if (c.req.method === 'POST' && c.req.path === GRAPHIC_UPLOAD_PATH) {
      const raw = buffered ?? new Uint8Array(await c.req.arrayBuffer());
      c.set('body', await readGraphicUpload(raw, c.req.header('content-type')));
      return next();
    }
    if (c.req.path.startsWith(RAW_BODY_PREFIX)) {
      // Incoming webhooks verify signatures over the exact bytes and log what was wrong with a body.
      const raw = buffered ?? new Uint8Array(await c.req.arrayBuffer());
      if (raw.byteLength > MAX_BODY_BYTES) throw new AppError('payload_too_large', BODY_LIMIT_RULE);
      c.set('rawBody', raw);
      return next();
    }
    const text = buffered ? decoder.decode(buffered) : await c.req.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new AppError('payload_too_large', BODY_LIMIT_RULE);
    if (text.length === 0) {
      // No body at all: validators of an optional body see `{}` rather than failing to parse nothing, so
      // `POST …/take` with or without `Content-Type: application/json` means the same.
      c.req.bodyCache.json = Promise.resolve({});
      return next();
    }
    const parsed = parseJsonBody(text, c.req.header('content-type'));
    c.set('body', parsed);
    // Validators downstream read c.req.json(): hand them the parsed value instead of parsing again.
    c.req.bodyCache.json = Promise.resolve(parsed);
    return next();
  };
}

/** The checks every JSON body passes, shared with the transport's fast path for PATCH …/inputs. */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (!JSON_TYPE.test(contentType ?? '')) {
    throw new AppError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError('invalid_request', `JSON nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError('invalid_request', `Malformed JSON: ${(err as Error).message}`);
  }
  const nul = nulInJson(text, parsed);
  if (nul) throw nul;
  return parsed;
}
