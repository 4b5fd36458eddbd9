/**
 * Reads an asset upload: `multipart/form-data` with a `file` field (and an optional `name`), or the file's bytes as
 * the body with `?name=`. Its size was capped by the transport (ONAIR_ASSET_MAX_BYTES and room for the form); what
 * the file is, is read from its bytes later, whatever the Content-Type says.
 */
import { MAX_BODY_BYTES } from '@onair/protocol';
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';

export interface Upload {
  name: string;
  data: Uint8Array;
}

const MULTIPART = /^multipart\/form-data\s*;/i;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * The upload, or why it cannot be read: returned, not thrown, so that the route answers it after the guard (a caller
 * without the permission gets 403 whatever it sent; docs/api.md, "The order of checks").
 */
export async function readUpload(
  raw: Uint8Array,
  contentType: string | undefined,
  url: string,
): Promise<Upload | AppError> {
  try {
    return await parseUpload(raw, contentType, url);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

async function parseUpload(raw: Uint8Array, contentType: string | undefined, url: string): Promise<Upload> {
  if (JSON_TYPE.test(contentType ?? '')) {
    throw new AppError(
      'invalid_request',
      'Upload the file as multipart/form-data (a `file` field) or as the raw bytes of the body, not as JSON.',
    );
  }
  const upload = MULTIPART.test(contentType ?? '')
    ? await fromForm(raw, contentType!)
    : { name: new URL(url).searchParams.get('name') ?? 'upload', data: raw };
  if (upload.data.byteLength === 0) {
    throw new AppError('invalid_request', 'The upload is empty: send the file as `file` in a form, or as the body.');
  }
  // The idempotency fingerprint stringifies the body: the bytes count through their hash there, not one by one.
  return Object.defineProperty(upload, 'toJSON', {
    value: () => ({ name: upload.name, bytes: upload.data.byteLength, hash: hashOf(upload.data) }),
    enumerable: false,
  });
}

async function fromForm(raw: Uint8Array, contentType: string): Promise<Upload> {
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('invalid_request', 'The multipart/form-data body could not be read.');
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) {
    throw new AppError('invalid_request', 'The form has no `file` field holding a file.', {
      errors: [{ path: 'file', message: 'required: a file' }],
    });
  }
  const named = form.get('name');
  const name =
    typeof named === 'string' && named.trim() ? named : file instanceof File && file.name ? file.name : 'upload';
  return { name, data: new Uint8Array(await file.arrayBuffer()) };
}

function hashOf(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Room for a form's boundaries and part headers around the file: as much as a whole JSON body may take. */
const FORM_OVERHEAD = MAX_BODY_BYTES;

/** The transport's cap on an upload's body (../../transport/server.ts), and what a 413 past it says. */
export function uploadCap(limits: { assetMaxBytes: number }): { path: string; maxBodyBytes: number; rule: string } {
  return {
    path: '/v1/assets',
    maxBodyBytes: limits.assetMaxBytes + FORM_OVERHEAD,
    rule: `An asset is at most ${limits.assetMaxBytes} bytes (ONAIR_ASSET_MAX_BYTES), with 64 KiB for a form around it.`,
  };
}
