/**
 * Scenes on Postgres, each save with its version (../store.ts, insertScene) in one transaction. An update takes the
 * scene's row lock first, so two saves of one scene at once (two nodes) number their versions one after the other.
 */
import type { SceneRecord } from '../../engine/index.js';
import type { Actor } from '@onair/protocol';
import { sceneParams } from '../record-rows.js';
import { sceneVersionFromRow, versionSummaryFromRow, type SceneVersionRow } from '../scene-version-rows.js';
import { SCENE_VERSIONS_KEPT, type SceneVersionRecord, type SceneVersionSummary } from '../store.js';
import type { Database, Sql } from './database.js';

const SQL = {
  insert: `INSERT INTO scenes (id, channel_id, name, definition, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6)`,
  update: 'UPDATE scenes SET name = $2, definition = $3, updated_at = $4 WHERE id = $1',
  addVersion: `INSERT INTO scene_versions (scene_id, version, name, definition, saved_at, saved_by)
    SELECT $1::text, coalesce(max(version), 0) + 1, $2::text, $3::text, $4::text, $5::text
    FROM scene_versions WHERE scene_id = $1`,
  prune: `DELETE FROM scene_versions WHERE scene_id = $1
    AND version <= (SELECT max(version) FROM scene_versions WHERE scene_id = $1) - $2`,
  versions: 'SELECT version, name, saved_at, saved_by FROM scene_versions WHERE scene_id = $1 ORDER BY version DESC',
  version: 'SELECT * FROM scene_versions WHERE scene_id = $1 AND version = $2',
};

export class PostgresScenes {
  constructor(private readonly db: Database) {}

  async insert(s: SceneRecord, savedBy: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(SQL.insert, sceneParams(s));
      await addVersion(tx, s, savedBy);
    });
  }

  async update(s: SceneRecord, savedBy: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const updated = await tx.run(SQL.update, [s.id, s.name, JSON.stringify(s.definition), s.updatedAt]);
      if (updated > 0) await addVersion(tx, s, savedBy);
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.run('DELETE FROM scenes WHERE id = $1', [id]);
  }

  async versions(sceneId: string): Promise<SceneVersionSummary[]> {
    return (await this.db.rows<SceneVersionRow>(SQL.versions, [sceneId])).map(versionSummaryFromRow);
  }

  async version(sceneId: string, version: number): Promise<SceneVersionRecord | undefined> {
    const row = await this.db.row<SceneVersionRow>(SQL.version, [sceneId, version]);
    return row ? sceneVersionFromRow(row) : undefined;
  }
}

async function addVersion(tx: Sql, s: SceneRecord, savedBy: Actor): Promise<void> {
  await tx.run(SQL.addVersion, [s.id, s.name, JSON.stringify(s.definition), s.updatedAt, JSON.stringify(savedBy)]);
  await tx.run(SQL.prune, [s.id, SCENE_VERSIONS_KEPT]);
}
