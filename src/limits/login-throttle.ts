/**
 * Slows password guessing without handing an attacker a way to lock the owner out (docs/api.md,
 * "Login throttle"). Only failures count, and a success clears its (account, address) pair:
 *
 * - per (account, address): 5 free failures, then each further attempt waits 1 s, 2 s, 4 s … up to
 *   15 min after the last failure;
 * - per address: at most 100 failures at once across every account (spraying), draining at 100 per
 *   15 minutes (one every 9 s);
 * - per account: at 50 failures from anywhere (draining at 50 per 15 minutes), only addresses that have
 *   not failed for that account, or that signed in to it successfully in the last 30 days, may still try.
 *
 * Guarantees every implementation keeps (login-throttle.contract.ts runs against each):
 * - check() decides before the password is verified and stores nothing, so refused attempts cost no
 *   memory; only failed() and succeeded() store, and what they store is bounded.
 * - A refusal carries retryAfterMs, after which the same attempt is admitted if nothing else happened.
 */
import { canonicalIp, networkOf } from '../domain/ip-address.js';

export interface ThrottleDecision {
  allowed: boolean;
  /** When refused: milliseconds until this attempt would be admitted. */
  retryAfterMs: number;
}

export interface LoginThrottle {
  check(account: string, address: string): Promise<ThrottleDecision>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string, address: string): Promise<void>;
}

export const LOGIN_RULES = {
  freeFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  /** Failures per address and per account leak away over this period. */
  periodMs: 15 * 60_000,
  addressFailures: 100,
  accountFailures: 50,
  trustedForMs: 30 * 24 * 3600_000,
} as const;

/**
 * The address a throttle counts: IPv4 as it is (also when it arrives IPv4-mapped), IPv6 by its /64 (one
 * host usually holds a whole /64, so counting single IPv6 addresses would let one machine rotate through
 * billions of them). Text that is not an address is counted as it is.
 */
export function throttleAddress(peer: string): string {
  const canonical = canonicalIp(peer);
  return canonical ? networkOf(canonical) : peer;
}
