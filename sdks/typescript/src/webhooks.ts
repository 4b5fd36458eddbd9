/**
 * Webhook signatures (docs/webhooks.md, "Verifying a delivery"; docs/incoming-hooks.md, "Signed posts"):
 *
 *   X-Service-Signature = "v1=" + lowercase hex HMAC-SHA256(key = UTF-8 of the secret, X-Service-Timestamp + "." + raw body)
 *
 * While a subscription's secret is being rolled, a delivery carries two such signatures separated by a space (the
 * new secret's first): it verifies with either secret.
 *
 * Web Crypto only (`crypto.subtle`), so this runs in Node 20+, browsers (secure contexts), Deno, Bun and edge
 * runtimes alike; hence both functions are async.
 */
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';
import { toBytes } from './util.js';

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest difference, in seconds, between the delivery's timestamp and `now`, either way. Default 300. */
  toleranceSeconds?: number;
  /** The clock to check the timestamp against: a Date, or Unix **seconds**. Default: the current time. */
  now?: Date | number;
}

/** The two headers of a signed post. */
export type SignatureHeaders = {
  'X-Service-Timestamp': string;
  'X-Service-Signature': string;
};

const TIMESTAMP = 'x-service-timestamp';
const SIGNATURE = 'x-service-signature';
const DELIVERY = 'x-service-delivery';

/**
 * Verifies a webhook delivery and returns its event, or throws WebhookVerificationError whose `code` says why,
 * checked in this order (`signature_mismatch` when no `v1=` signature in the header is this secret's): `missing_header`, `invalid_timestamp`, `timestamp_out_of_tolerance`,
 * `signature_mismatch`, `invalid_body`, `delivery_mismatch`.
 *
 * Pass the body's raw bytes as received (a Buffer, a Uint8Array, or the exact text), never a re-serialised
 * JSON object. Header names are matched case-insensitively; Node's `req.headers` and a fetch `Headers` both work.
 * After verifying, deduplicate on `event.id` (equal to `X-Service-Delivery`, the same across retries).
 */
export async function verifyWebhook(
  rawBody: Uint8Array | string,
  headers: HeaderBag,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const timestamp = header(headers, TIMESTAMP);
  const signature = header(headers, SIGNATURE);
  const delivery = header(headers, DELIVERY);
  const missing = [
    timestamp === undefined && 'X-Service-Timestamp',
    signature === undefined && 'X-Service-Signature',
    delivery === undefined && 'X-Service-Delivery',
  ].filter(Boolean);
  if (timestamp === undefined || signature === undefined || delivery === undefined) {
    throw new WebhookVerificationError('missing_header', `Missing header: ${missing.join(', ')}`);
  }
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError('invalid_timestamp', 'X-Service-Timestamp is not whole Unix seconds');
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const now = nowSeconds(options.now);
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `X-Service-Timestamp is more than ${tolerance} s from now (replayed or a wrong clock)`,
    );
  }
  const body = toBytes(rawBody);
  const expected = toBytes(await signatureV1(secret, timestamp, body));
  // Every signature is compared, whatever matched before: the time taken says nothing about which one did.
  let matched = false;
  for (const given of signature.split(' ')) matched = constantTimeEqual(expected, toBytes(given)) || matched;
  if (!matched) {
    throw new WebhookVerificationError('signature_mismatch', 'X-Service-Signature does not match the body and secret');
  }
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The body is not JSON');
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new WebhookVerificationError('invalid_body', 'The body is not a JSON object');
  }
  if ((event as { id?: unknown }).id !== delivery) {
    throw new WebhookVerificationError('delivery_mismatch', 'X-Service-Delivery differs from the event id in the body');
  }
  return event as WebhookEvent;
}

/**
 * The headers that sign `rawBody` with `secret` at `timestamp` (a Date or Unix seconds; default now): for posts to
 * incoming hooks created with `requireSignature`. Send exactly the bytes you signed.
 */
export async function signWebhook(
  rawBody: Uint8Array | string,
  secret: string,
  timestamp?: Date | number,
): Promise<SignatureHeaders> {
  const ts = String(nowSeconds(timestamp));
  return { 'X-Service-Timestamp': ts, 'X-Service-Signature': await signatureV1(secret, ts, toBytes(rawBody)) };
}

async function signatureV1(secret: string, timestamp: string, body: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new TypeError('onair: Web Crypto (crypto.subtle) is not available here (browsers: https only)');
  const key = await subtle.importKey('raw', toBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = toBytes(`${timestamp}.`);
  const message = new Uint8Array(prefix.byteLength + body.byteLength);
  message.set(prefix, 0);
  message.set(body, prefix.byteLength);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, message));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return `v1=${hex}`;
}

/** Compares every byte whatever the first difference, so the time taken says nothing about where it is. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.byteLength, b.byteLength);
  let diff = a.byteLength ^ b.byteLength;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

function nowSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (now instanceof Date) return Math.floor(now.getTime() / 1000);
  return Math.floor(now);
}

/** A header's value, by case-insensitive name; the first of repeated values. */
function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) return first;
  }
  return undefined;
}
