/** How the live client reconnects: the protocol's backoff (generated/protocol.ts), with limits a caller may set. */
import { RECONNECT_BACKOFF } from '../generated/protocol.js';

export interface ReconnectOptions {
  /** First delay, before jitter (default 250 ms; 100 ms after a 1001 "server restarting" close). */
  initialDelayMs?: number;
  /** Largest delay, before jitter (default 5,000 ms). */
  maxDelayMs?: number;
  /** Attempts in a row without reaching a snapshot before giving up (default: never give up). */
  maxAttempts?: number;
}

export const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  ...RECONNECT_BACKOFF,
  maxAttempts: Number.POSITIVE_INFINITY,
};
