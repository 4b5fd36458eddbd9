/**
 * Accounts: users, their workspace memberships, sessions and one-time tokens (setup, invites).
 * Same guarantees as Store: durable when the promise resolves; consumeToken is atomic (a token is
 * consumed once, even under concurrent use).
 */
import type { Role } from '../auth/permissions.js';
import type { OrgRecord } from './store.js';

export interface UserRecord {
  id: string;
  email: string;
  /** argon2id PHC string; null until the user sets a password from an invite. */
  passwordHash: string | null;
  createdAt: string;
}

export interface MembershipRecord {
  userId: string;
  orgId: string;
  role: Role;
  createdAt: string;
}

export interface SessionRecord {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  hash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export type TokenKind = 'setup' | 'invite';

export interface OneTimeTokenRecord {
  hash: string;
  kind: TokenKind;
  orgId: string;
  userId: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface AccountStore {
  insertOrg(org: OrgRecord): Promise<void>;
  getOrg(id: string): Promise<OrgRecord | undefined>;
  renameOrg(id: string, name: string): Promise<void>;

  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | undefined>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  setPassword(userId: string, passwordHash: string): Promise<void>;
  countUsers(): Promise<number>;

  upsertMembership(m: MembershipRecord): Promise<void>;
  deleteMembership(userId: string, orgId: string): Promise<void>;
  membershipsOf(userId: string): Promise<MembershipRecord[]>;
  membersOf(orgId: string): Promise<(MembershipRecord & { email: string })[]>;

  insertSession(s: SessionRecord): Promise<void>;
  findSession(hash: string): Promise<SessionRecord | undefined>;
  deleteSession(hash: string): Promise<void>;

  insertToken(t: OneTimeTokenRecord): Promise<void>;
  /** Marks the token used and returns it, or undefined when unknown, used, expired or of another kind. */
  consumeToken(hash: string, kind: TokenKind, now: string): Promise<OneTimeTokenRecord | undefined>;
  /** Voids every unused token of a kind (a new setup token replaces the old ones). */
  voidTokens(kind: TokenKind, now: string): Promise<void>;
}
