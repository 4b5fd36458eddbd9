/**
 * The migration that gave the server an admin and workspace rights, as both stores' migration tests check it: the
 * same rows before it, and what they must become. The setup account owns the first workspace, a later owner was
 * promoted there, and a member made a workspace of their own (anyone could, then).
 */
import { expect } from 'vitest';
import type { AccountStore } from './account-store.js';

export const RIGHTS_MIGRATION = 'who may create workspaces';

/** Rows as the migrations before RIGHTS_MIGRATION held them (SQL that SQLite and Postgres both take). */
export const ROWS_BEFORE_RIGHTS = `
  INSERT INTO orgs VALUES ('org_1', 'Studio', '2026-01-01T00:00:00.000Z'), ('org_2', 'Trap', '2026-03-01T00:00:00.000Z');
  INSERT INTO users VALUES ('usr_b_setup', 'setup@example.com', 'h', '2026-01-01T00:00:01.000Z'),
    ('usr_a_promoted', 'promoted@example.com', 'h', '2026-02-01T00:00:00.000Z'),
    ('usr_c_maker', 'maker@example.com', 'h', '2026-02-02T00:00:00.000Z');
  INSERT INTO memberships VALUES ('usr_b_setup', 'org_1', 'owner', '2026-01-01T00:00:01.000Z'),
    ('usr_a_promoted', 'org_1', 'owner', '2026-02-01T00:00:00.000Z'),
    ('usr_c_maker', 'org_1', 'viewer', '2026-02-02T00:00:00.000Z'),
    ('usr_c_maker', 'org_2', 'owner', '2026-03-01T00:00:00.000Z');
`;

/** The earliest owner of the first workspace is the server admin; nobody else creates workspaces. */
export async function expectRightsGiven(accounts: AccountStore): Promise<void> {
  const listed = (await accounts.listUsers()).map((a) => [a.id, a.serverAdmin, a.createsWorkspaces]);
  expect(listed).toEqual([
    ['usr_b_setup', true, true],
    ['usr_a_promoted', false, false],
    ['usr_c_maker', false, false],
  ]);
  expect(await accounts.serverSettings()).toEqual({ everyoneCreatesWorkspaces: false });
  // The workspace made under the old rule stays its maker's.
  expect((await accounts.membersOf('org_2')).map((m) => [m.userId, m.role])).toEqual([['usr_c_maker', 'owner']]);
}
