/**
 * Reads an OGraf graphic upload (docs/ograf.md, "Importing"): the zip as the body (`Content-Type: application/zip`, or
 * any type but JSON), or `multipart/form-data` with one or more `graphic` parts: one zip, or the package's files, each
 * part's file name being its path in the package (`lib/gsap.js`). Its size was capped by the transport
 * (ONAIR_GRAPHIC_UPLOAD_MAX_BYTES, and room for the form); what the parts hold is read by the operation.
 */
import { MAX_BODY_BYTES } from '@onair/protocol';
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';

export interface GraphicUpload {
  parts: { name: string; data: Uint8Array }[];
}

export const GRAPHIC_UPLOAD_PATH = '/v1/graphics';
const MULTIPART = /^multipart\/form-data\s*;/i;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** The upload, or why it cannot be read: returned, not thrown, so that the route answers it after the guard. */
export async function readGraphicUpload(
  raw: Uint8Array,
  contentType: string | undefined,
): Promise<GraphicUpload | AppError> {
  try {
    const upload = MULTIPART.test(contentType ?? '')
      ? await fromForm(raw, contentType!)
      : { parts: [{ name: 'upload.zip', data: raw }] };
    if (JSON_TYPE.test(contentType ?? '')) {
      throw new AppError(
        'invalid_request',
        'Upload the graphic as a zip body or a multipart/form-data form, not JSON.',
      );
    }
    if (upload.parts.every((p) => p.data.byteLength === 0)) {
      throw new AppError(
        'invalid_request',
        'The upload is empty: send the zip as the body, or `graphic` parts in a form.',
      );
    }
    // The idempotency fingerprint stringifies the body: the bytes count through their hash there.
    return Object.defineProperty(upload, 'toJSON', {
      value: () => ({ parts: upload.parts.map((p) => ({ name: p.name, hash: hashOf(p.data) })) }),
      enumerable: false,
    });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

async function fromForm(raw: Uint8Array, contentType: string): Promise<GraphicUpload> {
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('invalid_request', 'The multipart/form-data body could not be read.');
  }
  const files = form.getAll('graphic').filter((f): f is File => f instanceof Blob);
  if (files.length === 0) {
    throw new AppError('invalid_request', 'The form has no `graphic` field holding a file.', {
      errors: [{ path: 'graphic', message: 'required: a zip, or the files of the graphic' }],
    });
  }
  const parts = await Promise.all(
    files.map(async (f) => ({ name: f.name || 'upload.zip', data: new Uint8Array(await f.arrayBuffer()) })),
  );
  return { parts };
}

function hashOf(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The transport's cap on a graphic upload's body (../../transport/server.ts), and what a 413 past it says. */
export function graphicUploadCap(limits: { graphicUploadMaxBytes: number }): {
  path: string;
  maxBodyBytes: number;
  rule: string;
} {
  return {
    path: GRAPHIC_UPLOAD_PATH,
    maxBodyBytes: limits.graphicUploadMaxBytes + MAX_BODY_BYTES,
    rule: `A graphic upload is at most ${limits.graphicUploadMaxBytes} bytes (ONAIR_GRAPHIC_UPLOAD_MAX_BYTES), with 64 KiB for a form around it.`,
  };
}
