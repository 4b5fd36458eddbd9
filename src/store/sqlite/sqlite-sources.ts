/** The SourceStore on the same SQLite database as the rest of the store (the tables of the "data sources" step). */
import type Database from 'better-sqlite3';
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

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(`INSERT INTO sources (id, org_id, channel_id, type, name, url, interval_ms, mapping, row_rule,
      table_rule, paused, row_cursor, etag, last_modified, body_sha256, last_values, state, last_fetch_at,
      last_change_at, last_error, fail_count, created_at, updated_at)
      VALUES (@id, @orgId, @channelId, @type, @name, @url, @intervalMs, @mapping, @row, @table, @paused, @cursor,
      @etag, @lastModified, @bodySha256, @lastValues, @state, @lastFetchAt, @lastChangeAt, @lastError, @failCount,
      @createdAt, @updatedAt)`),
    byId: db.prepare('SELECT * FROM sources WHERE id = ?'),
    list: db.prepare('SELECT * FROM sources WHERE channel_id = ? ORDER BY id'),
    all: db.prepare('SELECT * FROM sources ORDER BY id'),
    update: db.prepare(`UPDATE sources SET type = @type, name = @name, url = @url, interval_ms = @intervalMs,
      mapping = @mapping, row_rule = @row, table_rule = @table, paused = @paused, etag = NULL, last_modified = NULL,
      body_sha256 = NULL, updated_at = @updatedAt WHERE id = @id`),
    delete: db.prepare('DELETE FROM sources WHERE id = ?'),
    status: db.prepare(`UPDATE sources SET state = @state, last_fetch_at = @lastFetchAt, last_error = @lastError,
      fail_count = @failCount, last_change_at = coalesce(@lastChangeAt, last_change_at),
      etag = CASE WHEN @setValidators AND updated_at = @configAt THEN @etag ELSE etag END,
      last_modified = CASE WHEN @setValidators AND updated_at = @configAt THEN @lastModified ELSE last_modified END,
      body_sha256 = CASE WHEN @setValidators AND updated_at = @configAt THEN @bodySha256 ELSE body_sha256 END,
      last_values = CASE WHEN @setValues AND updated_at = @configAt THEN @lastValues ELSE last_values END,
      row_cursor = CASE WHEN @setCursor AND updated_at = @configAt THEN @cursor ELSE row_cursor END
      WHERE id = @id`),
    log: db.prepare(`INSERT INTO source_fetches (source_id, at, status, bytes, ms, changed, error)
      SELECT @id, @at, @status, @bytes, @ms, @changed, @error WHERE EXISTS (SELECT 1 FROM sources WHERE id = @id)`),
    trim: db.prepare(`DELETE FROM source_fetches WHERE source_id = @id AND seq <= (
      SELECT seq FROM source_fetches WHERE source_id = @id ORDER BY seq DESC LIMIT 1 OFFSET @keep)`),
    fetches: db.prepare('SELECT * FROM source_fetches WHERE source_id = ? ORDER BY seq DESC'),
  };
}

export class SqliteSources implements SourceStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly recordTx;

  /**
   * `flushed` runs a write and resolves once it is on disk, without syncing on the event loop (SqliteStore's
   * writeFlushed): a thousand sources polled every second write a thousand times a second.
   */
  constructor(
    db: Database.Database,
    private readonly flushed: (write: () => void) => Promise<void>,
  ) {
    const st = (this.st = prepare(db));
    this.recordTx = db.transaction(
      (id: string, configAt: string, s: SourceStatusChanges, e: SourceFetchRecord, keep: number) => {
        const columns = statusColumns(s);
        st.status.run({
          id,
          configAt,
          ...columns,
          setValidators: columns.setValidators ? 1 : 0,
          setValues: columns.setValues ? 1 : 0,
          setCursor: columns.setCursor ? 1 : 0,
        });
        st.log.run({ id, ...e, changed: e.changed ? 1 : 0 });
        st.trim.run({ id, keep });
      },
    );
  }

  async insertSource(s: SourceRecord): Promise<void> {
    this.st.insert.run({
      ...s,
      ...configColumns(s),
      paused: s.paused ? 1 : 0,
      lastValues: JSON.stringify(s.lastValues),
    });
  }

  async getSource(id: string): Promise<SourceRecord | undefined> {
    const row = this.st.byId.get(id) as SourceDbRow | undefined;
    return row ? sourceRecord(row) : undefined;
  }

  async listSources(channelId: string): Promise<SourceRecord[]> {
    return (this.st.list.all(channelId) as SourceDbRow[]).map(sourceRecord);
  }

  async listAllSources(): Promise<SourceRecord[]> {
    return (this.st.all.all() as SourceDbRow[]).map(sourceRecord);
  }

  async updateSource(id: string, config: SourceConfig, updatedAt: string): Promise<void> {
    this.st.update.run({ id, ...configColumns(config), paused: config.paused ? 1 : 0, updatedAt });
  }

  async deleteSource(id: string): Promise<void> {
    this.st.delete.run(id);
  }

  async recordFetch(
    id: string,
    configAt: string,
    status: SourceStatusChanges,
    entry: SourceFetchRecord,
    keep: number,
  ): Promise<void> {
    await this.flushed(() => this.recordTx(id, configAt, status, entry, keep));
  }

  async listFetches(id: string): Promise<SourceFetchRecord[]> {
    return (this.st.fetches.all(id) as SourceFetchDbRow[]).map(sourceFetch);
  }
}
