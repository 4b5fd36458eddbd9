/**
 * The rate limiter for several nodes (docs/architecture/several-nodes.md, "Limits"): the same strict rolling window
 * as MemoryRateLimiter, held in Redis so that every node counts against one log per key.
 *
 * Each key is a sorted set of its admitted hits (score: the time of the hit). One take() is one Lua script, which
 * Redis runs atomically: drop the hits at or before `now - windowMs`, count the rest, admit and add the hit when
 * fewer than `limit` remain, set the key to expire a window after its newest hit, and return the count and the
 * oldest hit's time. Admission is therefore exact across nodes (never more than `limit` in any window, however many
 * nodes take at once), refused hits are not counted, and remaining / resetMs / retryAfterMs are computed from the
 * same numbers with the same arithmetic as MemoryRateLimiter, so both decide alike.
 *
 * Time comes from Redis `TIME` inside the script, so the nodes' clocks do not matter. A `clock` may be given
 * instead (tests use a manual one); it is then passed into the script. Key expiry is in Redis's real time, so a
 * given clock must not run slower than real time, or keys could expire before their hits leave the window.
 * Memory is bounded: a key holds at most `limit` hits and disappears a window after its last admission.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from './rate-limiter.js';

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** Prepended to every key. Default 'onair:rl:'. */
  prefix?: string;
  /** The time in milliseconds. Default: Redis `TIME`, read inside the script. */
  clock?: () => number;
}

/** A Lua script run by EVALSHA, loaded with EVAL the first time a server does not know it. */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('NOSCRIPT')) throw err;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/**
 * Lua that sets `now` (a number, milliseconds) and `nowStr` (its exact text) from ARGV[1], or from Redis `TIME`
 * when ARGV[1] is empty. `ms` is 'fraction' (microseconds kept) or 'floor' (whole milliseconds, like Date.now).
 * Numbers go to and from Redis as '%.17g' text, which keeps every double exactly.
 */
export function luaNow(ms: 'fraction' | 'floor'): string {
  const fromTime =
    ms === 'fraction'
      ? 'tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000'
      : 'tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)';
  return `
local function fmt(x) return string.format('%.17g', x) end
local nowStr = ARGV[1]
local now
if nowStr == '' then
  local t = redis.call('TIME')
  now = ${fromTime}
  nowStr = fmt(now)
else
  now = tonumber(nowStr)
end
`;
}

/**
 * KEYS[1]: the key's sorted set. ARGV: now ('' for Redis TIME), limit, windowMs, a member suffix unique to this call.
 * Returns { allowed (0/1), hits counted after this call, now, oldest counted hit's time or '' } ('' rather than nil:
 * a Lua false reaches a RESP3 client as a boolean, a RESP2 one as null).
 */
const TAKE = new LuaScript(`${luaNow('fraction')}
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', fmt(now - window))
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], nowStr, nowStr .. '/' .. ARGV[4])
  redis.call('PEXPIRE', KEYS[1], fmt(math.max(1, math.ceil(window))))
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { allowed, count, nowStr, oldest[2] or '' }
`);

type TakeReply = [allowed: number, count: number, now: string, oldest: string];

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly clock: (() => number) | undefined;
  /** Makes each hit's member unique: this instance's random id and a counter. */
  private readonly id = randomBytes(6).toString('base64url');
  private seq = 0;

  constructor(options: RedisRateLimiterOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix ?? 'onair:rl:';
    this.clock = options.clock;
  }

  async take(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const nowArg = this.clock ? String(this.clock()) : '';
    const member = `${this.id}:${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER)}`;
    const [allowed, count, nowText, oldestText] = (await TAKE.run(
      this.redis,
      [this.prefix + key],
      [nowArg, limit, windowMs, member],
    )) as TakeReply;
    const now = Number(nowText);
    const oldest = oldestText === '' ? now : Number(oldestText);
    if (allowed === 1) {
      return { allowed: true, limit, remaining: limit - count, resetMs: oldest + windowMs - now, retryAfterMs: 0 };
    }
    const retryAfterMs = Math.max(1, oldest + windowMs - now);
    return { allowed: false, limit, remaining: 0, resetMs: retryAfterMs, retryAfterMs };
  }
}
