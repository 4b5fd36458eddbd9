/**
 * Password hashing with argon2id (OWASP's recommended parameters are the library's defaults).
 * Verifying against a dummy hash when a user does not exist keeps the answer's timing the same.
 *
 * Every hash and verification goes through one PasswordGate for the whole process (./password-gate.ts) and
 * runs on its threads (./password-workers.ts): the cores are the process's, so the cap is too. main.ts sets
 * it from the configuration (ONAIR_PASSWORD_CONCURRENCY, ONAIR_PASSWORD_WAIT_MS); until then one task at a
 * time, waiting up to 250 ms.
 */
import { PasswordGate, type PasswordGateOptions } from './password-gate.js';
import { PasswordWorkers } from './password-workers.js';

export const MIN_PASSWORD_LENGTH = 10;
/** The source of password work not tied to a client address (setup, reset and invitation links). */
const NO_ADDRESS = '';
let dummy: Promise<string> | null = null;
let gate = new PasswordGate({ concurrency: 1, maxWaitMs: 250 });
const workers = new PasswordWorkers(1);

/** Replaces the process's cap on password work; attempts already admitted finish under the old one. */
export function limitPasswordWork(options: PasswordGateOptions): void {
  gate = new PasswordGate(options);
  workers.resize(options.concurrency);
}

/** `from`: the client address the work is done for, which decides who waits first under load. */
export function hashPassword(password: string, from = NO_ADDRESS): Promise<string> {
  return gate.run(from, () => workers.hash(password));
}

/** True when `password` matches; spends the same time when there is no hash to check. */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
  from = NO_ADDRESS,
): Promise<boolean> {
  return gate.run(from, async () => {
    if (!passwordHash) {
      // A hash that failed (its thread died) is made again by the next attempt.
      dummy ??= workers.hash('not-a-real-password-0123456789').catch((err: unknown) => {
        dummy = null;
        throw err;
      });
      await workers.verify(await dummy, password).catch(() => false);
      return false;
    }
    return workers.verify(passwordHash, password).catch(() => false);
  });
}
