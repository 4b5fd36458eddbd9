/**
 * The login throttle for several nodes (docs/architecture/several-nodes.md, "Limits"): the rules of
 * login-throttle.ts, decided by login-decision.ts, with the state in Redis so that every node counts the same
 * failures.
 *
 * State, each under the prefix, every key with a TTL so that nothing outlives the time it matters:
 * - `p:<account>\n<address>` a hash { failures, last } per pair; kept 15 minutes after its last failure, or as long
 *   as the account's failure level needs to drain if that is longer (the pair is what marks the address as one
 *   that failed for the account);
 * - `a:<address>` and `c:<account>` a hash { level, at }: a failure level leaking away linearly, kept until it
 *   has drained to zero;
 * - `t:<account>\n<address>` the time until which the pair is trusted (30 days after a success).
 *
 * check() is one read-only script (a consistent snapshot of the four keys, one round trip) and stores nothing;
 * failed() and succeeded() are each one script, so concurrent failures from several nodes never lose an update.
 * Levels are computed in Lua with the same double arithmetic as login-decision.ts and stored as exact '%.17g'
 * text, and the decision is login-decision.ts's, so both implementations decide alike.
 *
 * Time comes from Redis `TIME` (whole milliseconds, like Date.now), so the nodes' clocks do not matter; a `clock`
 * may be given instead (tests use a manual one). TTLs run in Redis's real time.
 */
import type { Redis } from 'ioredis';
import { ACCOUNT_DRAIN, ADDRESS_DRAIN, loginDecision, type Level } from './login-decision.js';
import { LOGIN_RULES, type LoginThrottle, type ThrottleDecision } from './login-throttle.js';
import { LuaScript, luaNow } from './redis-rate-limiter.js';

export interface RedisLoginThrottleOptions {
  redis: Redis;
  /** Prepended to every key. Default 'onair:lt:'. */
  prefix?: string;
  /** The time in milliseconds. Default: Redis `TIME`, read inside the scripts. */
  clock?: () => number;
}

/**
 * KEYS: pair, trusted, address, account. ARGV: now. Returns now and the stored fields, '' when absent ('' rather
 * than nil: a Lua false reaches a RESP3 client as a boolean, a RESP2 one as null).
 */
const CHECK = new LuaScript(`${luaNow('floor')}
local p = redis.call('HMGET', KEYS[1], 'failures', 'last')
local a = redis.call('HMGET', KEYS[3], 'level', 'at')
local c = redis.call('HMGET', KEYS[4], 'level', 'at')
local t = redis.call('GET', KEYS[2])
return { nowStr, p[1] or '', p[2] or '', t or '', a[1] or '', a[2] or '', c[1] or '', c[2] or '' }
`);

/**
 * KEYS: pair, address, account. ARGV: now, maxDelayMs, address drain per ms, account drain per ms.
 * Raises both levels (after draining them to now) and counts the pair's failure: login-decision.ts's
 * levelAfterFailure and pairAfterFailure, in Lua so that concurrent failures from several nodes add up.
 */
const FAILED = new LuaScript(`${luaNow('floor')}
local maxDelay = tonumber(ARGV[2])
local function raise(key, perMs)
  local l = redis.call('HMGET', key, 'level', 'at')
  local level = 0
  if l[1] then level = math.max(0, tonumber(l[1]) - (now - tonumber(l[2])) * perMs) end
  level = level + 1
  redis.call('HSET', key, 'level', fmt(level), 'at', nowStr)
  local drainMs = math.ceil(level / perMs) + 1
  redis.call('PEXPIRE', key, fmt(drainMs))
  return drainMs
end
raise(KEYS[2], tonumber(ARGV[3]))
local accountDrainMs = raise(KEYS[3], tonumber(ARGV[4]))
local p = redis.call('HMGET', KEYS[1], 'failures', 'last')
local failures = 1
if p[1] and now - tonumber(p[2]) < maxDelay then failures = tonumber(p[1]) + 1 end
redis.call('HSET', KEYS[1], 'failures', fmt(failures), 'last', nowStr)
redis.call('PEXPIRE', KEYS[1], fmt(math.max(maxDelay, accountDrainMs)))
return 1
`);

/** KEYS: pair, trusted. ARGV: now, trustedForMs. Clears the pair and trusts it, as MemoryLoginThrottle.succeeded(). */
const SUCCEEDED = new LuaScript(`${luaNow('floor')}
local trustedFor = tonumber(ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], fmt(now + trustedFor), 'PX', fmt(trustedFor))
return 1
`);

type CheckReply = [now: string, ...fields: string[]];

export class RedisLoginThrottle implements LoginThrottle {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly clock: (() => number) | undefined;

  constructor(options: RedisLoginThrottleOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'onair:lt:';
    this.clock = options.clock;
  }

  async check(account: string, address: string): Promise<ThrottleDecision> {
    const [nowText, failures, last, trustedUntil, addressLevel, addressAt, accountLevel, accountAt] = (await CHECK.run(
      this.redis,
      this.keys(account, address, 'pair', 'trusted', 'address', 'account'),
      [this.nowArg()],
    )) as CheckReply;
    const now = Number(nowText);
    return loginDecision(
      {
        pair: failures && last ? { failures: Number(failures), lastFailureAt: Number(last) } : undefined,
        trusted: trustedUntil !== '' && Number(trustedUntil) > now,
        address: level(addressLevel, addressAt),
        account: level(accountLevel, accountAt),
      },
      now,
    );
  }

  async failed(account: string, address: string): Promise<void> {
    await FAILED.run(this.redis, this.keys(account, address, 'pair', 'address', 'account'), [
      this.nowArg(),
      LOGIN_RULES.maxDelayMs,
      String(ADDRESS_DRAIN.perMs),
      String(ACCOUNT_DRAIN.perMs),
    ]);
  }

  async succeeded(account: string, address: string): Promise<void> {
    await SUCCEEDED.run(this.redis, this.keys(account, address, 'pair', 'trusted'), [
      this.nowArg(),
      LOGIN_RULES.trustedForMs,
    ]);
  }

  /** The time for a script: the given clock's, or '' for Redis TIME. */
  private nowArg(): string {
    return this.clock ? String(this.clock()) : '';
  }

  private keys(account: string, address: string, ...which: ('pair' | 'trusted' | 'address' | 'account')[]): string[] {
    const pair = `${account}\n${address}`;
    const key = { pair: `p:${pair}`, trusted: `t:${pair}`, address: `a:${address}`, account: `c:${account}` };
    return which.map((w) => this.prefix + key[w]);
  }
}

function level(value: string | undefined, at: string | undefined): Level | undefined {
  return value && at ? { level: Number(value), at: Number(at) } : undefined;
}
