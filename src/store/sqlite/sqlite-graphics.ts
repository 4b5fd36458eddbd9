/** The GraphicStore on the same SQLite database as the rest of the store (files' bytes in a BLOB column). */
import type Database from 'better-sqlite3';
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

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(`INSERT INTO graphics (${GRAPHIC_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (org_id, graphic_id, version) DO NOTHING`),
    insertFile: db.prepare(`INSERT INTO graphic_files (${FILE_COLUMNS}, data) VALUES (?, ?, ?, ?, ?, ?)`),
    byKey: db.prepare(`SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE org_id = ? AND graphic_id = ? AND version = ?`),
    byId: db.prepare(`SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE id = ?`),
    byCapability: db.prepare(`SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE capability = ?`),
    list: db.prepare(`SELECT ${GRAPHIC_COLUMNS} FROM graphics WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?`),
    usage: db.prepare('SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM graphics WHERE org_id = ?'),
    files: db.prepare('SELECT path, type, sha256, bytes FROM graphic_files WHERE graphic_id = ? ORDER BY path'),
    file: db.prepare('SELECT path, type, sha256, bytes, data FROM graphic_files WHERE graphic_id = ? AND path = ?'),
    delete: db.prepare('DELETE FROM graphics WHERE id = ?'),
  };
}

export class SqliteGraphics implements GraphicStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly insertTx: (g: GraphicRecord, files: readonly (GraphicFile & { data: Uint8Array })[]) => boolean;

  constructor(db: Database.Database) {
    const st = (this.st = prepare(db));
    this.insertTx = db.transaction((g: GraphicRecord, files: readonly (GraphicFile & { data: Uint8Array })[]) => {
      if (st.insert.run(...graphicParams(g)).changes !== 1) return false;
      for (const f of files) st.insertFile.run(g.id, f.path, f.type, f.sha256, f.bytes, Buffer.from(f.data));
      return true;
    });
  }

  async insertGraphic(
    graphic: GraphicRecord,
    files: readonly (GraphicFile & { data: Uint8Array })[],
  ): Promise<{ graphic: GraphicRecord; created: boolean }> {
    const created = this.insertTx(graphic, files);
    const row = this.st.byKey.get(graphic.orgId, graphic.graphicId, graphic.version) as GraphicRow;
    return { graphic: graphicFromRow(row), created };
  }

  async getGraphic(id: string): Promise<GraphicRecord | undefined> {
    const row = this.st.byId.get(id) as GraphicRow | undefined;
    return row ? graphicFromRow(row) : undefined;
  }

  async byCapability(capability: string): Promise<GraphicRecord | undefined> {
    const row = this.st.byCapability.get(capability) as GraphicRow | undefined;
    return row ? graphicFromRow(row) : undefined;
  }

  async usage(orgId: string): Promise<{ count: number; bytes: number }> {
    const row = this.st.usage.get(orgId) as { count: number; bytes: number };
    return { count: row.count, bytes: row.bytes };
  }

  async listGraphics(orgId: string, page: { limit: number; after?: string | undefined }): Promise<GraphicRecord[]> {
    return (this.st.list.all(orgId, page.after ?? '', page.limit) as GraphicRow[]).map(graphicFromRow);
  }

  async listFiles(id: string): Promise<GraphicFile[]> {
    return (this.st.files.all(id) as FileRow[]).map(fileFromRow);
  }

  async readFile(id: string, path: string): Promise<(GraphicFile & { data: Uint8Array }) | undefined> {
    const row = this.st.file.get(id, path) as (FileRow & { data: Buffer }) | undefined;
    return row ? { ...fileFromRow(row), data: new Uint8Array(row.data) } : undefined;
  }

  async deleteGraphic(id: string): Promise<void> {
    this.st.delete.run(id);
  }
}
