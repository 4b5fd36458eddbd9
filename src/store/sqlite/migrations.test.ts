import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { sha256Hex } from '../../ids.js';
import { expectRightsGiven, RIGHTS_MIGRATION, ROWS_BEFORE_RIGHTS } from '../rights-migration.fixtures.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';
import { SYSTEM_ACTOR } from '@onair/protocol';

const tempDir = tempDirs('onair-migrate-');

/** A database at `version`: the migrations up to it applied, as a server of that time left it, and no rows yet. */
function databaseAt(version: number): { dir: string; db: Database.Database } {
  const dir = tempDir();
  const db = new Database(path.join(dir, 'onair.db'));
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    db.exec(m.sql);
    m.up?.(db);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 'then');
  }
  return { dir, db };
}

/** A database as version 2 left it: an owner with a password, and a member invited but not yet joined. */
function versionTwoDatabase(): string {
  const { dir, db } = databaseAt(2);
  const at = '2026-11-20T10:00:00.000Z';
  const until = '2099-01-01T00:00:00.000Z';
  db.exec(`
    INSERT INTO orgs VALUES ('org_1', 'Studio', '${at}');
    INSERT INTO users VALUES ('usr_owner', 'owner@example.com', 'argon-hash', '${at}');
    INSERT INTO users VALUES ('usr_invited', 'invited@example.com', NULL, '${at}');
    INSERT INTO memberships VALUES ('usr_owner', 'org_1', 'owner', '${at}');
    INSERT INTO memberships VALUES ('usr_invited', 'org_1', 'operator', '${at}');
    INSERT INTO sessions VALUES ('session-hash', 'usr_owner', '${at}', '${until}');
    INSERT INTO one_time_tokens VALUES ('${sha256Hex('old-link')}', 'invite', 'org_1', 'usr_invited', '${at}', '${until}', NULL);
    INSERT INTO one_time_tokens VALUES ('setup-hash', 'setup', 'org_1', NULL, '${at}', '${until}', '${at}');
  `);
  db.close();
  return dir;
}

it('turns the invited, password-less users of version 2 into pending invitations with the same links', async () => {
  const dir = versionTwoDatabase();
  const store = new SqliteStore({ dataDir: dir, synchronous: 'normal' });
  try {
    const { accounts } = store;
    expect(await accounts.findUserByEmail('invited@example.com')).toBeUndefined();
    expect((await accounts.findUserByEmail('owner@example.com'))?.passwordHash).toBe('argon-hash');
    expect(await accounts.findSession('session-hash')).toBeDefined();
    const now = new Date().toISOString();
    const pending = await accounts.findInvitation(sha256Hex('old-link'), now);
    expect(pending).toMatchObject({ orgId: 'org_1', email: 'invited@example.com', role: 'operator' });
    expect((await accounts.membersOf('org_1')).map((m) => m.email)).toEqual(['owner@example.com']);
    const newUser = {
      id: 'usr_new',
      email: 'invited@example.com',
      passwordHash: 'h',
      createdAt: now,
      serverAdmin: false,
      createsWorkspaces: false,
    };
    expect(await accounts.acceptInvitation(pending!.id, { newUser }, now)).toBe('usr_new');
    expect((await accounts.membershipsOf('usr_new')).map((m) => m.role)).toEqual(['operator']);
  } finally {
    await store.close();
  }
});

/** A database as version 3 left it: a channel on air with an old-shape scene, another cued. */
function versionThreeDatabase(): string {
  const { dir, db } = databaseAt(3);
  const at = '2026-11-20T10:00:00.000Z';
  const since = '2026-11-20T10:05:00.000Z';
  const insertChannel = db.prepare(`INSERT INTO channels (id, org_id, name, fps, width, height, output_token,
    created_at, updated_at, program_scene_id, program_since, preview_scene_id, frame, live_updated_at)
    VALUES (?, 'org_1', ?, 60, 1920, 1080, 'tok', ?, ?, ?, ?, ?, 42, ?)`);
  db.prepare("INSERT INTO orgs VALUES ('org_1', 'Studio', ?)").run(at);
  insertChannel.run('ch_live', 'Live', at, at, 'sc_board', since, 'sc_board', at);
  insertChannel.run('ch_cued', 'Cued', at, at, null, null, 'sc_card', at);
  const insertScene = db.prepare('INSERT INTO scenes VALUES (?, ?, ?, ?, ?, ?)');
  insertScene.run('sc_board', 'ch_live', 'Board', JSON.stringify(OLD_BOARD), at, at);
  insertScene.run('sc_card', 'ch_cued', 'Card', JSON.stringify({ inputs: [], triggers: [], layers: [] }), at, at);
  db.prepare("INSERT INTO channel_inputs VALUES ('ch_live', 'score', '3')").run();
  db.close();
  return dir;
}

const OLD_BOARD = {
  inputs: [
    { name: 'score', type: 'number', label: 'Score', default: 0 },
    { name: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  ],
  triggers: ['goal'],
  layers: [
    { type: 'rect', x: 0, y: 0, width: 400, height: 100, color: '{accent}', radius: 8, opacity: 0.9 },
    { type: 'text', x: 10, y: 10, width: 380, height: 80, text: '{score}', fontSize: 60, fontFamily: 'Comic Sans' },
  ],
};

it('version 4 puts the old buses on layer 0 and rewrites old-shape scenes to format v1', async () => {
  const dir = versionThreeDatabase();
  const store = new SqliteStore({ dataDir: dir, synchronous: 'normal' });
  try {
    const [cued, live] = await store.loadChannels();
    expect(live!.live).toEqual({
      values: new Map([['score', 3]]),
      clocks: new Map(),
      program: [{ sceneId: 'sc_board', layer: 0, since: '2026-11-20T10:05:00.000Z', itemId: null, values: {} }],
      preview: [{ sceneId: 'sc_board', layer: 0, itemId: null, values: {} }],
      rundowns: new Map(),
      schedule: [],
      history: [],
      frame: 42,
      updatedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(cued!.live).toMatchObject({ program: [], preview: [{ sceneId: 'sc_card', layer: 0 }] });
    expect(live!.scenes[0]!.definition).toEqual({
      version: 1,
      layer: 0,
      inputs: OLD_BOARD.inputs,
      elements: [
        { type: 'box', x: 0, y: 0, width: 400, height: 100, fill: '{accent}', radius: 8, opacity: 0.9 },
        { type: 'text', x: 10, y: 10, width: 380, height: 80, text: '{score}', fontSize: 60 },
      ],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [{ name: 'goal', animation: 'flash', durationMs: 600 }],
    });
    expect(cued!.scenes[0]!.definition).toMatchObject({ version: 1, elements: [], triggers: [] });
    // The new tables are there and written with ticks.
    expect(await store.listEvents('org_1', { limit: 10 })).toEqual({ events: [], nextCursor: null });
    // Scenes saved before versions were kept start with their definition as version 1, saved by the server.
    expect(await store.listSceneVersions('sc_board')).toEqual([
      { version: 1, name: 'Board', savedAt: '2026-11-20T10:00:00.000Z', savedBy: SYSTEM_ACTOR },
    ]);
    expect((await store.getSceneVersion('sc_board', 1))!.definition).toEqual(live!.scenes[0]!.definition);
  } finally {
    await store.close();
  }
});

/** A database as the migrations before RIGHTS_MIGRATION left it, with ROWS_BEFORE_RIGHTS. */
function databaseBeforeRights(): string {
  const { dir, db } = databaseAt(MIGRATIONS.find((x) => x.name === RIGHTS_MIGRATION)!.version - 1);
  db.exec(ROWS_BEFORE_RIGHTS);
  db.close();
  return dir;
}

it('makes the earliest owner of the first workspace the server admin, and nobody else a workspace creator', async () => {
  const store = new SqliteStore({ dataDir: databaseBeforeRights(), synchronous: 'normal' });
  try {
    await expectRightsGiven(store.accounts);
  } finally {
    await store.close();
  }
});
