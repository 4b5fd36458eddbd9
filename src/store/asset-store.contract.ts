/**
 * The guarantees of AssetStore (see asset-store.ts), as one suite every implementation runs, on a Store harness.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import type { AssetRecord } from './asset-store.js';
import type { StoreHarness } from './store.contract.js';
import type { Store } from './store.js';

const AT = '2024-03-01T12:00:00.000Z';

function asset(orgId: string, data: Uint8Array, name = 'logo.png'): AssetRecord {
  return {
    id: newId('ast'),
    orgId,
    sha256: createHash('sha256').update(data).digest('hex'),
    type: 'image/png',
    kind: 'image',
    name,
    bytes: data.byteLength,
    width: 2,
    height: 1,
    createdAt: AT,
  };
}

/** Every byte value, so an encoding that mangles any of them shows. */
const BINARY = new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));

export function assetStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`AssetStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let orgId: string;

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
      orgId = (await store.defaultOrg()).id;
    });
    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    it('stores the bytes exactly and reads the record back by id and by hash', async () => {
      const a = asset(orgId, BINARY);
      expect(await store.assets.insertAsset(a, BINARY)).toEqual({ asset: a, created: true });
      expect(await store.assets.getAsset(a.id)).toEqual(a);
      expect(await store.assets.findByHash(a.sha256)).toEqual([a]);
      expect(Buffer.from((await store.assets.readData(a.id))!)).toEqual(Buffer.from(BINARY));
      expect(await store.assets.getAsset('ast_missing')).toBeUndefined();
      expect(await store.assets.readData('ast_missing')).toBeUndefined();
    });

    it('the same bytes twice in a workspace are one asset: the first is answered, nothing written', async () => {
      const first = asset(orgId, BINARY, 'first.png');
      await store.assets.insertAsset(first, BINARY);
      const again = await store.assets.insertAsset(asset(orgId, BINARY, 'second.png'), BINARY);
      expect(again).toEqual({ asset: first, created: false });
      expect(await store.assets.usage(orgId)).toEqual({ count: 1, bytes: BINARY.byteLength });
    });

    it('concurrent inserts of the same bytes leave one asset, which every insert answers', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => store.assets.insertAsset(asset(orgId, BINARY, `${i}.png`), BINARY)),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.asset.id)).size).toBe(1);
    });

    it('the same bytes in two workspaces are two assets; lists and usage are per workspace', async () => {
      const other = { id: newId('org'), name: 'Other', createdAt: AT };
      await store.accounts.insertOrg(other);
      const mine = asset(orgId, BINARY);
      const theirs = asset(other.id, BINARY);
      await store.assets.insertAsset(mine, BINARY);
      await store.assets.insertAsset(theirs, BINARY);
      const small = new Uint8Array([1, 2, 3]);
      const second = asset(orgId, small);
      await store.assets.insertAsset(second, small);
      expect((await store.assets.findByHash(mine.sha256)).map((a) => a.orgId).sort()).toEqual([orgId, other.id].sort());
      expect(await store.assets.listAssets(orgId, { limit: 10 })).toEqual([mine, second]);
      expect(await store.assets.listAssets(orgId, { limit: 1, after: mine.id })).toEqual([second]);
      expect(await store.assets.usage(orgId)).toEqual({ count: 2, bytes: BINARY.byteLength + 3 });
      expect(await store.assets.usage(other.id)).toEqual({ count: 1, bytes: BINARY.byteLength });
    });

    it('delete removes the record and its bytes', async () => {
      const a = asset(orgId, BINARY);
      await store.assets.insertAsset(a, BINARY);
      await store.assets.deleteAsset(a.id);
      expect(await store.assets.getAsset(a.id)).toBeUndefined();
      expect(await store.assets.readData(a.id)).toBeUndefined();
      expect(await store.assets.usage(orgId)).toEqual({ count: 0, bytes: 0 });
    });

    it('assets survive a reopen', async () => {
      const a = asset(orgId, BINARY);
      await store.assets.insertAsset(a, BINARY);
      await store.close();
      store = await harness.open();
      expect(await store.assets.getAsset(a.id)).toEqual(a);
      expect(Buffer.from((await store.assets.readData(a.id))!)).toEqual(Buffer.from(BINARY));
    });
  });
}
