/** The AssetStore on the same SQLite database as the rest of the store (the bytes in a BLOB column). */
import type Database from 'better-sqlite3';
import { ASSET_COLUMNS, assetFromRow, assetParams, type AssetRow } from '../asset-rows.js';
import type { AssetRecord, AssetStore, AssetUsage } from '../asset-store.js';

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(`INSERT INTO assets (${ASSET_COLUMNS}, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (org_id, sha256) DO NOTHING`),
    byHashInOrg: db.prepare(`SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = ? AND sha256 = ?`),
    byId: db.prepare(`SELECT ${ASSET_COLUMNS} FROM assets WHERE id = ?`),
    byHash: db.prepare(`SELECT ${ASSET_COLUMNS} FROM assets WHERE sha256 = ? ORDER BY id`),
    data: db.prepare('SELECT data FROM assets WHERE id = ?'),
    list: db.prepare(`SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?`),
    usage: db.prepare('SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM assets WHERE org_id = ?'),
    delete: db.prepare('DELETE FROM assets WHERE id = ?'),
  };
}

export class SqliteAssets implements AssetStore {
  private readonly st: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.st = prepare(db);
  }

  async insertAsset(asset: AssetRecord, data: Uint8Array): Promise<{ asset: AssetRecord; created: boolean }> {
    const created = this.st.insert.run(...assetParams(asset), Buffer.from(data)).changes === 1;
    const row = this.st.byHashInOrg.get(asset.orgId, asset.sha256) as AssetRow;
    return { asset: assetFromRow(row), created };
  }

  async getAsset(id: string): Promise<AssetRecord | undefined> {
    const row = this.st.byId.get(id) as AssetRow | undefined;
    return row ? assetFromRow(row) : undefined;
  }

  async findByHash(sha256: string): Promise<AssetRecord[]> {
    return (this.st.byHash.all(sha256) as AssetRow[]).map(assetFromRow);
  }

  async readData(id: string): Promise<Uint8Array | undefined> {
    const row = this.st.data.get(id) as { data: Buffer } | undefined;
    return row ? new Uint8Array(row.data) : undefined;
  }

  async listAssets(orgId: string, page: { limit: number; after?: string | undefined }): Promise<AssetRecord[]> {
    return (this.st.list.all(orgId, page.after ?? '', page.limit) as AssetRow[]).map(assetFromRow);
  }

  async usage(orgId: string): Promise<AssetUsage> {
    const row = this.st.usage.get(orgId) as { count: number; bytes: number };
    return { count: row.count, bytes: row.bytes };
  }

  async deleteAsset(id: string): Promise<void> {
    this.st.delete.run(id);
  }
}
