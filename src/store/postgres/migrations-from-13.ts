/**
 * Postgres's migrations from version 13 on (the prepared show, the asset library, data sources, the as-run log, OGraf
 * graphics): the rest of ./migrations.ts's list, in order, each the same step as SQLite's of that number
 * (../sqlite/migrations-from-13.ts). Never edit one that has shipped: add the next number.
 */
import type { Migration } from './migrations.js';

export const MIGRATIONS_FROM_13: readonly Migration[] = [
  {
    version: 13,
    name: 'prepared show and scene versions',
    // A channel's rundowns, schedule and on-air history, written with its tick; every save of a scene, the last 50
    // per scene, existing scenes starting at version 1 (why: ../sqlite/migrations.ts, the same step).
    sql: `
      CREATE TABLE rundowns (
        id text COLLATE "C" PRIMARY KEY,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        created_at text COLLATE "C" NOT NULL,
        doc text NOT NULL
      );
      CREATE INDEX rundowns_channel ON rundowns(channel_id, created_at, id);
      CREATE TABLE scheduled_ops (
        id text COLLATE "C" PRIMARY KEY,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        frame bigint NOT NULL,
        seq integer NOT NULL,
        doc text NOT NULL
      );
      CREATE INDEX scheduled_ops_channel ON scheduled_ops(channel_id, frame, seq);
      CREATE TABLE channel_history (
        id text COLLATE "C" PRIMARY KEY,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        doc text NOT NULL
      );
      CREATE INDEX channel_history_channel ON channel_history(channel_id, id);
      CREATE TABLE scene_versions (
        scene_id text COLLATE "C" NOT NULL REFERENCES scenes(id) ON DELETE CASCADE,
        version integer NOT NULL,
        name text NOT NULL,
        definition text NOT NULL,
        saved_at text COLLATE "C" NOT NULL,
        saved_by text NOT NULL,
        PRIMARY KEY (scene_id, version)
      );
      INSERT INTO scene_versions (scene_id, version, name, definition, saved_at, saved_by)
        SELECT id, 1, name, definition, updated_at, '{"type":"system","id":"system","name":"onair"}' FROM scenes;
    `,
  },
  {
    version: 14,
    name: 'asset library',
    // A workspace's images and fonts (docs/assets.md), their bytes in the row so every node serves them. One row per
    // (workspace, content hash): the same bytes uploaded twice are the same asset.
    sql: `
      CREATE TABLE assets (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        sha256 text COLLATE "C" NOT NULL,
        type text NOT NULL,
        kind text NOT NULL,
        name text NOT NULL,
        bytes bigint NOT NULL,
        width integer,
        height integer,
        created_at text COLLATE "C" NOT NULL,
        data bytea NOT NULL,
        UNIQUE (org_id, sha256)
      );
      CREATE INDEX assets_sha256 ON assets(sha256);
    `,
  },
  {
    version: 15,
    name: 'clock periods',
    // The period a clock with periods is in (why: ../sqlite/migrations.ts, the same step).
    sql: `ALTER TABLE channel_clocks ADD COLUMN period integer NOT NULL DEFAULT 0;`,
  },
  {
    version: 16,
    name: 'data sources',
    // A channel's polled feeds and where their fetching stands (why: ../sqlite/migrations.ts, the same step).
    sql: `
      CREATE TABLE sources (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NOT NULL,
        url text NOT NULL,
        interval_ms integer NOT NULL,
        mapping text NOT NULL,
        row_rule text,
        table_rule text,
        paused boolean NOT NULL,
        row_cursor integer NOT NULL,
        etag text,
        last_modified text,
        body_sha256 text,
        last_values text NOT NULL,
        state text NOT NULL,
        last_fetch_at text COLLATE "C",
        last_change_at text COLLATE "C",
        last_error text,
        fail_count integer NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX sources_channel ON sources(channel_id, id);
      CREATE TABLE source_fetches (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id text COLLATE "C" NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        at text COLLATE "C" NOT NULL,
        status integer,
        bytes integer NOT NULL,
        ms double precision NOT NULL,
        changed boolean NOT NULL,
        error text
      );
      CREATE INDEX source_fetches_source ON source_fetches(source_id, seq);
    `,
  },
  {
    version: 17,
    name: 'as-run log',
    // As in SQLite: every interval an instance was on program (docs/as-run.md), gone with its channel.
    sql: `
      CREATE TABLE as_run (
        id text COLLATE "C" PRIMARY KEY,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        layer integer NOT NULL,
        scene_id text NOT NULL,
        scene_name text NOT NULL,
        item_id text,
        label text NOT NULL,
        start_values text NOT NULL,
        updated_values text,
        start_at text COLLATE "C" NOT NULL,
        start_frame bigint NOT NULL,
        end_at text COLLATE "C",
        end_frame bigint,
        taken_by text NOT NULL,
        cleared_by text,
        confirmed_at text COLLATE "C",
        confirmed_by text NOT NULL DEFAULT '[]',
        end_inferred boolean NOT NULL DEFAULT false,
        seen_at text COLLATE "C"
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
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        graphic_id text COLLATE "C" NOT NULL,
        version text COLLATE "C" NOT NULL,
        name text NOT NULL,
        main text NOT NULL,
        step_count integer NOT NULL,
        manifest text NOT NULL,
        sha256 text NOT NULL,
        capability text COLLATE "C" NOT NULL UNIQUE,
        files integer NOT NULL,
        bytes bigint NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        UNIQUE (org_id, graphic_id, version)
      );
      CREATE INDEX graphics_org ON graphics(org_id, id);
      CREATE TABLE graphic_files (
        graphic_id text COLLATE "C" NOT NULL REFERENCES graphics(id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        type text NOT NULL,
        sha256 text NOT NULL,
        bytes bigint NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (graphic_id, path)
      );
    `,
  },
];
