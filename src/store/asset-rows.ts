/**
 * Row shape of the assets table, the same in both stores (sqlite/sqlite-assets.ts, postgres/postgres-assets.ts), and
 * its mapping to AssetRecord. The bytes live in the same row (`data`) but are read only by readData.
 */
import type { AssetKind, AssetRecord } from './asset-store.js';

/** Every column but the bytes. */
export const ASSET_COLUMNS = 'id, org_id, sha256, type, kind, name, bytes, width, height, created_at';

export interface AssetRow {
  id: string;
  org_id: string;
  sha256: string;
  type: string;
  kind: string;
  name: string;
  /** A string from Postgres bigint. */
  bytes: number | string;
  width: number | null;
  height: number | null;
  created_at: string;
}

export function assetFromRow(r: AssetRow): AssetRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    sha256: r.sha256,
    type: r.type,
    kind: r.kind as AssetKind,
    name: r.name,
    bytes: Number(r.bytes),
    width: r.width,
    height: r.height,
    createdAt: r.created_at,
  };
}

export function assetParams(a: AssetRecord): unknown[] {
  return [a.id, a.orgId, a.sha256, a.type, a.kind, a.name, a.bytes, a.width, a.height, a.createdAt];
}
