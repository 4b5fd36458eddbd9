/**
 * The guarantees of GraphicStore (see graphic-store.ts), as one suite every implementation runs, on a Store harness.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import type { GraphicFile, GraphicRecord } from './graphic-store.js';
import type { StoreHarness } from './store.contract.js';
import type { Store } from './store.js';

const AT = '2024-03-01T12:00:00.000Z';
/** Every byte value, so an encoding that mangles any of them shows. */
const BINARY = new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
const MODULE = new TextEncoder().encode('export default class extends HTMLElement {}');

function file(path: string, data: Uint8Array, type = 'text/javascript'): GraphicFile & { data: Uint8Array } {
  return { path, type, sha256: createHash('sha256').update(data).digest('hex'), bytes: data.byteLength, data };
}

const FILES = [file('graphic.mjs', MODULE), file('lib/font.woff2', BINARY, 'font/woff2')];

function graphic(orgId: string, version = '1.0', name = 'Lower third'): GraphicRecord {
  return {
    id: newId('gr'),
    orgId,
    graphicId: 'com.example.l3rd',
    version,
    name,
    main: 'graphic.mjs',
    stepCount: 2,
    manifest: { id: 'com.example.l3rd', version, name, nested: { list: [1, 'two'] } },
    sha256: 'a'.repeat(64),
    capability: randomBytes(24).toString('base64url'),
    files: FILES.length,
    bytes: MODULE.byteLength + BINARY.byteLength,
    createdAt: AT,
  };
}

export function graphicStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`GraphicStore contract: ${name}`, () => {
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

    it('stores the graphic with its files, bytes exact, and reads them back', async () => {
      const g = graphic(orgId);
      expect(await store.graphics.insertGraphic(g, FILES)).toEqual({ graphic: g, created: true });
      expect(await store.graphics.getGraphic(g.id)).toEqual(g);
      expect(await store.graphics.listFiles(g.id)).toEqual(FILES.map(({ data: _, ...f }) => f));
      const font = await store.graphics.readFile(g.id, 'lib/font.woff2');
      expect(Buffer.from(font!.data)).toEqual(Buffer.from(BINARY));
      expect(font!.type).toBe('font/woff2');
      expect(await store.graphics.readFile(g.id, 'missing.js')).toBeUndefined();
      expect(await store.graphics.getGraphic('gr_missing')).toBeUndefined();
      expect(await store.graphics.byCapability(g.capability)).toEqual(g);
      expect(await store.graphics.byCapability('nope')).toBeUndefined();
    });

    it('the same id and version twice in a workspace are one graphic: the first is answered, nothing written', async () => {
      const first = graphic(orgId, '1.0', 'First');
      await store.graphics.insertGraphic(first, FILES);
      const again = await store.graphics.insertGraphic(graphic(orgId, '1.0', 'Second'), [FILES[0]!]);
      expect(again).toEqual({ graphic: first, created: false });
      expect(await store.graphics.listFiles(first.id)).toHaveLength(2);
      const other = await store.graphics.insertGraphic(graphic(orgId, '1.1'), FILES);
      expect(other.created).toBe(true);
    });

    it('concurrent inserts of one id and version leave one graphic, which every insert answers', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.graphics.insertGraphic(graphic(orgId), FILES)),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.graphic.id)).size).toBe(1);
      expect(await store.graphics.listFiles(results[0]!.graphic.id)).toHaveLength(2);
    });

    it('lists are per workspace, in creation order, a page at a time', async () => {
      const other = { id: newId('org'), name: 'Other', createdAt: AT };
      await store.accounts.insertOrg(other);
      const a = graphic(orgId, '1');
      const b = graphic(orgId, '2');
      await store.graphics.insertGraphic(a, FILES);
      await store.graphics.insertGraphic(graphic(other.id, '1'), FILES);
      await store.graphics.insertGraphic(b, FILES);
      expect(await store.graphics.listGraphics(orgId, { limit: 10 })).toEqual([a, b]);
      expect(await store.graphics.listGraphics(orgId, { limit: 1, after: a.id })).toEqual([b]);
    });

    it('counts a workspace’s graphics and their bytes, and forgets a deleted one', async () => {
      expect(await store.graphics.usage(orgId)).toEqual({ count: 0, bytes: 0 });
      const a = graphic(orgId, '1');
      await store.graphics.insertGraphic(a, FILES);
      await store.graphics.insertGraphic({ ...graphic(orgId, '2'), bytes: 3 }, FILES);
      const other = { id: newId('org'), name: 'Other', createdAt: AT };
      await store.accounts.insertOrg(other);
      await store.graphics.insertGraphic(graphic(other.id, '1'), FILES);
      expect(await store.graphics.usage(orgId)).toEqual({ count: 2, bytes: a.bytes + 3 });
      await store.graphics.deleteGraphic(a.id);
      expect(await store.graphics.usage(orgId)).toEqual({ count: 1, bytes: 3 });
    });

    it('delete removes the graphic and its files; graphics survive a reopen', async () => {
      const kept = graphic(orgId, '1');
      const gone = graphic(orgId, '2');
      await store.graphics.insertGraphic(kept, FILES);
      await store.graphics.insertGraphic(gone, FILES);
      await store.graphics.deleteGraphic(gone.id);
      expect(await store.graphics.getGraphic(gone.id)).toBeUndefined();
      expect(await store.graphics.readFile(gone.id, 'graphic.mjs')).toBeUndefined();
      await store.close();
      store = await harness.open();
      expect(await store.graphics.getGraphic(kept.id)).toEqual(kept);
      expect(Buffer.from((await store.graphics.readFile(kept.id, 'graphic.mjs'))!.data)).toEqual(Buffer.from(MODULE));
    });
  });
}
