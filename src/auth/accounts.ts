/**
 * Dashboard accounts: first-run setup of the owner and login. Passwords are argon2id hashes; one-time
 * tokens and sessions are stored as SHA-256 hashes of their secrets.
 */
import { AppError } from '../errors.js';
import { newId, randomBase62, sha256Hex } from '../ids.js';
import type { AccountStore, TokenKind } from '../store/account-store.js';
import type { Store } from '../store/store.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';

const SETUP_TTL_MS = 7 * 24 * 3600_000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AppError('invalid_request', `Passwords need at least ${MIN_PASSWORD_LENGTH} characters.`, {
      errors: [{ path: field, message: `at least ${MIN_PASSWORD_LENGTH} characters` }],
    });
  }
}

/** A one-time token of `kind`, stored as its hash; returns the secret for the link. */
export async function issueToken(
  accounts: AccountStore,
  kind: TokenKind,
  owner: { orgId: string | null; userId: string | null },
  ttlMs: number,
): Promise<string> {
  const token = randomBase62(32);
  const now = Date.now();
  await accounts.insertToken({
    hash: sha256Hex(token),
    kind,
    ...owner,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + ttlMs).toISOString(),
    usedAt: null,
  });
  return token;
}

/** While no user exists, each start issues a fresh setup token (older ones stop working). */
export async function issueSetupTokenIfNeeded(store: Store, orgId: string): Promise<string | null> {
  if ((await store.accounts.countUsers()) > 0) return null;
  await store.accounts.voidTokens('setup', new Date().toISOString());
  return issueToken(store.accounts, 'setup', { orgId, userId: null }, SETUP_TTL_MS);
}

export interface SetupInput {
  token: string;
  email: string;
  password: string;
  workspaceName: string;
}

/**
 * Creates the owner of the first workspace, who is also the server admin (./server-rights.ts); the token works
 * once. Returns the new user id.
 */
export async function completeSetup(store: Store, input: SetupInput): Promise<string> {
  checkPassword(input.password);
  const now = new Date().toISOString();
  const token = await store.accounts.consumeToken(sha256Hex(input.token), 'setup', now);
  if (!token?.orgId || (await store.accounts.countUsers()) > 0) {
    throw new AppError('unauthorized', 'This setup link is not valid any more; restart the server for a new one.');
  }
  const userId = newId('usr');
  await store.accounts.insertUser({
    id: userId,
    email: normaliseEmail(input.email),
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    serverAdmin: true,
    createsWorkspaces: true,
  });
  await store.accounts.insertMembership({ userId, orgId: token.orgId, role: 'owner', createdAt: now });
  await store.accounts.renameOrg(token.orgId, input.workspaceName);
  return userId;
}

/**
 * The user id for a correct email and password; the same error, in the same time, for any wrong pair. `from`: the
 * client's address, for the cap on password work (./password-gate.ts).
 */
export async function checkLogin(accounts: AccountStore, email: string, password: string, from?: string) {
  const user = await accounts.findUserByEmail(normaliseEmail(email));
  const ok = await verifyPassword(user?.passwordHash, password, from);
  if (!user || !ok) throw new AppError('unauthorized', 'Wrong email or password.');
  return user.id;
}
