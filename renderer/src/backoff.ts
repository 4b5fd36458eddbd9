/** How long to wait before reconnecting. Pure: the caller supplies the attempt count and randomness. */
import { CloseCode, isTerminalClose } from '../../src/protocol/index.js';

interface Policy {
  baseMs: number;
  capMs: number;
}

/** A draining server (1001) wants us elsewhere at once; jitter still spreads a whole fleet of pages. */
const DRAINING: Policy = { baseMs: 100, capMs: 5_000 };
const NORMAL: Policy = { baseMs: 250, capMs: 5_000 };
/** Bad token or channel: keep trying, since an operator may fix it, but slowly. */
const TERMINAL: Policy = { baseMs: 1_000, capMs: 30_000 };

export function policyFor(closeCode: number): Policy {
  if (closeCode === CloseCode.goingAway) return DRAINING;
  return isTerminalClose(closeCode) ? TERMINAL : NORMAL;
}

/**
 * "Equal jitter": between half and all of the exponential step, so retries never bunch up at zero
 * and a server restart is not met by every page at the same instant.
 */
export function reconnectDelay(attempt: number, closeCode: number, random: () => number = Math.random): number {
  const { baseMs, capMs } = policyFor(closeCode);
  const step = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (random() * step) / 2);
}
