import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signatureHeader, signDelivery } from './signature.js';

it('signs v1= lowercase hex HMAC-SHA256 of "timestamp.body" with the secret string as key', () => {
  const body = Buffer.from('{"id":"evt_1","data":{"name":"Zoë"}}');
  const expected = crypto
    .createHmac('sha256', 'whsec_abc')
    .update('1700000000.' + body.toString('utf8'))
    .digest('hex');
  expect(signDelivery('whsec_abc', 1700000000, body)).toBe(`v1=${expected}`);
  expect(signDelivery('whsec_abc', 1700000001, body)).not.toBe(`v1=${expected}`);
});

it('signs with every secret given, current first, space-separated', () => {
  const body = Buffer.from('{"id":"evt_1"}');
  const header = signatureHeader(['whsec_new', 'whsec_old'], 1700000000, body);
  expect(header).toBe(`${signDelivery('whsec_new', 1700000000, body)} ${signDelivery('whsec_old', 1700000000, body)}`);
  expect(signatureHeader(['whsec_new'], 1700000000, body)).toBe(signDelivery('whsec_new', 1700000000, body));
});

it('makes whsec_ secrets of 32 random bytes in base64url', () => {
  const a = newSigningSecret();
  expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
  expect(newSigningSecret()).not.toBe(a);
});

/** sdks/webhook-signature-vectors.json: the cases every SDK's verify and sign run; the server must agree. */
interface Vectors {
  verify: {
    cases: {
      name: string;
      secret: string;
      body: string;
      headers: Record<string, string>;
      expect: { ok: boolean; error?: string };
    }[];
  };
  sign: { cases: { name: string; secret: string; body: string; timestamp: number; expect: Record<string, string> }[] };
}
const vectors = JSON.parse(
  fs.readFileSync(new URL('../../sdks/webhook-signature-vectors.json', import.meta.url), 'utf8'),
) as Vectors;

describe('the shared signature vectors', () => {
  it.each(vectors.sign.cases)('signs like the SDKs: $name', (c) => {
    expect(signDelivery(c.secret, c.timestamp, Buffer.from(c.body, 'utf8'))).toBe(c.expect['X-Service-Signature']);
  });

  const header = (h: Record<string, string>, name: string) =>
    Object.entries(h).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const signed = vectors.verify.cases.filter(
    (c) => c.expect.ok || ['signature_mismatch', 'invalid_body', 'delivery_mismatch'].includes(c.expect.error ?? ''),
  );
  it.each(signed)('would (or would not) have sent this signature: $name', (c) => {
    const timestamp = Number(header(c.headers, 'X-Service-Timestamp'));
    const mine = signDelivery(c.secret, timestamp, Buffer.from(c.body, 'utf8'));
    // Several signatures (a secret being rolled): the delivery verifies when one of them is this secret's.
    const sent = header(c.headers, 'X-Service-Signature')!.split(' ');
    if (c.expect.error === 'signature_mismatch') expect(sent).not.toContain(mine);
    else expect(sent).toContain(mine);
  });
});
