import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { newSigningSecret, signDelivery } from './signature.js';

it('signs v1= lowercase hex HMAC-SHA256 of "timestamp.body" with the secret string as key', () => {
  const body = Buffer.from('{"id":"evt_1","data":{"name":"Zoë"}}');
  const expected = crypto
    .createHmac('sha256', 'whsec_abc')
    .update('1700000000.' + body.toString('utf8'))
    .digest('hex');
  expect(signDelivery('whsec_abc', 1700000000, body)).toBe(`v1=${expected}`);
  expect(signDelivery('whsec_abc', 1700000001, body)).not.toBe(`v1=${expected}`);
});

it('makes whsec_ secrets of 32 random bytes in base64url', () => {
  const a = newSigningSecret();
  expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
  expect(newSigningSecret()).not.toBe(a);
});
