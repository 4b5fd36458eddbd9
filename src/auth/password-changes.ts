/**
 * Changing a password (signed in, knowing the current one) and resetting it (with a one-time link that
 * the server's operator issues from the command line). Either way every other session of the user ends,
 * in the same transaction as the new password.
 */
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import type { AccountStore } from '../store/account-store.js';
import { checkPassword, issueToken, normaliseEmail } from './accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';

const RESET_TTL_MS = 3600_000;

/** Sets a new password for a signed-in user; only the session that asked survives. `who.from`: their address. */
export async function changePassword(
  accounts: AccountStore,
  who: { userId: string; sessionHash: string; from?: string },
  current: string,
  next: string,
): Promise<void> {
  checkPassword(next, 'newPassword');
  const user = await accounts.getUser(who.userId);
  if (!user || !(await verifyPassword(user.passwordHash, current, who.from))) {
    throw new AppError('forbidden', 'The current password is wrong.', {
      errors: [{ path: 'currentPassword', message: 'wrong password' }],
    });
  }
  await accounts.setPassword(who.userId, await hashPassword(next, who.from), who.sessionHash);
}

/** A one-time reset link token for the account, or null when there is none with that email. */
export async function issueResetToken(accounts: AccountStore, email: string): Promise<string | null> {
  const user = await accounts.findUserByEmail(normaliseEmail(email));
  if (!user) return null;
  return issueToken(accounts, 'reset', { orgId: null, userId: user.id }, RESET_TTL_MS);
}

/** Sets the password from a reset link; every session of the user ends. Returns the user id. */
export async function completeReset(accounts: AccountStore, token: string, password: string): Promise<string> {
  checkPassword(password);
  const record = await accounts.consumeToken(sha256Hex(token), 'reset', new Date().toISOString());
  if (!record?.userId) throw new AppError('unauthorized', 'This reset link is not valid any more; ask for a new one.');
  await accounts.setPassword(record.userId, await hashPassword(password));
  return record.userId;
}
