/**
 * Bad messages cost the sender, not the server (docs/api.md, "Real-time WebSocket", "Close codes"): a connection
 * is answered with at most ERROR_BUDGET.limit errors in any rolling ERROR_BUDGET.windowMs. The message that would
 * earn one more closes the connection (4029) instead, so a client answering each error with another bad message
 * cannot keep the server replying thousands of times a second.
 */

export const ERROR_BUDGET = { limit: 100, windowMs: 10_000 } as const;

/**
 * A strict rolling window over one connection's error replies: the times of the last `limit` errors in a ring.
 * Made on a connection's first error, so connections that never err pay nothing.
 */
export class ErrorBudget {
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;

  constructor(
    private readonly rule: { limit: number; windowMs: number } = ERROR_BUDGET,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.times = new Float64Array(rule.limit);
  }

  /** Counts one error reply; false (and not counted) when it would be one too many in the window. */
  take(): boolean {
    const now = this.now();
    const size = this.times.length;
    while (this.count > 0 && (this.times[this.head] ?? 0) <= now - this.rule.windowMs) {
      this.head = (this.head + 1) % size;
      this.count--;
    }
    if (this.count >= size) return false;
    this.times[(this.head + this.count) % size] = now;
    this.count++;
    return true;
  }
}
