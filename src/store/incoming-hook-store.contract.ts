/**
 * The guarantees of IncomingHookStore (see incoming-hook-store.ts), as one suite every implementation runs, on
 * a Store harness (hooks belong to channels).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import type { HookDeliveryRecord, IncomingHookRecord } from './incoming-hook-store.js';
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
  });
}
