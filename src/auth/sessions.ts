/**
 * Cookie sessions for the dashboard. The cookie carries a random token; the store keeps its SHA-256.
 * Sessions expire absolutely after the configured lifetime.
 */
import { newId, randomBase62, sha256Hex } from '../ids.js';
import type { AccountStore } from '../store/account-store.js';

export const SESSION_COOKIE = 'onair_session';

export interface SessionOptions {
  ttlSeconds: number;
  /** Add `Secure` (the public address is https). */
  secure: boolean;
}

export async function createSession(accounts: AccountStore, userId: string, ttlSeconds: number): Promise<string> {
  const token = `${randomBase62(43)}`;
  const now = Date.now();
  await accounts.insertSession({
    hash: sha256Hex(token),
    userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + ttlSeconds * 1000).toISOString(),
  });
  return token;
}

export function sessionCookie(token: string, options: SessionOptions): string {
  const secure = options.secure ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${options.ttlSeconds}${secure}`;
}

export function clearedSessionCookie(options: SessionOptions): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${options.secure ? '; Secure' : ''}`;
}

export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=') || undefined;
  }
  return undefined;
}

export { newId };
