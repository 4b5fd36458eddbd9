/**
 * Password hashing with argon2id (OWASP's recommended parameters are the library's defaults).
 * Verifying against a dummy hash when a user does not exist keeps the answer's timing the same.
 */
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 10;
let dummy: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches; spends the same time when there is no hash to check. */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummy ??= hash('not-a-real-password-0123456789');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
