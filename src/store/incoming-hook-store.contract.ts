/**
 * The guarantees of IncomingHookStore (see incoming-hook-store.ts), as one suite every implementation runs, on
 * a Store harness (hooks belong to channels).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import type { HookDeliveryRecord, HookRefusalRecord, IncomingHookRecord } from './incoming-hook-store.js';
import type { StoreHarness } from './store.contract.js';
import { channelRecord } from './store.fixtures.js';
import type { Store } from './store.js';

const AT = '2024-03-01T12:00:00.000Z';

function hook(orgId: string, channelId: string, tokenHash: string): IncomingHookRecord {
  return {
    id: newId('hook'),
    orgId,
    channelId,
    name: 'Scorekeeper',
    tokenHash,
    mapping: { 'game.home.score': 'scoreA' },
    requireSignature: false,
    sealedSecret: null,
    createdAt: AT,
    updatedAt: AT,
  };
}

const line = (status: number): HookDeliveryRecord => ({
  at: AT,
  status,
  applied: status === 200 ? { scoreA: 1 } : {},
  ignored: ['venue'],
  error: status === 200 ? null : `invalid_request: ${status}`,
  payload: '{"home_score":1}',
  dryRun: false,
});

const refusal = (second: number, count = 1): HookRefusalRecord => ({
  at: new Date(Date.parse(AT) + second * 1000).toISOString(),
  status: 401,
  error: `bad_signature: ${second}`,
  payload: '{"home_score":9}',
  count,
});

export function incomingHookStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`IncomingHookStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let orgId: string;
    const channelId = 'ch_hooked';

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
      orgId = (await store.defaultOrg()).id;
      await store.insertChannel({ ...channelRecord(orgId, 'hooked'), id: channelId });
    });
    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    it('keeps hooks, finds one by its token hash only, updates name and mapping, deletes', async () => {
      const a = hook(orgId, channelId, 'hash-a');
      const b = { ...hook(orgId, channelId, 'hash-b'), requireSignature: true, sealedSecret: 'v1.sealed' };
      await store.incomingHooks.insertHook(a);
      await store.incomingHooks.insertHook(b);
      await store.close();
      store = await harness.open();
      expect(await store.incomingHooks.findHookByTokenHash('hash-b')).toEqual(b);
      expect(await store.incomingHooks.findHookByTokenHash('hash-c')).toBeUndefined();
      expect((await store.incomingHooks.listHooks(channelId)).map((h) => h.id)).toEqual([a.id, b.id]);
      await store.incomingHooks.updateHook(a.id, { mapping: { q: 'period' }, updatedAt: '2024-03-02T00:00:00.000Z' });
      expect(await store.incomingHooks.getHook(a.id)).toEqual({
        ...a,
        mapping: { q: 'period' },
        updatedAt: '2024-03-02T00:00:00.000Z',
      });
      await store.incomingHooks.deleteHook(a.id);
      expect(await store.incomingHooks.getHook(a.id)).toBeUndefined();
    });

    it('refuses a second hook with the same token hash', async () => {
      await store.incomingHooks.insertHook(hook(orgId, channelId, 'same'));
      await expect(store.incomingHooks.insertHook(hook(orgId, channelId, 'same'))).rejects.toThrow();
    });

    it('keeps the newest lines of a log, newest first, and drops them with the hook or its channel', async () => {
      const h = hook(orgId, channelId, 'hash-log');
      await store.incomingHooks.insertHook(h);
      for (let i = 0; i < 7; i++) await store.incomingHooks.logDelivery(h.id, line(i % 2 ? 400 : 200), 5);
      const log = await store.incomingHooks.listDeliveries(h.id);
      expect(log.map((l) => l.status)).toEqual([200, 400, 200, 400, 200]);
      expect(log[0]).toEqual(line(200));
      await store.deleteChannel(channelId);
      expect(await store.incomingHooks.getHook(h.id)).toBeUndefined();
      expect(await store.incomingHooks.listDeliveries(h.id)).toEqual([]);
    });

    it('folds refusals of one second into one line (the first details, the counts added), kept apart from posts', async () => {
      const h = hook(orgId, channelId, 'hash-refusals');
      await store.incomingHooks.insertHook(h);
      await store.incomingHooks.logDelivery(h.id, line(200), 5);
      await store.incomingHooks.logRefusal(h.id, refusal(0), 3);
      await store.incomingHooks.logRefusal(h.id, { ...refusal(0, 7), status: 429, error: 'rate_limited: x' }, 3);
      for (const second of [1, 2, 3]) await store.incomingHooks.logRefusal(h.id, refusal(second, second), 3);
      // A late count for a second already trimmed away does not come back.
      await store.incomingHooks.logRefusal(h.id, refusal(0, 5), 3);
      expect(await store.incomingHooks.listRefusals(h.id)).toEqual([refusal(3, 3), refusal(2, 2), refusal(1, 1)]);
      await store.incomingHooks.logRefusal(h.id, refusal(3, 4), 3);
      expect((await store.incomingHooks.listRefusals(h.id))[0]).toEqual(refusal(3, 7));
      expect(await store.incomingHooks.listDeliveries(h.id)).toEqual([line(200)]);
      const first = hook(orgId, channelId, 'hash-first');
      await store.incomingHooks.insertHook(first);
      await store.incomingHooks.logRefusal(first.id, refusal(0), 3);
      await store.incomingHooks.logRefusal(first.id, { ...refusal(0, 7), status: 429, error: 'rate_limited: x' }, 3);
      expect(await store.incomingHooks.listRefusals(first.id)).toEqual([refusal(0, 8)]);
      await store.incomingHooks.deleteHook(h.id);
      expect(await store.incomingHooks.listRefusals(h.id)).toEqual([]);
      await store.incomingHooks.logRefusal(h.id, refusal(9), 3);
      expect(await store.incomingHooks.listRefusals(h.id)).toEqual([]);
    });

    it('claims keys once per hook until they expire, all or none, and frees them on release', async () => {
      const h = hook(orgId, channelId, 'hash-claims');
      const other = hook(orgId, channelId, 'hash-claims-2');
      await store.incomingHooks.insertHook(h);
      await store.incomingHooks.insertHook(other);
      const t = 1_700_000_000_000;
      const claims = store.incomingHooks;
      expect(await claims.claimPost(h.id, [{ key: 'sig:a', expiresAt: t + 300_000 }], t)).toBeNull();
      // Held: the whole claim fails, naming the key, and takes nothing (id:1 stays free).
      const both = [
        { key: 'id:1', expiresAt: t + 300_000 },
        { key: 'sig:a', expiresAt: t + 300_000 },
      ];
      expect(await claims.claimPost(h.id, both, t + 1000)).toBe('sig:a');
      expect(await claims.claimPost(h.id, [{ key: 'id:1', expiresAt: t + 300_000 }], t + 1000)).toBeNull();
      expect(await claims.claimPost(h.id, [{ key: 'id:1', expiresAt: t + 300_000 }], t + 2000)).toBe('id:1');
      // Another hook has keys of its own.
      expect(await claims.claimPost(other.id, both, t + 1000)).toBeNull();
      // Once expired, a key is free again; pruning deletes expired keys only.
      expect(await claims.claimPost(h.id, [{ key: 'sig:a', expiresAt: t + 900_000 }], t + 300_000)).toBeNull();
      expect(await claims.claimPost(h.id, [{ key: 'sig:a', expiresAt: t + 900_000 }], t + 300_001)).toBe('sig:a');
      expect(await claims.pruneClaims(t + 300_000)).toBe(3);
      expect(await claims.claimPost(h.id, [{ key: 'id:1', expiresAt: t + 900_000 }], t + 300_000)).toBeNull();
      expect(await claims.claimPost(h.id, [{ key: 'sig:a', expiresAt: t + 900_000 }], t + 300_000)).toBe('sig:a');
      await claims.releasePost(h.id, ['sig:a', 'id:1']);
      expect(await claims.claimPost(h.id, both, t + 300_000)).toBeNull();
      // A deleted hook claims nothing and leaves nothing behind.
      await claims.deleteHook(h.id);
      expect(await claims.claimPost(h.id, both, t + 300_000)).toBeNull();
      expect(await claims.pruneClaims(Number.MAX_SAFE_INTEGER)).toBe(0);
    });

    it('lets exactly one of many concurrent claims of the same key through', async () => {
      const h = hook(orgId, channelId, 'hash-race');
      await store.incomingHooks.insertHook(h);
      const t = 1_700_000_000_000;
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.incomingHooks.claimPost(
            h.id,
            [
              { key: `id:${i}`, expiresAt: t + 300_000 },
              { key: 'sig:same', expiresAt: t + 300_000 },
            ],
            t,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === null)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'sig:same')).toHaveLength(7);
    });
  });
}
