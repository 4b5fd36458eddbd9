/**
 * How many render WebSockets one server holds (docs/api.md, "Real-time WebSocket", "Connection limits"): open
 * connections per channel and per client address, and upgrade attempts per address in a rolling window. A refusal
 * is an AppError (429 rate_limited with Retry-After, the `limit` and the `setting` that raises it, as limit_reached
 * problems carry them) that the upgrade answers as problem+json.
 *
 * Counts are this process's own (a connection lives on one node); the upgrade window goes through the shared
 * RateLimiter, like every other rate limit. An address is the client's (../http/client-address.ts, trusted
 * proxies respected), an IPv6 one by its /64: one host usually holds a whole /64.
 */
import { networkOf } from '../domain/ip-address.js';
import { AppError } from '../errors.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

export interface SocketLimits {
  /** Open connections per channel on this server; 0: no limit. */
  connectionsPerChannel: number;
  /** Open connections per client address; 0: no limit. */
  connectionsPerAddress: number;
  /** Upgrade attempts per client address in any UPGRADE_WINDOW_MS; 0: no limit. */
  upgradesPerAddress: number;
  /** Seconds without anything from the client (a pong included) before the connection is dropped. */
  idleTimeoutS: number;
  /** Channels one connection may follow (`channels=`); 0: no limit. */
  channelsPerSocket: number;
}

/**
 * Defaults sized for a large league. A channel is one graphics output: its renderers, encoders, venue screens and
 * operators number in the tens, and 1,000 is the fan-out the benchmarks measure. 200 per address leaves room for a
 * whole production site behind one NAT. 100 upgrades per 10 s lets half of such a site reconnect at once after a
 * restart (the rest within the next window) while a client looping connect-close is held to 10 a second.
 */
export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  connectionsPerChannel: 1_000,
  connectionsPerAddress: 200,
  upgradesPerAddress: 100,
  idleTimeoutS: 32,
  channelsPerSocket: 100,
};

export const UPGRADE_WINDOW_MS = 10_000;
/** What a refusal for a full channel or address asks the client to wait: a connection may close any time. */
const FULL_RETRY_AFTER_S = 5;

/** The settings (config.ts) a refusal names. */
type SocketLimitSetting = 'ONAIR_WS_UPGRADES_PER_ADDRESS' | 'ONAIR_WS_MAX_PER_ADDRESS' | 'ONAIR_WS_MAX_PER_CHANNEL';

/** The address connections are counted under: the client's, IPv6 by its /64. */
export function limitAddress(clientAddress: string): string {
  return networkOf(clientAddress);
}

export class ConnectionLimits {
  private readonly byChannel = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(
    private readonly limits: SocketLimits,
    private readonly limiter: RateLimiter,
  ) {}

  /** Counts one upgrade attempt from `address`; rejects with rate_limited past the window's limit. */
  async admitUpgrade(address: string): Promise<void> {
    const limit = this.limits.upgradesPerAddress;
    if (limit === 0) return;
    const decision = await this.limiter.take(`ws-upgrade:${address}`, limit, UPGRADE_WINDOW_MS);
    if (decision.allowed) return;
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw refusal(
      'ONAIR_WS_UPGRADES_PER_ADDRESS',
      limit,
      `Too many WebSocket upgrades from your address: at most ${limit} per ${UPGRADE_WINDOW_MS / 1000} s. Retry in ${seconds} s.`,
      seconds,
    );
  }

  /**
   * Throws rate_limited when one more connection would pass the address's limit, or the limit of one of the channels
   * it follows (a connection following several channels counts once for each).
   */
  assertRoom(channelIds: readonly string[], address: string): void {
    const { connectionsPerChannel: perChannel, connectionsPerAddress: perAddress } = this.limits;
    if (perAddress > 0 && (this.byAddress.get(address) ?? 0) >= perAddress) {
      throw refusal(
        'ONAIR_WS_MAX_PER_ADDRESS',
        perAddress,
        `Too many WebSocket connections from your address: at most ${perAddress} open at once.`,
        FULL_RETRY_AFTER_S,
      );
    }
    if (perChannel > 0 && channelIds.some((id) => (this.byChannel.get(id) ?? 0) >= perChannel)) {
      throw refusal(
        'ONAIR_WS_MAX_PER_CHANNEL',
        perChannel,
        `Too many WebSocket connections to this channel: at most ${perChannel} open at once.`,
        FULL_RETRY_AFTER_S,
      );
    }
  }

  opened(address: string): void {
    increment(this.byAddress, address, 1);
  }

  closed(address: string): void {
    increment(this.byAddress, address, -1);
  }

  /** A connection follows the channel from now on (at its open, or a channel that joined a `channels=*` one). */
  joined(channelId: string): void {
    increment(this.byChannel, channelId, 1);
  }

  left(channelId: string): void {
    increment(this.byChannel, channelId, -1);
  }
}

function increment(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

function refusal(setting: SocketLimitSetting, limit: number, detail: string, retryAfter: number): AppError {
  return new AppError('rate_limited', detail, { retryAfter, extra: { limit, setting } });
}
