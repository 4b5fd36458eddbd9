/** The AssetStore on the same Postgres database as the rest of the store (the bytes in a bytea column). */
import { ASSET_COLUMNS, assetFromRow, assetParams, type AssetRow } from '../asset-rows.js';
import type { AssetRecord, AssetStore, AssetUsage } from '../asset-store.js';
import type { Database } from './database.js';

const SQL = {
  // Two nodes inserting the same bytes at once: one row, and both read it back.
  insert: `INSERT INTO assets (${ASSET_COLUMNS}, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
    ON CONFLICT (org_id, sha256) DO NOTHING`,
  byHashInOrg: `SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = $1 AND sha256 = $2`,
  byId: `SELECT ${ASSET_COLUMNS} FROM assets WHERE id = $1`,
  byHash: `SELECT ${ASSET_COLUMNS} FROM assets WHERE sha256 = $1 ORDER BY id`,
  list: `SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  usage: 'SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM assets WHERE org_id = $1',
};

export class PostgresAssets implements AssetStore {
  constructor(private readonly db: Database) {}

  async insertAsset(asset: AssetRecord, data: Uint8Array): Promise<{ asset: AssetRecord; created: boolean }> {
    const created = (await this.db.run(SQL.insert, [...assetParams(asset), Buffer.from(data)])) === 1;
    const row = await this.db.row<AssetRow>(SQL.byHashInOrg, [asset.orgId, asset.sha256]);
    return { asset: assetFromRow(row!), created };
  }

  async getAsset(id: string): Promise<AssetRecord | undefined> {
    const row = await this.db.row<AssetRow>(SQL.byId, [id]);
    return row ? assetFromRow(row) : undefined;
  }

  async findByHash(sha256: string): Promise<AssetRecord[]> {
    return (await this.db.rows<AssetRow>(SQL.byHash, [sha256])).map(assetFromRow);
  }

  async readData(id: string): Promise<Uint8Array | undefined> {
    const row = await this.db.row<{ data: Buffer }>('SELECT data FROM assets WHERE id = $1', [id]);
    return row ? new Uint8Array(row.data) : undefined;
  }

  async listAssets(orgId: string, page: { limit: number; after?: string | undefined }): Promise<AssetRecord[]> {
    return (await this.db.rows<AssetRow>(SQL.list, [orgId, page.after ?? '', page.limit])).map(assetFromRow);
  }

  async usage(orgId: string): Promise<AssetUsage> {
    const row = await this.db.row<{ count: string; bytes: string }>(SQL.usage, [orgId]);
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async deleteAsset(id: string): Promise<void> {
    await this.db.run('DELETE FROM assets WHERE id = $1', [id]);
  }
}
