/**
 * Accounts: users, their workspace memberships, invitations, sessions and one-time tokens (setup,
 * password reset).
 *
 * Guarantees every implementation keeps (account-store.contract.ts runs against each), besides Store's
 * (durable when the promise resolves):
 * - A workspace that has an owner always keeps one: setMemberRole and removeMember refuse to take away
 *   the last owner, atomically (two concurrent demotions of two owners cannot both succeed).
 * - consumeToken and acceptInvitation are atomic: a token or an invitation is used once, even under
 *   concurrent use.
 * - setPassword ends every session of the user but the one named, and withdraws every unused reset token of
 *   the user, in the same transaction.
 * - Emails are unique: inserting a user whose email exists rejects with EmailTakenError.
 * - At most one user is the server admin: inserting a second one rejects.
 */
import type { Role } from '../domain/roles.js';

/** A workspace. */
export interface OrgRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface UserRecord {
  id: string;
  email: string;
  /** argon2id PHC string. */
  passwordHash: string;
  createdAt: string;
  /**
   * The server admin (docs/deploy.md, "Who may do what"): the account made by first-run setup. It decides who
   * may create workspaces. One at most.
   */
  serverAdmin: boolean;
  /** The server admin allowed this account to create workspaces. */
  createsWorkspaces: boolean;
}

/** A user as the server admin sees it: with how many workspaces it owns. */
export interface AccountSummary extends UserRecord {
  ownedWorkspaces: number;
}

/** Settings of the whole server, changed by the server admin. */
export interface ServerSettings {
  /** Every account may create workspaces, not only the server admin and the accounts it allowed. */
  everyoneCreatesWorkspaces: boolean;
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

/** `setup`: the first owner (printed at start); `reset`: a password reset link (issued from the CLI). */
export type TokenKind = 'setup' | 'reset';

export interface OneTimeTokenRecord {
  hash: string;
  kind: TokenKind;
  orgId: string | null;
  userId: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** An invitation to a workspace for an email address; the link carries a token whose SHA-256 is kept. */
export interface InvitationRecord {
  id: string;
  orgId: string;
  email: string;
  role: Role;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** What accepting an invitation does: join with an existing account, or create the account with it. */
export type Acceptance = { userId: string } | { newUser: UserRecord };

export type MemberChange = 'ok' | 'not_member' | 'last_owner';

export class EmailTakenError extends Error {
  constructor() {
    super('A user with this email exists.');
  }
}

export interface PruneResult {
  sessions: number;
  tokens: number;
  invitations: number;
}

export interface AccountStore {
  insertOrg(org: OrgRecord): Promise<void>;
  getOrg(id: string): Promise<OrgRecord | undefined>;
  renameOrg(id: string, name: string): Promise<void>;

  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | undefined>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  /**
   * Sets the password, deletes every session of the user except `keepSession` (a hash) and withdraws every
   * unused reset token of the user, atomically.
   */
  setPassword(userId: string, passwordHash: string, keepSession?: string): Promise<void>;
  countUsers(): Promise<number>;
  /** Every user, oldest first, with the number of workspaces it owns. */
  listUsers(): Promise<AccountSummary[]>;
  /** Allows or forbids the user to create workspaces; false when there is no such user. */
  setCreatesWorkspaces(userId: string, allowed: boolean): Promise<boolean>;

  serverSettings(): Promise<ServerSettings>;
  /** Changes the settings named in `change`, leaves the others; returns them all as they now are. */
  updateServerSettings(change: Partial<ServerSettings>): Promise<ServerSettings>;

  /** Adds a membership; rejects when the user is already a member (roles change through setMemberRole). */
  insertMembership(m: MembershipRecord): Promise<void>;
  setMemberRole(orgId: string, userId: string, role: Role): Promise<MemberChange>;
  removeMember(orgId: string, userId: string): Promise<MemberChange>;
  membershipsOf(userId: string): Promise<MembershipRecord[]>;
  membersOf(orgId: string): Promise<(MembershipRecord & { email: string })[]>;

  insertInvitation(invitation: InvitationRecord): Promise<void>;
  /** Pending invitations of a workspace (not accepted, not expired at `now`), in creation order. */
  listInvitations(orgId: string, now: string): Promise<InvitationRecord[]>;
  /** The pending invitation with this token hash, or undefined when unknown, accepted or expired. */
  findInvitation(tokenHash: string, now: string): Promise<InvitationRecord | undefined>;
  /** Deletes a pending invitation of the workspace; false when there is none with that id. */
  deleteInvitation(orgId: string, id: string): Promise<boolean>;
  /**
   * Marks the invitation accepted and adds the membership (creating the user first for `newUser`), in
   * one transaction. Returns the user id, or undefined when the invitation was accepted, deleted or
   * expired meanwhile. An existing membership is left as it is. Rejects with EmailTakenError when
   * `newUser`'s email exists.
   */
  acceptInvitation(id: string, acceptance: Acceptance, now: string): Promise<string | undefined>;

  insertSession(s: SessionRecord): Promise<void>;
  findSession(hash: string): Promise<SessionRecord | undefined>;
  deleteSession(hash: string): Promise<void>;

  insertToken(t: OneTimeTokenRecord): Promise<void>;
  /** Marks the token used and returns it, or undefined when unknown, used, expired or of another kind. */
  consumeToken(hash: string, kind: TokenKind, now: string): Promise<OneTimeTokenRecord | undefined>;
  /** Voids every unused token of a kind (a new setup token replaces the old ones). */
  voidTokens(kind: TokenKind, now: string): Promise<void>;

  /** Deletes expired sessions, used or expired one-time tokens, and invitations no longer pending. */
  prune(now: string): Promise<PruneResult>;
}
