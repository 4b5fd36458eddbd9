/** The guarantees of IdempotencyStore (see idempotency-store.ts), as one suite every implementation runs. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdempotencyClaim } from './idempotency-store.js';
import type { StoreHarness } from './store.contract.js';
import type { Store } from './store.js';

const NOW = '2026-11-26T12:00:00.000Z';
const DAY_AGO = '2026-11-25T12:00:00.000Z';

const claim = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  scope: 'key:key_a',
  key: 'retry-1',
  fingerprint: 'POST /v1/channels {"name":"A"}',
  owner: 'boot_1',
  now: NOW,
  expiredBefore: DAY_AGO,
  ...over,
});

const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: 'sealed…' };

export function idempotencyStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    it('claims a new key once; a second claim sees the pending record, then the completed answer', async () => {
      expect(await store.idempotency.claim(claim())).toEqual({ claimed: true });
      expect(await store.idempotency.claim(claim({ owner: 'boot_2' }))).toEqual({
        claimed: false,
        record: { fingerprint: claim().fingerprint, owner: 'boot_1', createdAt: NOW, response: null },
      });
      await store.idempotency.complete('key:key_a', 'retry-1', answer);
      const again = await store.idempotency.claim(claim());
      expect(again).toEqual({ claimed: false, record: expect.objectContaining({ response: answer }) as unknown });
    });

    it('gives exactly one of many concurrent claims', async () => {
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.idempotency.claim(claim())));
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    });

    it('keeps scopes apart: the same key from another caller is its own', async () => {
      await store.idempotency.claim(claim());
      expect(await store.idempotency.claim(claim({ scope: 'key:key_b' }))).toEqual({ claimed: true });
    });

    it('releases a pending key so it can be claimed again, but never a completed one', async () => {
      await store.idempotency.claim(claim());
      await store.idempotency.release('key:key_a', 'retry-1');
      expect(await store.idempotency.claim(claim())).toEqual({ claimed: true });
      await store.idempotency.complete('key:key_a', 'retry-1', answer);
      await store.idempotency.release('key:key_a', 'retry-1');
      expect((await store.idempotency.claim(claim())).claimed).toBe(false);
    });

    it('treats a record older than expiredBefore as absent, and prunes old records', async () => {
      await store.idempotency.claim(claim({ now: '2026-11-25T11:59:59.999Z' }));
      await store.idempotency.complete('key:key_a', 'retry-1', answer);
      await store.idempotency.claim(claim({ key: 'other', now: '2026-11-25T11:00:00.000Z' }));
      expect(await store.idempotency.claim(claim({ fingerprint: 'another body' }))).toEqual({ claimed: true });
      expect(await store.idempotency.prune(DAY_AGO)).toBe(1);
      expect((await store.idempotency.claim(claim({ fingerprint: 'x' }))).claimed).toBe(false);
    });

    it('keeps completed answers across a reopen', async () => {
      await store.idempotency.claim(claim());
      await store.idempotency.complete('key:key_a', 'retry-1', answer);
      await store.close();
      store = await harness.open();
      const again = await store.idempotency.claim(claim());
      expect(again).toEqual({ claimed: false, record: expect.objectContaining({ response: answer }) as unknown });
    });
  });
}
