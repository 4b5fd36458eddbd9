/** The AccountStore on the same SQLite database as the rest of the store. */
import type Database from 'better-sqlite3';
import type { Role } from '../../auth/permissions.js';
import type {
  AccountStore,
  MembershipRecord,
  OneTimeTokenRecord,
  SessionRecord,
  TokenKind,
  UserRecord,
} from '../account-store.js';
import type { OrgRecord } from '../store.js';

interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: string;
}
interface MemberRow {
  user_id: string;
  org_id: string;
  role: string;
  created_at: string;
  email?: string;
}
interface TokenRow {
  hash: string;
  kind: string;
  org_id: string;
  user_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

const user = (r: UserRow): UserRecord => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
});
const member = (r: MemberRow): MembershipRecord => ({
  userId: r.user_id,
  orgId: r.org_id,
  role: r.role as Role,
  createdAt: r.created_at,
});

export class SqliteAccounts implements AccountStore {
  private readonly st;
  private readonly consume;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.st = {
      insertOrg: p('INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)'),
      getOrg: p('SELECT id, name, created_at FROM orgs WHERE id = ?'),
      renameOrg: p('UPDATE orgs SET name = ? WHERE id = ?'),
      insertUser: p('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)'),
      getUser: p('SELECT * FROM users WHERE id = ?'),
      userByEmail: p('SELECT * FROM users WHERE email = ?'),
      setPassword: p('UPDATE users SET password_hash = ? WHERE id = ?'),
      countUsers: p('SELECT count(*) AS n FROM users'),
      upsertMember: p(`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (user_id, org_id) DO UPDATE SET role = excluded.role`),
      deleteMember: p('DELETE FROM memberships WHERE user_id = ? AND org_id = ?'),
      membershipsOf: p('SELECT * FROM memberships WHERE user_id = ? ORDER BY created_at, org_id'),
      membersOf: p(`SELECT m.*, u.email FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ? ORDER BY m.created_at, m.user_id`),
      insertSession: p('INSERT INTO sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
      findSession: p('SELECT * FROM sessions WHERE hash = ?'),
      deleteSession: p('DELETE FROM sessions WHERE hash = ?'),
      insertToken: p(`INSERT INTO one_time_tokens (hash, kind, org_id, user_id, created_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?)`),
      findToken: p('SELECT * FROM one_time_tokens WHERE hash = ?'),
      useToken: p('UPDATE one_time_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL'),
      voidTokens: p('UPDATE one_time_tokens SET used_at = ? WHERE kind = ? AND used_at IS NULL'),
    };
    this.consume = db.transaction((hash: string, kind: TokenKind, now: string) => {
      const row = this.st.findToken.get(hash) as TokenRow | undefined;
      if (!row || row.kind !== kind || row.used_at !== null || row.expires_at <= now) return undefined;
      this.st.useToken.run(now, hash);
      return row;
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
    this.st.insertUser.run(u.id, u.email, u.passwordHash, u.createdAt);
  }
  async getUser(id: string) {
    const r = this.st.getUser.get(id) as UserRow | undefined;
    return r ? user(r) : undefined;
  }
  async findUserByEmail(email: string) {
    const r = this.st.userByEmail.get(email) as UserRow | undefined;
    return r ? user(r) : undefined;
  }
  async setPassword(userId: string, hash: string) {
    this.st.setPassword.run(hash, userId);
  }
  async countUsers() {
    return (this.st.countUsers.get() as { n: number }).n;
  }
  async upsertMembership(m: MembershipRecord) {
    this.st.upsertMember.run(m.userId, m.orgId, m.role, m.createdAt);
  }
  async deleteMembership(userId: string, orgId: string) {
    this.st.deleteMember.run(userId, orgId);
  }
  async membershipsOf(userId: string) {
    return (this.st.membershipsOf.all(userId) as MemberRow[]).map(member);
  }
  async membersOf(orgId: string) {
    return (this.st.membersOf.all(orgId) as MemberRow[]).map((r) => ({ ...member(r), email: r.email ?? '' }));
  }
  async insertSession(s: SessionRecord) {
    this.st.insertSession.run(s.hash, s.userId, s.createdAt, s.expiresAt);
  }
  async findSession(hash: string) {
    const r = this.st.findSession.get(hash) as
      { hash: string; user_id: string; created_at: string; expires_at: string } | undefined;
    return r ? { hash: r.hash, userId: r.user_id, createdAt: r.created_at, expiresAt: r.expires_at } : undefined;
  }
  async deleteSession(hash: string) {
    this.st.deleteSession.run(hash);
  }
  async insertToken(t: OneTimeTokenRecord) {
    this.st.insertToken.run(t.hash, t.kind, t.orgId, t.userId, t.createdAt, t.expiresAt);
  }
  async consumeToken(hash: string, kind: TokenKind, now: string): Promise<OneTimeTokenRecord | undefined> {
    const r = this.consume(hash, kind, now);
    return r
      ? {
          hash: r.hash,
          kind: r.kind as TokenKind,
          orgId: r.org_id,
          userId: r.user_id,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          usedAt: now,
        }
      : undefined;
  }
  async voidTokens(kind: TokenKind, now: string) {
    this.st.voidTokens.run(now, kind);
  }
}
