/**
 * The login throttle's policy (login-throttle.ts, LOGIN_RULES) as pure arithmetic over what a throttle stores,
 * so that the memory and the Redis throttles decide alike: the same state and time give the same answer.
 * Failure levels per address and per account leak away linearly (a leaky bucket: two numbers per key, not a
 * list of times); a pair (account, address) counts its failures in a row.
 */
import { LOGIN_RULES, type ThrottleDecision } from './login-throttle.js';

/** A failure level and when it was last raised (ms since the epoch). */
export interface Level {
  level: number;
  at: number;
}

/** An (account, address) pair's failures in a row and the time of the last one. */
export interface Pair {
  failures: number;
  lastFailureAt: number;
}

/** What a throttle holds about one attempt's account and address. */
export interface AttemptState {
  pair: Pair | undefined;
  /** The address signed in to the account successfully within LOGIN_RULES.trustedForMs. */
  trusted: boolean;
  address: Level | undefined;
  account: Level | undefined;
}

/** A failure level that drains `limit` failures per period, so a full level is empty a period later. */
export interface Drain {
  limit: number;
  perMs: number;
}

export const ADDRESS_DRAIN: Drain = {
  limit: LOGIN_RULES.addressFailures,
  perMs: LOGIN_RULES.addressFailures / LOGIN_RULES.periodMs,
};
export const ACCOUNT_DRAIN: Drain = {
  limit: LOGIN_RULES.accountFailures,
  perMs: LOGIN_RULES.accountFailures / LOGIN_RULES.periodMs,
};

const ADMIT: ThrottleDecision = { allowed: true, retryAfterMs: 0 };

/**
 * Whether an attempt may go ahead at `now`. The pair's own back-off applies to everyone; an address trusted for
 * the account passes the address and account limits (the owner is never locked out by someone else's
 * guessing); the account limit holds back only addresses that have failed for that account.
 */
export function loginDecision(state: AttemptState, now: number): ThrottleDecision {
  const waitPair = state.pair ? pairWait(state.pair, now) : 0;
  if (waitPair > 0) return refuse(waitPair);
  if (state.trusted) return ADMIT;
  const waitAddress = waitForRoom(state.address, ADDRESS_DRAIN, now);
  if (waitAddress > 0) return refuse(waitAddress);
  if (state.pair && state.pair.failures > 0) {
    const waitAccount = waitForRoom(state.account, ACCOUNT_DRAIN, now);
    if (waitAccount > 0) return refuse(waitAccount);
  }
  return ADMIT;
}

/** The pair after one more failure at `now`: a pair idle for the longest delay starts again from one. */
export function pairAfterFailure(pair: Pair | undefined, now: number): Pair {
  const failures = pair && !pairExpired(pair, now) ? pair.failures + 1 : 1;
  return { failures, lastFailureAt: now };
}

/** A pair whose last failure is the longest delay old no longer holds anything back. */
export function pairExpired(pair: Pair, now: number): boolean {
  return now - pair.lastFailureAt >= LOGIN_RULES.maxDelayMs;
}

/** The level after one more failure at `now`, drained to `now` first. */
export function levelAfterFailure(l: Level | undefined, drain: Drain, now: number): Level {
  return { level: (l ? levelAt(l, drain, now) : 0) + 1, at: now };
}

/** The level drained to `now`. */
export function levelAt(l: Level, drain: Drain, now: number): number {
  return Math.max(0, l.level - (now - l.at) * drain.perMs);
}

/** How long the pair must still wait after its last failure (0 within its free failures). */
function pairWait(pair: Pair, now: number): number {
  if (pair.failures < LOGIN_RULES.freeFailures) return 0;
  const delay = Math.min(
    LOGIN_RULES.firstDelayMs * 2 ** (pair.failures - LOGIN_RULES.freeFailures),
    LOGIN_RULES.maxDelayMs,
  );
  return Math.max(0, pair.lastFailureAt + delay - now);
}

/** Time until one more failure fits under the limit (0 when it already does). */
function waitForRoom(l: Level | undefined, drain: Drain, now: number): number {
  if (!l) return 0;
  const excess = levelAt(l, drain, now) - (drain.limit - 1);
  return excess > 0 ? Math.ceil(excess / drain.perMs) : 0;
}

function refuse(ms: number): ThrottleDecision {
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(ms)) };
}
