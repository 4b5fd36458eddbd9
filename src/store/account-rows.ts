/**
 * Row shapes of the account tables, the same in both stores (sqlite/sqlite-accounts.ts, postgres/postgres-accounts.ts),
 * and their mapping to the AccountStore's records.
 */
import type { Role } from '../domain/roles.js';
import type {
  AccountSummary,
  InvitationRecord,
  MembershipRecord,
  OneTimeTokenRecord,
  ServerSettings,
  SessionRecord,
  TokenKind,
  UserRecord,
} from './account-store.js';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  server_admin: number | boolean;
  creates_workspaces: number | boolean;
}
export interface AccountSummaryRow extends UserRow {
  owned_workspaces: number;
}
export interface ServerSettingsRow {
  everyone_creates_workspaces: number | boolean;
}
export interface MemberRow {
  user_id: string;
  org_id: string;
  role: string;
  created_at: string;
  email?: string;
}
export interface TokenRow {
  hash: string;
  kind: string;
  org_id: string | null;
  user_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
export interface InvitationRow {
  id: string;
  org_id: string;
  email: string;
  role: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}
export interface SessionRow {
  hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}
export const session = (r: SessionRow): SessionRecord => ({
  hash: r.hash,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
export const user = (r: UserRow): UserRecord => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  serverAdmin: Boolean(r.server_admin),
  createsWorkspaces: Boolean(r.creates_workspaces),
});
export const accountSummary = (r: AccountSummaryRow): AccountSummary => ({
  ...user(r),
  ownedWorkspaces: Number(r.owned_workspaces),
});
export const serverSettings = (r: ServerSettingsRow | undefined): ServerSettings => ({
  everyoneCreatesWorkspaces: Boolean(r?.everyone_creates_workspaces),
});
export const member = (r: MemberRow): MembershipRecord => ({
  userId: r.user_id,
  orgId: r.org_id,
  role: r.role as Role,
  createdAt: r.created_at,
});
export const invitation = (r: InvitationRow): InvitationRecord => ({
  id: r.id,
  orgId: r.org_id,
  email: r.email,
  role: r.role as Role,
  tokenHash: r.token_hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedAt: r.accepted_at,
});
export const token = (r: TokenRow): OneTimeTokenRecord => ({
  hash: r.hash,
  kind: r.kind as TokenKind,
  orgId: r.org_id,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
});
