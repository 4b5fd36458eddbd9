/**
 * The login throttle in memory (one node), deciding by login-decision.ts. Each table keeps at most `maxEntries`
 * keys: entries that no longer matter are swept first, then the oldest go.
 */
import {
  ACCOUNT_DRAIN,
  ADDRESS_DRAIN,
  levelAfterFailure,
  levelAt,
  loginDecision,
  pairAfterFailure,
  pairExpired,
  type Level,
  type Pair,
} from './login-decision.js';
import { LOGIN_RULES, type LoginThrottle, type ThrottleDecision } from './login-throttle.js';

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

export class MemoryLoginThrottle implements LoginThrottle {
  private readonly addresses: BoundedTable<Level>;
  private readonly accounts: BoundedTable<Level>;
  private readonly pairs: BoundedTable<Pair>;
  private readonly trusted: BoundedTable<number>;

  constructor(
    private readonly now: () => number = Date.now,
    maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    this.addresses = new BoundedTable(maxEntries, (l, now) => levelAt(l, ADDRESS_DRAIN, now) <= 0);
    this.accounts = new BoundedTable(maxEntries, (l, now) => levelAt(l, ACCOUNT_DRAIN, now) <= 0);
    this.pairs = new BoundedTable(maxEntries, pairExpired);
    this.trusted = new BoundedTable(maxEntries, (until, now) => until <= now);
  }

  /** Total keys held, for tests of the memory bound. */
  entries(): number {
    return this.addresses.size + this.accounts.size + this.pairs.size + this.trusted.size;
  }

  async check(account: string, address: string): Promise<ThrottleDecision> {
    const now = this.now();
    const key = pairKey(account, address);
    return loginDecision(
      {
        pair: this.pairs.get(key),
        trusted: (this.trusted.get(key) ?? 0) > now,
        address: this.addresses.get(address),
        account: this.accounts.get(account),
      },
      now,
    );
  }

  async failed(account: string, address: string): Promise<void> {
    const now = this.now();
    const key = pairKey(account, address);
    this.pairs.set(key, pairAfterFailure(this.pairs.get(key), now), now);
    this.addresses.set(address, levelAfterFailure(this.addresses.get(address), ADDRESS_DRAIN, now), now);
    this.accounts.set(account, levelAfterFailure(this.accounts.get(account), ACCOUNT_DRAIN, now), now);
  }

  async succeeded(account: string, address: string): Promise<void> {
    const now = this.now();
    const key = pairKey(account, address);
    this.pairs.delete(key);
    this.trusted.set(key, now + LOGIN_RULES.trustedForMs, now);
  }
}

function pairKey(account: string, address: string): string {
  return `${account}\n${address}`;
}
