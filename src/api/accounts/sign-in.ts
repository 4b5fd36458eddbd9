/**
 * What the sign-in routes share: starting a session (the cookie and the answer's body), and checking a
 * password under the login throttle.
 */
import type { Context } from 'hono';
import { createSession, sessionCookie } from '../../auth/sessions.js';
import { AppError } from '../../errors.js';
import { CLIENT_ADDRESS_HEADER } from '../../http/client-address.js';
import { throttleAddress } from '../../limits/login-throttle.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { userWorkspaces } from './workspace-view.js';

/** Set by the transport from the TCP peer address; a value sent by the client is replaced. */

export function cookieOptions(deps: ApiDeps) {
  return { ttlSeconds: deps.sessionTtlSeconds, secure: deps.baseUrl().startsWith('https:') };
}

/** The body of a sign-in answer: the user and their workspaces. */
export async function signedInBody(deps: ApiDeps, userId: string) {
  const { accounts } = deps.store;
  const user = await accounts.getUser(userId);
  const workspaces = await userWorkspaces(accounts, userId);
  return { user: { id: userId, email: user?.email ?? '', createdAt: user?.createdAt ?? '' }, workspaces };
}

/** Starts a session (sets the cookie) and returns the body of a sign-in answer. */
export async function signIn(deps: ApiDeps, c: Context<ApiEnv>, userId: string) {
  const token = await createSession(deps.store.accounts, userId, deps.sessionTtlSeconds);
  c.header('Set-Cookie', sessionCookie(token, cookieOptions(deps)));
  return signedInBody(deps, userId);
}

/**
 * Runs a password check for `account` (a hash of the email) from the caller's address under the login
 * throttle: refused before the check when it must wait, a failure counted when the check throws
 * `unauthorized` or `forbidden`, the pair cleared on success. The check is given the address it counts,
 * for the cap on password work (auth/password-gate.ts).
 */
export async function throttled<T>(
  deps: ApiDeps,
  c: Context<ApiEnv>,
  account: string,
  check: (address: string) => Promise<T>,
): Promise<T> {
  // The address comes from the socket (the transport overwrites this header), never from the caller.
  const address = throttleAddress(c.req.header(CLIENT_ADDRESS_HEADER) ?? 'unknown');
  const decision = await deps.loginThrottle.check(account, address);
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new AppError('rate_limited', `Too many failed sign-ins. Retry in ${seconds} s.`, { retryAfter: seconds });
  }
  try {
    const result = await check(address);
    await deps.loginThrottle.succeeded(account, address);
    return result;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'unauthorized' || err.code === 'forbidden')) {
      await deps.loginThrottle.failed(account, address);
    }
    throw err;
  }
}
