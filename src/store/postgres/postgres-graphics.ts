/** The GraphicStore on the same Postgres database as the rest of the store (files' bytes in a bytea column). */
import {
  FILE_COLUMNS,
  GRAPHIC_COLUMNS,
  fileFromRow,
  graphicFromRow,
  graphicParams,
  type FileRow,
  type GraphicRow,
} from '../graphic-rows.js';
import type { GraphicFile, GraphicRecord, GraphicStore } from '../graphic-store.js';
import type { Database } from './database.js';

const SQL = {
  // Two nodes inserting the same graphic at once: one row (and one set of files), and both read it back.
  insert: `INSERT INTO graphics (${GRAPHIC_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
    ON CONFLICT (org_id, graphic_id, version) DO NOTHING`,
  insertFile: `INSERT INTO graphic_files (${FILE_COLUMNS}, data) VALUES ($1, $2, $3, $4, $5, $6)`,
  byKey: `SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE org_id = $1 AND graphic_id = $2 AND version = $3`,
  byId: `SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE id = $1`,
  byCapability: `SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE capability = $1`,
  list: `SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  usage: 'SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM graphics WHERE org_id = $1',
  files: 'SELECT path, type, sha256, bytes FROM graphic_files WHERE graphic_id = $1 ORDER BY path',
  file: 'SELECT path, type, sha256, bytes, data FROM graphic_files WHERE graphic_id = $1 AND path = $2',
};

export class PostgresGraphics implements GraphicStore {
  constructor(private readonly db: Database) {}

  async insertGraphic(
    graphic: GraphicRecord,
    files: readonly (GraphicFile & { data: Uint8Array })[],
  ): Promise<{ graphic: GraphicRecord; created: boolean }> {
    const created = await this.db.transaction(async (tx) => {
      if ((await tx.run(SQL.insert, graphicParams(graphic))) !== 1) return false;
      for (const f of files) {
        await tx.run(SQL.insertFile, [graphic.id, f.path, f.type, f.sha256, f.bytes, Buffer.from(f.data)]);
      }
      return true;
    });
    const row = await this.db.row<GraphicRow>(SQL.byKey, [graphic.orgId, graphic.graphicId, graphic.version]);
    return { graphic: graphicFromRow(row!), created };
  }

  async getGraphic(id: string): Promise<GraphicRecord | undefined> {
    const row = await this.db.row<GraphicRow>(SQL.byId, [id]);
    return row ? graphicFromRow(row) : undefined;
  }

  async byCapability(capability: string): Promise<GraphicRecord | undefined> {
    const row = await this.db.row<GraphicRow>(SQL.byCapability, [capability]);
    return row ? graphicFromRow(row) : undefined;
  }

  async usage(orgId: string): Promise<{ count: number; bytes: number }> {
    const row = await this.db.row<{ count: string; bytes: string }>(SQL.usage, [orgId]);
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async listGraphics(orgId: string, page: { limit: number; after?: string | undefined }): Promise<GraphicRecord[]> {
    return (await this.db.rows<GraphicRow>(SQL.list, [orgId, page.after ?? '', page.limit])).map(graphicFromRow);
  }

  async listFiles(id: string): Promise<GraphicFile[]> {
    return (await this.db.rows<FileRow>(SQL.files, [id])).map(fileFromRow);
  }

  async readFile(id: string, path: string): Promise<(GraphicFile & { data: Uint8Array }) | undefined> {
    const row = await this.db.row<FileRow & { data: Buffer }>(SQL.file, [id, path]);
    return row ? { ...fileFromRow(row), data: new Uint8Array(row.data) } : undefined;
  }

  async deleteGraphic(id: string): Promise<void> {
    await this.db.run('DELETE FROM graphics WHERE id = $1', [id]);
  }
}
