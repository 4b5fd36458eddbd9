/** How long a client waits before reconnecting. Pure: the caller supplies the attempt count and randomness. */
import { CloseCode, isTerminalClose } from './close-codes.js';

export interface Backoff {
  /** The first delay, before jitter. */
  initialDelayMs: number;
  /** The largest delay, before jitter. */
  maxDelayMs: number;
}

/** After a drop or a "reconnect soon" close (4100–4199): 250 ms, doubling up to 5 s. */
export const RECONNECT_BACKOFF: Backoff = { initialDelayMs: 250, maxDelayMs: 5_000 };
/** A draining server (1001) wants its clients elsewhere at once: the first retry comes within 100 ms. */
export const DRAINING_FIRST_DELAY_MS = 100;
/**
 * After a 4000–4099 close (bad credentials or channel), for a client that keeps trying anyway, as an output page
 * does since an operator may fix what it was refused for: slowly, up to 30 s.
 */
export const TERMINAL_BACKOFF: Backoff = { initialDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * Exponential backoff with "equal jitter": between half and all of the step, so retries never bunch up at zero
 * and a restarting server is not met by every client at the same instant.
 */
export function reconnectDelay(
  attempt: number,
  closeCode: number,
  backoff: Backoff = RECONNECT_BACKOFF,
  random: () => number = Math.random,
): number {
  const { initialDelayMs, maxDelayMs } = isTerminalClose(closeCode) ? TERMINAL_BACKOFF : backoff;
  const base = closeCode === CloseCode.goingAway ? Math.min(DRAINING_FIRST_DELAY_MS, initialDelayMs) : initialDelayMs;
  const step = Math.min(maxDelayMs, base * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (random() * step) / 2);
}
