/** Every case of sdks/webhook-signature-vectors.json, the file all three SDKs and the server share. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/index.js';

interface VerifyCase {
  name: string;
  secret: string;
  body: string;
  headers: Record<string, string>;
  now: number;
  tolerance?: number;
  expect: { ok: true; id: string; type: string } | { ok: false; error: string };
}

interface SignCase {
  name: string;
  secret: string;
  body: string;
  timestamp: number;
  expect: Record<string, string>;
}

const vectors = JSON.parse(
  fs.readFileSync(new URL('../../webhook-signature-vectors.json', import.meta.url), 'utf8'),
) as { verify: { cases: VerifyCase[] }; sign: { cases: SignCase[] } };

describe('webhook signature vectors: verify', () => {
  it('has cases for every error code', () => {
    const codes = new Set(vectors.verify.cases.flatMap((c) => (c.expect.ok ? [] : [c.expect.error])));
    expect([...codes].sort()).toEqual([
      'delivery_mismatch',
      'invalid_body',
      'invalid_timestamp',
      'missing_header',
      'signature_mismatch',
      'timestamp_out_of_tolerance',
    ]);
  });

  for (const c of vectors.verify.cases) {
    const options = { now: c.now, ...(c.tolerance === undefined ? {} : { toleranceSeconds: c.tolerance }) };

    it(`${c.name} (body as bytes, headers as a record)`, async () => {
      const result = verifyWebhook(new TextEncoder().encode(c.body), c.headers, c.secret, options);
      if (c.expect.ok) {
        const event = await result;
        expect(event.id).toBe(c.expect.id);
        expect(event.type).toBe(c.expect.type);
      } else {
        const error = await result.then(
          () => null,
          (err: unknown) => err,
        );
        expect(error).toBeInstanceOf(WebhookVerificationError);
        expect((error as WebhookVerificationError).code).toBe(c.expect.error);
      }
    });

    it(`${c.name} (body as a string, headers as a fetch Headers)`, async () => {
      const result = verifyWebhook(c.body, new Headers(c.headers), c.secret, options);
      if (c.expect.ok) await expect(result).resolves.toMatchObject({ id: c.expect.id, type: c.expect.type });
      else await expect(result).rejects.toMatchObject({ name: 'WebhookVerificationError', code: c.expect.error });
    });
  }

  it('takes `now` as a Date as well as Unix seconds', async () => {
    const c = vectors.verify.cases[0]!;
    await expect(verifyWebhook(c.body, c.headers, c.secret, { now: new Date(c.now * 1000) })).resolves.toBeTruthy();
    await expect(
      verifyWebhook(c.body, c.headers, c.secret, { now: new Date((c.now + 301) * 1000) }),
    ).rejects.toMatchObject({ code: 'timestamp_out_of_tolerance' });
  });

  it('reads a header given as an array (Node repeats) by its first value', async () => {
    const c = vectors.verify.cases[0]!;
    const headers: Record<string, string | string[]> = Object.fromEntries(
      Object.entries(c.headers).map(([k, v]) => [k.toLowerCase(), [v]]),
    );
    await expect(verifyWebhook(Buffer.from(c.body), headers, c.secret, { now: c.now })).resolves.toMatchObject({
      id: c.expect.ok ? c.expect.id : '',
    });
  });
});

describe('webhook signature vectors: sign', () => {
  for (const c of vectors.sign.cases) {
    it(c.name, async () => {
      expect(await signWebhook(c.body, c.secret, c.timestamp)).toEqual(c.expect);
      expect(await signWebhook(new TextEncoder().encode(c.body), c.secret, new Date(c.timestamp * 1000))).toEqual(
        c.expect,
      );
    });
  }

  it('signs with the current time by default, and verify accepts what sign made', async () => {
    const body = '{"id":"evt_1","type":"webhook.ping"}';
    const before = Math.floor(Date.now() / 1000);
    const headers = await signWebhook(body, 'whsec_test');
    const ts = Number(headers['X-Service-Timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(before + 2);
    await expect(
      verifyWebhook(body, { ...headers, 'X-Service-Delivery': 'evt_1' }, 'whsec_test'),
    ).resolves.toMatchObject({ id: 'evt_1', type: 'webhook.ping' });
  });
});
