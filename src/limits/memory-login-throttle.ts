/**
 * The login throttle in memory (one node). Each table keeps at most `maxEntries` keys: entries that no
 * longer matter are swept first, then the oldest go. Per address and per account a failure level leaks
 * away linearly (a leaky bucket: two numbers per key, not a list of times).
 */
import { LOGIN_RULES, type LoginThrottle, type ThrottleDecision } from './login-throttle.js';

interface Level {
  level: number;
  at: number;
}
interface Pair {
  failures: number;
  lastFailureAt: number;
}

const ADMIT: ThrottleDecision = { allowed: true, retryAfterMs: 0 };
const DEFAULT_MAX_ENTRIES = 50_000;

/** A Map that forgets its oldest keys past a size, after first dropping what `stale` says is done. */
class BoundedTable<V> {
  private readonly map = new Map<string, V>();

  constructor(
    private readonly max: number,
    private readonly stale: (value: V, now: number) => boolean,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }

  /** Sets the key as the newest entry. */
  set(key: string, value: V, now: number): void {
    this.map.delete(key);
    if (this.map.size >= this.max) this.shrink(now);
    this.map.set(key, value);
  }

  private shrink(now: number): void {
    for (const [key, value] of this.map) if (this.stale(value, now)) this.map.delete(key);
    const excess = this.map.size - Math.floor(this.max * 0.9);
    if (excess <= 0) return;
    let n = 0;
    for (const key of this.map.keys()) {
      if (n++ >= excess) break;
      this.map.delete(key);
    }
  }
}

/** A failure level that drains `limit` failures per period, so a full level is empty a period later. */
interface Drain {
  limit: number;
  perMs: number;
}
const ADDRESS: Drain = {
  limit: LOGIN_RULES.addressFailures,
  perMs: LOGIN_RULES.addressFailures / LOGIN_RULES.periodMs,
};
const ACCOUNT: Drain = {
  limit: LOGIN_RULES.accountFailures,
  perMs: LOGIN_RULES.accountFailures / LOGIN_RULES.periodMs,
};

export class MemoryLoginThrottle implements LoginThrottle {
  private readonly addresses: BoundedTable<Level>;
  private readonly accounts: BoundedTable<Level>;
  private readonly pairs: BoundedTable<Pair>;
  private readonly trusted: BoundedTable<number>;

  constructor(
    private readonly now: () => number = Date.now,
    maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    this.addresses = new BoundedTable(maxEntries, (l, now) => levelAt(l, ADDRESS, now) <= 0);
    this.accounts = new BoundedTable(maxEntries, (l, now) => levelAt(l, ACCOUNT, now) <= 0);
    this.pairs = new BoundedTable(maxEntries, (p, now) => now - p.lastFailureAt >= LOGIN_RULES.maxDelayMs);
    this.trusted = new BoundedTable(maxEntries, (until, now) => until <= now);
  }

  /** Total keys held, for tests of the memory bound. */
  entries(): number {
    return this.addresses.size + this.accounts.size + this.pairs.size + this.trusted.size;
  }

  async check(account: string, address: string): Promise<ThrottleDecision> {
    const now = this.now();
    const key = pairKey(account, address);
    const trusted = (this.trusted.get(key) ?? 0) > now;
    const pair = this.pairs.get(key);
    const waitPair = pair ? this.pairWait(pair, now) : 0;
    if (waitPair > 0) return refuse(waitPair);
    if (trusted) return ADMIT;
    const waitAddress = waitForRoom(this.addresses.get(address), ADDRESS, now);
    if (waitAddress > 0) return refuse(waitAddress);
    if (pair && pair.failures > 0) {
      const waitAccount = waitForRoom(this.accounts.get(account), ACCOUNT, now);
      if (waitAccount > 0) return refuse(waitAccount);
    }
    return ADMIT;
  }

  async failed(account: string, address: string): Promise<void> {
    const now = this.now();
    const key = pairKey(account, address);
    const pair = this.pairs.get(key);
    const failures = pair && now - pair.lastFailureAt < LOGIN_RULES.maxDelayMs ? pair.failures + 1 : 1;
    this.pairs.set(key, { failures, lastFailureAt: now }, now);
    this.addresses.set(address, raised(this.addresses.get(address), ADDRESS, now), now);
    this.accounts.set(account, raised(this.accounts.get(account), ACCOUNT, now), now);
  }

  async succeeded(account: string, address: string): Promise<void> {
    const now = this.now();
    const key = pairKey(account, address);
    this.pairs.delete(key);
    this.trusted.set(key, now + LOGIN_RULES.trustedForMs, now);
  }

  /** How long the pair must still wait after its last failure (0 within its free failures). */
  private pairWait(pair: Pair, now: number): number {
    if (pair.failures < LOGIN_RULES.freeFailures) return 0;
    const delay = Math.min(
      LOGIN_RULES.firstDelayMs * 2 ** (pair.failures - LOGIN_RULES.freeFailures),
      LOGIN_RULES.maxDelayMs,
    );
    return Math.max(0, pair.lastFailureAt + delay - now);
  }
}

function levelAt(l: Level, drain: Drain, now: number): number {
  return Math.max(0, l.level - (now - l.at) * drain.perMs);
}

/** Time until one more failure fits under the limit (0 when it already does). */
function waitForRoom(l: Level | undefined, drain: Drain, now: number): number {
  if (!l) return 0;
  const excess = levelAt(l, drain, now) - (drain.limit - 1);
  return excess > 0 ? Math.ceil(excess / drain.perMs) : 0;
}

function raised(l: Level | undefined, drain: Drain, now: number): Level {
  return { level: (l ? levelAt(l, drain, now) : 0) + 1, at: now };
}

function pairKey(account: string, address: string): string {
  return `${account}\n${address}`;
}

function refuse(ms: number): ThrottleDecision {
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(ms)) };
}
