/** How long to wait before the next reconnect attempt. Pure: the caller gives the attempt count and randomness. */

export interface ReconnectOptions {
  /** First delay, before jitter (default 250 ms; 100 ms after a 1001 "server restarting" close). */
  initialDelayMs?: number;
  /** Largest delay, before jitter (default 5,000 ms). */
  maxDelayMs?: number;
  /** Attempts in a row without reaching a snapshot before giving up (default: never give up). */
  maxAttempts?: number;
}

export const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  initialDelayMs: 250,
  maxDelayMs: 5_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

const GOING_AWAY = 1001;

/**
 * Exponential backoff with "equal jitter": between half and all of the step, so retries never bunch up at zero
 * and a restarting server is not met by every client at the same instant. A draining server (1001) is retried
 * sooner: it wants clients to move at once.
 */
export function reconnectDelay(
  attempt: number,
  closeCode: number,
  options: Required<ReconnectOptions> = DEFAULT_RECONNECT,
  random: () => number = Math.random,
): number {
  const base = closeCode === GOING_AWAY ? Math.min(100, options.initialDelayMs) : options.initialDelayMs;
  const step = Math.min(options.maxDelayMs, base * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (random() * step) / 2);
}
