/**
 * Scenes on SQLite, each save with its version (../store.ts, insertScene): the scene's row and the version's in one
 * transaction, so a crash between them cannot leave a save without its version.
 */
import type Database from 'better-sqlite3';
import type { SceneRecord } from '../../engine/index.js';
import type { Actor } from '@onair/protocol';
import { sceneParams } from '../record-rows.js';
import { sceneVersionFromRow, versionSummaryFromRow, type SceneVersionRow } from '../scene-version-rows.js';
import { SCENE_VERSIONS_KEPT, type SceneVersionRecord, type SceneVersionSummary } from '../store.js';

export class SqliteScenes {
  private readonly st: ReturnType<typeof prepare>;
  private readonly insertTx: (scene: SceneRecord, savedBy: Actor) => void;
  private readonly updateTx: (scene: SceneRecord, savedBy: Actor) => void;

  constructor(db: Database.Database) {
    const st = (this.st = prepare(db));
    this.insertTx = db.transaction((s: SceneRecord, savedBy: Actor) => {
      st.insert.run(...sceneParams(s));
      this.addVersion(s, savedBy);
    });
    this.updateTx = db.transaction((s: SceneRecord, savedBy: Actor) => {
      if (st.update.run(s.name, JSON.stringify(s.definition), s.updatedAt, s.id).changes === 0) return;
      this.addVersion(s, savedBy);
    });
  }

  insert(scene: SceneRecord, savedBy: Actor): void {
    this.insertTx(scene, savedBy);
  }

  update(scene: SceneRecord, savedBy: Actor): void {
    this.updateTx(scene, savedBy);
  }

  delete(id: string): void {
    this.st.delete.run(id);
  }

  versions(sceneId: string): SceneVersionSummary[] {
    return (this.st.versions.all(sceneId) as SceneVersionRow[]).map(versionSummaryFromRow);
  }

  version(sceneId: string, version: number): SceneVersionRecord | undefined {
    const row = this.st.version.get(sceneId, version) as SceneVersionRow | undefined;
    return row ? sceneVersionFromRow(row) : undefined;
  }

  private addVersion(s: SceneRecord, savedBy: Actor): void {
    const definition = JSON.stringify(s.definition);
    this.st.addVersion.run({ id: s.id, name: s.name, definition, at: s.updatedAt, by: JSON.stringify(savedBy) });
    this.st.pruneVersions.run({ id: s.id, kept: SCENE_VERSIONS_KEPT });
  }
}

function prepare(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    insert: p(
      'INSERT INTO scenes (id, channel_id, name, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    update: p('UPDATE scenes SET name = ?, definition = ?, updated_at = ? WHERE id = ?'),
    delete: p('DELETE FROM scenes WHERE id = ?'),
    addVersion: p(`INSERT INTO scene_versions (scene_id, version, name, definition, saved_at, saved_by)
      SELECT @id, coalesce(max(version), 0) + 1, @name, @definition, @at, @by FROM scene_versions WHERE scene_id = @id`),
    pruneVersions: p(`DELETE FROM scene_versions WHERE scene_id = @id
      AND version <= (SELECT max(version) FROM scene_versions WHERE scene_id = @id) - @kept`),
    versions: p(
      `SELECT version, name, saved_at, saved_by FROM scene_versions WHERE scene_id = ? ORDER BY version DESC`,
    ),
    version: p('SELECT * FROM scene_versions WHERE scene_id = ? AND version = ?'),
  };
}
