import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { sha256Hex } from '../../ids.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A database as version 2 left it: an owner with a password, and a member invited but not yet joined. */
function versionTwoDatabase(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-migrate-'));
  dirs.push(dir);
  const db = new Database(path.join(dir, 'onair.db'));
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of MIGRATIONS.filter((x) => x.version <= 2)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 'then');
  }
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
    const newUser = { id: 'usr_new', email: 'invited@example.com', passwordHash: 'h', createdAt: now };
    expect(await accounts.acceptInvitation(pending!.id, { newUser }, now)).toBe('usr_new');
    expect((await accounts.membershipsOf('usr_new')).map((m) => m.role)).toEqual(['operator']);
  } finally {
    await store.close();
  }
});
