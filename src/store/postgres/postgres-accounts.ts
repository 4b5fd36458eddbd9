/**
 * The AccountStore on the same Postgres database as the rest of the store. Where SQLite relies on its single
 * writer, this takes row locks: a change of membership locks the workspace's row first, so the owner count it
 * reads cannot be changed under it; an invitation is locked before it is accepted; a token is used by one
 * conditional UPDATE.
 */
import type { Role } from '../../domain/roles.js';
import {
  EmailTakenError,
  type Acceptance,
  type AccountStore,
  type InvitationRecord,
  type MemberChange,
  type MembershipRecord,
  type OneTimeTokenRecord,
  type OrgRecord,
  type PruneResult,
  type ServerSettings,
  type SessionRecord,
  type TokenKind,
  type UserRecord,
} from '../account-store.js';
import type { Database, Sql } from './database.js';
import {
  accountSummary,
  invitation,
  member,
  serverSettings,
  session,
  token,
  user,
  type AccountSummaryRow,
  type InvitationRow,
  type ServerSettingsRow,
  type MemberRow,
  type SessionRow,
  type TokenRow,
  type UserRow,
} from '../account-rows.js';

const UNIQUE_VIOLATION = '23505';
const SETTINGS_SQL = 'SELECT everyone_creates_workspaces FROM server_settings WHERE id = 1';
const INVITATION_COLUMNS = 'id, org_id, email, role, token_hash, created_at, expires_at, accepted_at';

export class PostgresAccounts implements AccountStore {
  constructor(private readonly db: Database) {}

  async insertOrg(o: OrgRecord) {
    await this.db.run('INSERT INTO orgs (id, name, created_at) VALUES ($1, $2, $3)', [o.id, o.name, o.createdAt]);
  }
  async getOrg(id: string) {
    const r = await this.db.row<{ id: string; name: string; created_at: string }>(
      'SELECT id, name, created_at FROM orgs WHERE id = $1',
      [id],
    );
    return r ? { id: r.id, name: r.name, createdAt: r.created_at } : undefined;
  }
  async renameOrg(id: string, name: string) {
    await this.db.run('UPDATE orgs SET name = $1 WHERE id = $2', [name, id]);
  }

  async insertUser(u: UserRecord) {
    await insertUserRow(this.db, u);
  }
  async getUser(id: string) {
    const r = await this.db.row<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return r ? user(r) : undefined;
  }
  async findUserByEmail(email: string) {
    const r = await this.db.row<UserRow>('SELECT * FROM users WHERE email = $1', [email]);
    return r ? user(r) : undefined;
  }
  async setPassword(userId: string, hash: string, keepSession?: string) {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, userId]);
      await tx.run('DELETE FROM sessions WHERE user_id = $1 AND hash IS DISTINCT FROM $2', [
        userId,
        keepSession ?? null,
      ]);
      await tx.run(`DELETE FROM one_time_tokens WHERE user_id = $1 AND kind = 'reset' AND used_at IS NULL`, [userId]);
    });
  }
  async countUsers() {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM users'))!.n;
  }
  async listUsers() {
    const rows = await this.db.rows<AccountSummaryRow>(
      `SELECT u.*, (SELECT count(*) FROM memberships m WHERE m.user_id = u.id AND m.role = 'owner')
        AS owned_workspaces FROM users u ORDER BY u.created_at, u.id`,
    );
    return rows.map(accountSummary);
  }
  async setCreatesWorkspaces(userId: string, allowed: boolean) {
    return (await this.db.run('UPDATE users SET creates_workspaces = $1 WHERE id = $2', [allowed, userId])) > 0;
  }
  async serverSettings() {
    return serverSettings(await this.db.row<ServerSettingsRow>(SETTINGS_SQL));
  }
  async updateServerSettings(change: Partial<ServerSettings>) {
    return this.db.transaction(async (tx) => {
      await tx.run(
        `UPDATE server_settings
          SET everyone_creates_workspaces = coalesce($1, everyone_creates_workspaces) WHERE id = 1`,
        [change.everyoneCreatesWorkspaces ?? null],
      );
      return serverSettings(await tx.row<ServerSettingsRow>(SETTINGS_SQL));
    });
  }

  async insertMembership(m: MembershipRecord) {
    await this.db.run('INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ($1, $2, $3, $4)', [
      m.userId,
      m.orgId,
      m.role,
      m.createdAt,
    ]);
  }
  async setMemberRole(orgId: string, userId: string, role: Role) {
    return this.changeMember(orgId, userId, role);
  }
  async removeMember(orgId: string, userId: string) {
    return this.changeMember(orgId, userId, null);
  }
  async membershipsOf(userId: string) {
    const rows = await this.db.rows<MemberRow>(
      'SELECT * FROM memberships WHERE user_id = $1 ORDER BY created_at, org_id',
      [userId],
    );
    return rows.map(member);
  }
  async membersOf(orgId: string) {
    const rows = await this.db.rows<MemberRow>(
      `SELECT m.*, u.email FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = $1 ORDER BY m.created_at, m.user_id`,
      [orgId],
    );
    return rows.map((r) => ({ ...member(r), email: r.email ?? '' }));
  }

  async insertInvitation(i: InvitationRecord) {
    await this.db.run(
      `INSERT INTO invitations (id, org_id, email, role, token_hash, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [i.id, i.orgId, i.email, i.role, i.tokenHash, i.createdAt, i.expiresAt],
    );
  }
  async listInvitations(orgId: string, now: string) {
    const rows = await this.db.rows<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE org_id = $1 AND accepted_at IS NULL AND expires_at > $2
        ORDER BY id`,
      [orgId, now],
    );
    return rows.map(invitation);
  }
  async findInvitation(tokenHash: string, now: string) {
    const r = await this.db.row<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1 AND accepted_at IS NULL
        AND expires_at > $2`,
      [tokenHash, now],
    );
    return r ? invitation(r) : undefined;
  }
  async deleteInvitation(orgId: string, id: string) {
    const n = await this.db.run('DELETE FROM invitations WHERE org_id = $1 AND id = $2 AND accepted_at IS NULL', [
      orgId,
      id,
    ]);
    return n > 0;
  }
  /** The invitation's row is locked first: a concurrent acceptance waits, then finds it accepted. */
  async acceptInvitation(id: string, acceptance: Acceptance, now: string) {
    return this.db.transaction(async (tx) => {
      const row = await tx.row<InvitationRow>(
        `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE id = $1 AND accepted_at IS NULL AND expires_at > $2
          FOR UPDATE`,
        [id, now],
      );
      if (!row) return undefined;
      const userId = 'userId' in acceptance ? acceptance.userId : acceptance.newUser.id;
      if ('newUser' in acceptance) await insertUserRow(tx, acceptance.newUser);
      await tx.run('UPDATE invitations SET accepted_at = $1, accepted_by = $2 WHERE id = $3', [now, userId, id]);
      await tx.run(
        `INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ($1, $2, $3, $4)
          ON CONFLICT (user_id, org_id) DO NOTHING`,
        [userId, row.org_id, row.role, now],
      );
      return userId;
    });
  }

  async insertSession(s: SessionRecord) {
    await this.db.run('INSERT INTO sessions (hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      s.hash,
      s.userId,
      s.createdAt,
      s.expiresAt,
    ]);
  }
  async findSession(hash: string) {
    const r = await this.db.row<SessionRow>('SELECT * FROM sessions WHERE hash = $1', [hash]);
    return r ? session(r) : undefined;
  }
  async deleteSession(hash: string) {
    await this.db.run('DELETE FROM sessions WHERE hash = $1', [hash]);
  }

  async insertToken(t: OneTimeTokenRecord) {
    await this.db.run(
      `INSERT INTO one_time_tokens (hash, kind, org_id, user_id, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6)`,
      [t.hash, t.kind, t.orgId, t.userId, t.createdAt, t.expiresAt],
    );
  }
  /** One conditional UPDATE: of two concurrent uses, the second waits for the first and then matches nothing. */
  async consumeToken(hash: string, kind: TokenKind, now: string): Promise<OneTimeTokenRecord | undefined> {
    const r = await this.db.row<TokenRow>(
      `UPDATE one_time_tokens SET used_at = $1
        WHERE hash = $2 AND kind = $3 AND used_at IS NULL AND expires_at > $1 RETURNING *`,
      [now, hash, kind],
    );
    return r ? token(r) : undefined;
  }
  async voidTokens(kind: TokenKind, now: string) {
    await this.db.run('UPDATE one_time_tokens SET used_at = $1 WHERE kind = $2 AND used_at IS NULL', [now, kind]);
  }

  async prune(now: string): Promise<PruneResult> {
    return this.db.transaction(async (tx) => ({
      sessions: await tx.run('DELETE FROM sessions WHERE expires_at <= $1', [now]),
      tokens: await tx.run('DELETE FROM one_time_tokens WHERE used_at IS NOT NULL OR expires_at <= $1', [now]),
      invitations: await tx.run('DELETE FROM invitations WHERE accepted_at IS NOT NULL OR expires_at <= $1', [now]),
    }));
  }

  /**
   * Reads and changes the owner count under a lock on the workspace's row: two concurrent demotions of two
   * owners run one after the other, and the second sees one owner left. (In READ COMMITTED each statement reads
   * what was committed before it started, so the reads after the lock see the first change.)
   */
  private changeMember(orgId: string, userId: string, role: Role | null): Promise<MemberChange> {
    return this.db.transaction(async (tx) => {
      await tx.run('SELECT 1 FROM orgs WHERE id = $1 FOR NO KEY UPDATE', [orgId]);
      const current = await tx.row<{ role: Role }>('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [
        orgId,
        userId,
      ]);
      if (!current) return 'not_member';
      if (current.role === 'owner' && role !== 'owner') {
        const owners = await tx.row<{ n: number }>(
          `SELECT count(*) AS n FROM memberships WHERE org_id = $1 AND role = 'owner'`,
          [orgId],
        );
        if (owners!.n <= 1) return 'last_owner';
      }
      if (role === null) await tx.run('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
      else await tx.run('UPDATE memberships SET role = $1 WHERE org_id = $2 AND user_id = $3', [role, orgId, userId]);
      return 'ok';
    });
  }
}

async function insertUserRow(sql: Sql, u: UserRecord): Promise<void> {
  try {
    await sql.run(
      `INSERT INTO users (id, email, password_hash, created_at, server_admin, creates_workspaces)
        VALUES ($1, $2, $3, $4, $5, $6)`,
      [u.id, u.email, u.passwordHash, u.createdAt, u.serverAdmin, u.createsWorkspaces],
    );
  } catch (err) {
    // The other unique index on users keeps a single server admin: that is a bug, not a taken email.
    const e = err as { code?: string; constraint?: string };
    if (e.code === UNIQUE_VIOLATION && e.constraint === 'users_email_key') throw new EmailTakenError();
    throw err;
  }
}
