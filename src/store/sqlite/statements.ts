/** Every SQL statement the SQLite store runs, prepared once at start. */
import type Database from 'better-sqlite3';

const CHANNEL_COLUMNS = `id, org_id, name, fps, width, height, output_token, created_at, updated_at,
  program, preview, frame, live_updated_at`;

export function prepareStatements(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    /** Around a tick's transaction when WalFlusher syncs it afterwards (synchronous 'full'). */
    unsynced: p('PRAGMA synchronous = NORMAL'),
    synced: p('PRAGMA synchronous = FULL'),

    firstOrg: p('SELECT id, name, created_at FROM orgs ORDER BY id LIMIT 1'),
    insertOrg: p('INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)'),

    insertKey: p(`INSERT INTO api_keys (id, org_id, name, hash, prefix, permissions, channel_ids, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    keyByHash: p('SELECT * FROM api_keys WHERE hash = ?'),
    countKeys: p('SELECT count(*) AS n FROM api_keys'),
    countActiveKeys: p('SELECT count(*) AS n FROM api_keys WHERE org_id = ? AND revoked_at IS NULL'),
    touchKey: p('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    keyById: p('SELECT * FROM api_keys WHERE id = ?'),
    listKeys: p('SELECT * FROM api_keys WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?'),
    revokeKey: p('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?'),

    allChannels: p(`SELECT ${CHANNEL_COLUMNS} FROM channels ORDER BY id`),
    allScenes: p('SELECT * FROM scenes ORDER BY id'),
    allInputs: p('SELECT channel_id, name, value FROM channel_inputs'),
    allClocks: p('SELECT channel_id, name, running, ms, at, period FROM channel_clocks'),
    listChannels: p(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE org_id = ? AND id > ? ORDER BY id LIMIT ?`),
    listChannelsIn: p(`SELECT ${CHANNEL_COLUMNS} FROM channels
      WHERE org_id = ? AND id > ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`),
    insertChannel:
      p(`INSERT INTO channels (id, org_id, name, fps, width, height, output_token, created_at, updated_at, live_updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    updateChannel: p(
      `UPDATE channels SET name = ?, fps = ?, width = ?, height = ?, output_token = ?, updated_at = ? WHERE id = ?`,
    ),
    deleteChannel: p('DELETE FROM channels WHERE id = ?'),

    deleteInput: p('DELETE FROM channel_inputs WHERE channel_id = ? AND name = ?'),
    deleteClock: p('DELETE FROM channel_clocks WHERE channel_id = ? AND name = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
