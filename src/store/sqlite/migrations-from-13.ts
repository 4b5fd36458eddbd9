/**
 * SQLite's migrations from version 13 on (the prepared show, the asset library, data sources, the as-run log, OGraf
 * graphics): the rest of ./migrations.ts's list, in order. Never edit one that has shipped: add the next number
 * here, and the same number to ../postgres/migrations-from-13.ts.
 */
import type { Migration } from './migrations.js';

export const MIGRATIONS_FROM_13: readonly Migration[] = [
  {
    version: 13,
    name: 'prepared show and scene versions',
    // A channel's prepared show (docs/rundowns.md), written with its tick: each rundown whole, the schedule (its
    // position kept, so ops due in one frame run in the order they were set) and the on-air history, each entry with
    // what it touched before and after. Scene versions: every save of a scene's definition (docs/scenes.md,
    // "Versions"), the last 50 per scene. A scene that exists already gets its current definition as version 1,
    // saved by the server itself (who saved it before is not known), so its first edit can be taken back.
    sql: `
      CREATE TABLE rundowns (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX rundowns_channel ON rundowns(channel_id, created_at, id);
      CREATE TABLE scheduled_ops (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        frame INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX scheduled_ops_channel ON scheduled_ops(channel_id, frame, seq);
      CREATE TABLE channel_history (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        doc TEXT NOT NULL
      );
      CREATE INDEX channel_history_channel ON channel_history(channel_id, id);
      CREATE TABLE scene_versions (
        scene_id TEXT NOT NULL REFERENCES scenes(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        definition TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        saved_by TEXT NOT NULL,
        PRIMARY KEY (scene_id, version)
      );
      INSERT INTO scene_versions (scene_id, version, name, definition, saved_at, saved_by)
        SELECT id, 1, name, definition, updated_at, '{"type":"system","id":"system","name":"onair"}' FROM scenes;
    `,
  },
  {
    version: 14,
    name: 'asset library',
    // A workspace's images and fonts (docs/assets.md), their bytes in the row: a backup carries them. One row per
    // (workspace, content hash): the same bytes uploaded twice are the same asset.
    sql: `
      CREATE TABLE assets (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        sha256 TEXT NOT NULL,
        type TEXT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        width INTEGER,
        height INTEGER,
        created_at TEXT NOT NULL,
        data BLOB NOT NULL,
        UNIQUE (org_id, sha256)
      );
      CREATE INDEX assets_sha256 ON assets(sha256);
    `,
  },
  {
    version: 15,
    name: 'clock periods',
    // The period a clock with periods is in (docs/scenes.md, "Periods"); 0, the first, for every clock until then.
    sql: `ALTER TABLE channel_clocks ADD COLUMN period INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 16,
    name: 'data sources',
    // A channel's polled feeds (docs/data-sources.md), gone with their channel. Besides what a source polls, a row
    // keeps where its fetching stands, so a restart (or, with several nodes, a new owner) goes on from there: the
    // validators of the last body, the values last applied, the cursor, the last error. The log keeps the newest
    // fetches of each source. `row_rule`, `table_rule`, `row_cursor`: ROW, TABLE and CURSOR are SQL words.
    sql: `
      CREATE TABLE sources (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        name TEXT NOT NULL,
        url TEXT NOT NULL,
        interval_ms INTEGER NOT NULL,
        mapping TEXT NOT NULL,
        row_rule TEXT,
        table_rule TEXT,
        paused INTEGER NOT NULL,
        row_cursor INTEGER NOT NULL,
        etag TEXT,
        last_modified TEXT,
        body_sha256 TEXT,
        last_values TEXT NOT NULL,
        state TEXT NOT NULL,
        last_fetch_at TEXT,
        last_change_at TEXT,
        last_error TEXT,
        fail_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX sources_channel ON sources(channel_id, id);
      CREATE TABLE source_fetches (
        seq INTEGER PRIMARY KEY,
        source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        status INTEGER,
        bytes INTEGER NOT NULL,
        ms REAL NOT NULL,
        changed INTEGER NOT NULL,
        error TEXT
      );
      CREATE INDEX source_fetches_source ON source_fetches(source_id, seq);
    `,
  },
  {
    version: 17,
    name: 'as-run log',
    // Every interval an instance was on program (docs/as-run.md), gone with its channel. The values are JSON as the
    // frame drew them; `seen_at` is the last time the server saw an open interval on air (what an end is inferred
    // from after a crash). `start_values`: VALUES is an SQL word.
    sql: `
      CREATE TABLE as_run (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        layer INTEGER NOT NULL,
        scene_id TEXT NOT NULL,
        scene_name TEXT NOT NULL,
        item_id TEXT,
        label TEXT NOT NULL,
        start_values TEXT NOT NULL,
        updated_values TEXT,
        start_at TEXT NOT NULL,
        start_frame INTEGER NOT NULL,
        end_at TEXT,
        end_frame INTEGER,
        taken_by TEXT NOT NULL,
        cleared_by TEXT,
        confirmed_at TEXT,
        confirmed_by TEXT NOT NULL DEFAULT '[]',
        end_inferred INTEGER NOT NULL DEFAULT 0,
        seen_at TEXT
      );
      CREATE INDEX as_run_channel ON as_run(channel_id, id);
      CREATE INDEX as_run_layer ON as_run(channel_id, layer, id);
      CREATE INDEX as_run_channel_end ON as_run(channel_id, end_at);
      CREATE INDEX as_run_end ON as_run(end_at);
    `,
  },
  {
    version: 18,
    name: 'ograf graphics',
    // Imported OGraf graphics (docs/ograf.md): one per workspace, manifest id and version; their files' bytes beside
    // them, gone with the graphic.
    sql: `
      CREATE TABLE graphics (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        graphic_id TEXT NOT NULL,
        version TEXT NOT NULL,
        name TEXT NOT NULL,
        main TEXT NOT NULL,
        step_count INTEGER NOT NULL,
        manifest TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        capability TEXT NOT NULL UNIQUE,
        files INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, graphic_id, version)
      );
      CREATE INDEX graphics_org ON graphics(org_id, id);
      CREATE TABLE graphic_files (
        graphic_id TEXT NOT NULL REFERENCES graphics(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        type TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (graphic_id, path)
      );
    `,
  },
];
