/** The SourceStore on the same Postgres database as the rest of the store (the tables of the "data sources" step). */
import {
  configColumns,
  sourceFetch,
  sourceRecord,
  statusColumns,
  type SourceDbRow,
  type SourceFetchDbRow,
} from '../source-rows.js';
import type {
  SourceConfig,
  SourceFetchRecord,
  SourceRecord,
  SourceStatusChanges,
  SourceStore,
} from '../source-store.js';
import type { Database } from './database.js';

const SQL = {
  insert: `INSERT INTO sources (id, org_id, channel_id, type, name, url, interval_ms, mapping, row_rule, table_rule,
    paused, row_cursor, etag, last_modified, body_sha256, last_values, state, last_fetch_at, last_change_at,
    last_error, fail_count, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
  update: `UPDATE sources SET type = $2, name = $3, url = $4, interval_ms = $5, mapping = $6, row_rule = $7,
    table_rule = $8, paused = $9, etag = NULL, last_modified = NULL, body_sha256 = NULL, updated_at = $10
    WHERE id = $1`,
  // $2: the updatedAt the fetch read; the parts that depend on the configuration wait for it to be unchanged.
  status: `UPDATE sources SET state = $3, last_fetch_at = $4, last_error = $5, fail_count = $6,
    last_change_at = coalesce($7, last_change_at),
    etag = CASE WHEN $8::boolean AND updated_at = $2 THEN $9 ELSE etag END,
    last_modified = CASE WHEN $8::boolean AND updated_at = $2 THEN $10 ELSE last_modified END,
    body_sha256 = CASE WHEN $8::boolean AND updated_at = $2 THEN $11 ELSE body_sha256 END,
    last_values = CASE WHEN $12::boolean AND updated_at = $2 THEN $13 ELSE last_values END,
    row_cursor = CASE WHEN $14::boolean AND updated_at = $2 THEN $15::int ELSE row_cursor END
    WHERE id = $1`,
  // A line for a source deleted meanwhile is dropped.
  log: `INSERT INTO source_fetches (source_id, at, status, bytes, ms, changed, error)
    SELECT $1::text, $2::text, $3::int, $4::int, $5::float8, $6::boolean, $7::text
    WHERE EXISTS (SELECT 1 FROM sources WHERE id = $1)`,
  trim: `DELETE FROM source_fetches WHERE source_id = $1 AND seq <= (
    SELECT seq FROM source_fetches WHERE source_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
};

export class PostgresSources implements SourceStore {
  constructor(private readonly db: Database) {}

  async insertSource(s: SourceRecord): Promise<void> {
    const c = configColumns(s);
    await this.db.run(SQL.insert, [
      s.id,
      s.orgId,
      s.channelId,
      c.type,
      c.name,
      c.url,
      c.intervalMs,
      c.mapping,
      c.row,
      c.table,
      s.paused,
      s.cursor,
      s.etag,
      s.lastModified,
      s.bodySha256,
      JSON.stringify(s.lastValues),
      s.state,
      s.lastFetchAt,
      s.lastChangeAt,
      s.lastError,
      s.failCount,
      s.createdAt,
      s.updatedAt,
    ]);
  }

  async getSource(id: string): Promise<SourceRecord | undefined> {
    const row = await this.db.row<SourceDbRow>('SELECT * FROM sources WHERE id = $1', [id]);
    return row ? sourceRecord(row) : undefined;
  }

  async listSources(channelId: string): Promise<SourceRecord[]> {
    const rows = await this.db.rows<SourceDbRow>('SELECT * FROM sources WHERE channel_id = $1 ORDER BY id', [
      channelId,
    ]);
    return rows.map(sourceRecord);
  }

  async listAllSources(): Promise<SourceRecord[]> {
    return (await this.db.rows<SourceDbRow>('SELECT * FROM sources ORDER BY id')).map(sourceRecord);
  }

  async updateSource(id: string, config: SourceConfig, updatedAt: string): Promise<void> {
    const c = configColumns(config);
    await this.db.run(SQL.update, [
      id,
      c.type,
      c.name,
      c.url,
      c.intervalMs,
      c.mapping,
      c.row,
      c.table,
      config.paused,
      updatedAt,
    ]);
  }

  async deleteSource(id: string): Promise<void> {
    await this.db.run('DELETE FROM sources WHERE id = $1', [id]);
  }

  async recordFetch(
    id: string,
    configAt: string,
    status: SourceStatusChanges,
    e: SourceFetchRecord,
    keep: number,
  ): Promise<void> {
    const s = statusColumns(status);
    await this.db.transaction(async (tx) => {
      await tx.run(SQL.status, [
        id,
        configAt,
        s.state,
        s.lastFetchAt,
        s.lastError,
        s.failCount,
        s.lastChangeAt,
        s.setValidators,
        s.etag,
        s.lastModified,
        s.bodySha256,
        s.setValues,
        s.lastValues,
        s.setCursor,
        s.cursor,
      ]);
      await tx.run(SQL.log, [id, e.at, e.status, e.bytes, e.ms, e.changed, e.error]);
      await tx.run(SQL.trim, [id, keep]);
    });
  }

  async listFetches(id: string): Promise<SourceFetchRecord[]> {
    const rows = await this.db.rows<SourceFetchDbRow>(
      'SELECT * FROM source_fetches WHERE source_id = $1 ORDER BY seq DESC',
      [id],
    );
    return rows.map(sourceFetch);
  }
}
