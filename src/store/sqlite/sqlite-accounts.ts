/** The AccountStore on the same SQLite database as the rest of the store. */
import type Database from 'better-sqlite3';
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

function prepare(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    insertOrg: p('INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)'),
    getOrg: p('SELECT id, name, created_at FROM orgs WHERE id = ?'),
    renameOrg: p('UPDATE orgs SET name = ? WHERE id = ?'),
    insertUser: p(`INSERT INTO users (id, email, password_hash, created_at, server_admin, creates_workspaces)
      VALUES (?, ?, ?, ?, ?, ?)`),
    getUser: p('SELECT * FROM users WHERE id = ?'),
    userByEmail: p('SELECT * FROM users WHERE email = ?'),
    setPassword: p('UPDATE users SET password_hash = ? WHERE id = ?'),
    endOtherSessions: p('DELETE FROM sessions WHERE user_id = ? AND hash IS NOT ?'),
    withdrawResets: p(`DELETE FROM one_time_tokens WHERE user_id = ? AND kind = 'reset' AND used_at IS NULL`),
    countUsers: p('SELECT count(*) AS n FROM users'),
    listUsers: p(`SELECT u.*, (SELECT count(*) FROM memberships m WHERE m.user_id = u.id AND m.role = 'owner')
      AS owned_workspaces FROM users u ORDER BY u.created_at, u.id`),
    setCreates: p('UPDATE users SET creates_workspaces = ? WHERE id = ?'),
    settings: p('SELECT everyone_creates_workspaces FROM server_settings WHERE id = 1'),
    updateSettings: p(`UPDATE server_settings
      SET everyone_creates_workspaces = coalesce(?, everyone_creates_workspaces) WHERE id = 1`),
    insertMember: p('INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, ?, ?)'),
    insertMemberIfNew: p(`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (user_id, org_id) DO NOTHING`),
    memberRole: p('SELECT role FROM memberships WHERE org_id = ? AND user_id = ?'),
    countOwners: p(`SELECT count(*) AS n FROM memberships WHERE org_id = ? AND role = 'owner'`),
    setRole: p('UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?'),
    deleteMember: p('DELETE FROM memberships WHERE org_id = ? AND user_id = ?'),
    membershipsOf: p('SELECT * FROM memberships WHERE user_id = ? ORDER BY created_at, org_id'),
    membersOf: p(`SELECT m.*, u.email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = ? ORDER BY m.created_at, m.user_id`),
    insertInvitation: p(`INSERT INTO invitations (id, org_id, email, role, token_hash, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`),
    listInvitations: p(`SELECT * FROM invitations WHERE org_id = ? AND accepted_at IS NULL AND expires_at > ?
      ORDER BY id`),
    invitationByToken: p(`SELECT * FROM invitations WHERE token_hash = ? AND accepted_at IS NULL
      AND expires_at > ?`),
    invitationById: p('SELECT * FROM invitations WHERE id = ? AND accepted_at IS NULL AND expires_at > ?'),
    deleteInvitation: p('DELETE FROM invitations WHERE org_id = ? AND id = ? AND accepted_at IS NULL'),
    markAccepted: p(`UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ?
      AND accepted_at IS NULL AND expires_at > ?`),
    insertSession: p('INSERT INTO sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
    findSession: p('SELECT * FROM sessions WHERE hash = ?'),
    deleteSession: p('DELETE FROM sessions WHERE hash = ?'),
    insertToken: p(`INSERT INTO one_time_tokens (hash, kind, org_id, user_id, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?)`),
    findToken: p('SELECT * FROM one_time_tokens WHERE hash = ?'),
    useToken: p('UPDATE one_time_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL'),
    voidTokens: p('UPDATE one_time_tokens SET used_at = ? WHERE kind = ? AND used_at IS NULL'),
    pruneSessions: p('DELETE FROM sessions WHERE expires_at <= ?'),
    pruneTokens: p('DELETE FROM one_time_tokens WHERE used_at IS NOT NULL OR expires_at <= ?'),
    pruneInvitations: p('DELETE FROM invitations WHERE accepted_at IS NOT NULL OR expires_at <= ?'),
  };
}

export class SqliteAccounts implements AccountStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly consume;
  private readonly changeMember;
  private readonly accept;
  private readonly passwordTx;
  private readonly updateSettings;

  constructor(private readonly db: Database.Database) {
    const st = (this.st = prepare(db));
    this.consume = db.transaction((hash: string, kind: TokenKind, now: string) => {
      const row = st.findToken.get(hash) as TokenRow | undefined;
      if (!row || row.kind !== kind || row.used_at !== null || row.expires_at <= now) return undefined;
      st.useToken.run(now, hash);
      return row;
    });
    // The owner count is read and changed in one transaction: SQLite serialises writers, so two
    // concurrent demotions cannot both see a second owner.
    this.changeMember = db.transaction((orgId: string, userId: string, role: Role | null): MemberChange => {
      const current = st.memberRole.get(orgId, userId) as { role: Role } | undefined;
      if (!current) return 'not_member';
      if (current.role === 'owner' && role !== 'owner' && (st.countOwners.get(orgId) as { n: number }).n <= 1) {
        return 'last_owner';
      }
      if (role === null) st.deleteMember.run(orgId, userId);
      else st.setRole.run(role, orgId, userId);
      return 'ok';
    });
    this.accept = db.transaction((id: string, acceptance: Acceptance, now: string) => {
      const row = st.invitationById.get(id, now) as InvitationRow | undefined;
      if (!row) return undefined;
      const userId = 'userId' in acceptance ? acceptance.userId : acceptance.newUser.id;
      if ('newUser' in acceptance) this.insertUserRow(acceptance.newUser);
      st.markAccepted.run(now, userId, id, now);
      st.insertMemberIfNew.run(userId, row.org_id, row.role, now);
      return userId;
    });
    this.passwordTx = db.transaction((userId: string, hash: string, keep: string | null) => {
      st.setPassword.run(hash, userId);
      st.endOtherSessions.run(userId, keep);
      st.withdrawResets.run(userId);
    });
    this.updateSettings = db.transaction((change: Partial<ServerSettings>) => {
      const everyone = change.everyoneCreatesWorkspaces;
      st.updateSettings.run(everyone === undefined ? null : Number(everyone));
      return serverSettings(st.settings.get() as ServerSettingsRow | undefined);
    });
  }

  async insertOrg(o: OrgRecord) {
    this.st.insertOrg.run(o.id, o.name, o.createdAt);
  }
  async getOrg(id: string) {
    const r = this.st.getOrg.get(id) as { id: string; name: string; created_at: string } | undefined;
    return r ? { id: r.id, name: r.name, createdAt: r.created_at } : undefined;
  }
  async renameOrg(id: string, name: string) {
    this.st.renameOrg.run(name, id);
  }
  async insertUser(u: UserRecord) {
    this.insertUserRow(u);
  }
  async getUser(id: string) {
    const r = this.st.getUser.get(id) as UserRow | undefined;
    return r ? user(r) : undefined;
  }
  async findUserByEmail(email: string) {
    const r = this.st.userByEmail.get(email) as UserRow | undefined;
    return r ? user(r) : undefined;
  }
  async setPassword(userId: string, hash: string, keepSession?: string) {
    this.passwordTx(userId, hash, keepSession ?? null);
  }
  async countUsers() {
    return (this.st.countUsers.get() as { n: number }).n;
  }
  async listUsers() {
    return (this.st.listUsers.all() as AccountSummaryRow[]).map(accountSummary);
  }
  async setCreatesWorkspaces(userId: string, allowed: boolean) {
    return this.st.setCreates.run(Number(allowed), userId).changes > 0;
  }
  async serverSettings() {
    return serverSettings(this.st.settings.get() as ServerSettingsRow | undefined);
  }
  async updateServerSettings(change: Partial<ServerSettings>) {
    return this.updateSettings(change);
  }
  async insertMembership(m: MembershipRecord) {
    this.st.insertMember.run(m.userId, m.orgId, m.role, m.createdAt);
  }
  async setMemberRole(orgId: string, userId: string, role: Role) {
    return this.changeMember(orgId, userId, role);
  }
  async removeMember(orgId: string, userId: string) {
    return this.changeMember(orgId, userId, null);
  }
  async membershipsOf(userId: string) {
    return (this.st.membershipsOf.all(userId) as MemberRow[]).map(member);
  }
  async membersOf(orgId: string) {
    return (this.st.membersOf.all(orgId) as MemberRow[]).map((r) => ({ ...member(r), email: r.email ?? '' }));
  }
  async insertInvitation(i: InvitationRecord) {
    this.st.insertInvitation.run(i.id, i.orgId, i.email, i.role, i.tokenHash, i.createdAt, i.expiresAt);
  }
  async listInvitations(orgId: string, now: string) {
    return (this.st.listInvitations.all(orgId, now) as InvitationRow[]).map(invitation);
  }
  async findInvitation(tokenHash: string, now: string) {
    const r = this.st.invitationByToken.get(tokenHash, now) as InvitationRow | undefined;
    return r ? invitation(r) : undefined;
  }
  async deleteInvitation(orgId: string, id: string) {
    return this.st.deleteInvitation.run(orgId, id).changes > 0;
  }
  async acceptInvitation(id: string, acceptance: Acceptance, now: string) {
    return this.accept(id, acceptance, now);
  }
  async insertSession(s: SessionRecord) {
    this.st.insertSession.run(s.hash, s.userId, s.createdAt, s.expiresAt);
  }
  async findSession(hash: string) {
    const r = this.st.findSession.get(hash) as SessionRow | undefined;
    return r ? session(r) : undefined;
  }
  async deleteSession(hash: string) {
    this.st.deleteSession.run(hash);
  }
  async insertToken(t: OneTimeTokenRecord) {
    this.st.insertToken.run(t.hash, t.kind, t.orgId, t.userId, t.createdAt, t.expiresAt);
  }
  async consumeToken(hash: string, kind: TokenKind, now: string): Promise<OneTimeTokenRecord | undefined> {
    const r = this.consume(hash, kind, now);
    return r ? { ...token(r), usedAt: now } : undefined;
  }
  async voidTokens(kind: TokenKind, now: string) {
    this.st.voidTokens.run(now, kind);
  }
  async prune(now: string): Promise<PruneResult> {
    return this.db.transaction(() => ({
      sessions: this.st.pruneSessions.run(now).changes,
      tokens: this.st.pruneTokens.run(now).changes,
      invitations: this.st.pruneInvitations.run(now).changes,
    }))();
  }

  private insertUserRow(u: UserRecord): void {
    try {
      this.st.insertUser.run(
        u.id,
        u.email,
        u.passwordHash,
        u.createdAt,
        Number(u.serverAdmin),
        Number(u.createsWorkspaces),
      );
    } catch (err) {
      // The other unique index on users keeps a single server admin: that is a bug, not a taken email.
      const e = err as { code?: string; message?: string };
      if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && e.message?.includes('users.email')) throw new EmailTakenError();
      throw err;
    }
  }
}
