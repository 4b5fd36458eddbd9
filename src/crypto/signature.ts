/**
 * Delivery signatures (docs/webhooks.md, "Verifying a delivery"): `X-Service-Signature` is `v1=` and the
 * lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the secret string's UTF-8 bytes. While a
 * secret is being rolled the header carries one such signature per live secret, separated by a space, the
 * current secret's first (as Stripe does): a receiver that knows either secret verifies the delivery.
 */
import crypto from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes, base64url. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64url');
}

/** The signature header's value for these exact body bytes. */
export function signDelivery(secret: string, timestamp: number, body: Buffer): string {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `v1=${mac.digest('hex')}`;
}

/** The header's value for several secrets (current first): their signatures, space-separated. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: Buffer): string {
  return secrets.map((secret) => signDelivery(secret, timestamp, body)).join(' ');
}

/** Whether `given` is the signature of these bytes with `secret` (compared in constant time). */
export function signatureMatches(secret: string, timestamp: string, body: Uint8Array, given: string): boolean {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(body);
  const expected = Buffer.from(`v1=${mac.digest('hex')}`);
  const got = Buffer.from(given);
  return got.length === expected.length && crypto.timingSafeEqual(got, expected);
}
