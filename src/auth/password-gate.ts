/**
 * A cap on the password work (argon2id hashes and verifications) the whole process does at once
 * (docs/deploy.md, "Sign-in under load"). Each verification costs about 10 ms of a core on libuv's thread
 * pool; failed sign-ins cost an attacker nothing, so without a cap a flood of them takes every core and the
 * pool's threads from the frame clock and from everything else on the pool.
 *
 * Guarantees:
 * - At most `concurrency` tasks run at once; at most `maxWaiting` wait, each at most `maxWaitMs`: past that an
 *   attempt is refused with 503 `unavailable` and `Retry-After: 1`, before any password work. Nothing grows.
 *   The next in line is the exception: it is never refused for waiting, since it starts as soon as a running
 *   task ends (on a machine so busy that one verification outlasts the wait, someone still signs in).
 * - Waiters are served by who has asked least lately: each source (a client address) has a usage score that
 *   counts its attempts and halves every `halfLifeMs`; the waiter with the lowest score goes first (the oldest
 *   among equals). An operator signing in during a flood from other addresses waits behind no flooder. When
 *   the queue is full, an attempt from a source that asked less than the busiest waiter's takes that waiter's
 *   place (the waiter is refused).
 * - A task's own failure is its caller's: the slot is freed either way.
 */
import { AppError } from '../errors.js';

export interface PasswordGateOptions {
  /** Tasks running at once (argon2 uses one thread each). */
  concurrency: number;
  /** The longest an attempt waits for a slot before it is refused; 0 refuses at once when none is free. */
  maxWaitMs: number;
  maxWaiting?: number;
  halfLifeMs?: number;
  /** Sources whose usage is remembered; the least recently seen are forgotten first. */
  maxSources?: number;
  now?: () => number;
  /** Told of each refusal (for the log). */
  onRefused?: () => void;
}

interface Waiter {
  score: number;
  seq: number;
  start: () => void;
  refuse: () => void;
  timer: NodeJS.Timeout | undefined;
}

interface Usage {
  score: number;
  at: number;
}

export class PasswordGate {
  private running = 0;
  private seq = 0;
  private readonly waiting: Waiter[] = [];
  private readonly usage = new Map<string, Usage>();
  private readonly maxWaiting: number;
  private readonly halfLifeMs: number;
  private readonly maxSources: number;
  private readonly now: () => number;

  constructor(private readonly options: PasswordGateOptions) {
    this.maxWaiting = options.maxWaiting ?? 64;
    this.halfLifeMs = options.halfLifeMs ?? 10_000;
    this.maxSources = options.maxSources ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Runs `task` when a slot is free, on behalf of `source`; throws 503 `unavailable` when none frees in time. */
  async run<T>(source: string, task: () => Promise<T>): Promise<T> {
    const score = this.count(source);
    if (this.running < this.options.concurrency && this.waiting.length === 0) this.running++;
    else await this.wait(score);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Attempts waiting for a slot, and tasks running (for tests and metrics). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private wait(score: number): Promise<void> {
    if (this.options.maxWaitMs <= 0) throw this.refusal();
    if (this.waiting.length >= this.maxWaiting) {
      const busiest = this.busiest();
      if (busiest.score <= score) throw this.refusal();
      this.drop(busiest);
      busiest.refuse();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        score,
        seq: this.seq++,
        start: resolve,
        refuse: () => reject(this.refusal()),
        timer: undefined,
      };
      const expire = () => {
        if (this.lightest() === waiter) {
          waiter.timer = setTimeout(expire, this.options.maxWaitMs);
          return;
        }
        this.drop(waiter);
        waiter.refuse();
      };
      waiter.timer = setTimeout(expire, this.options.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  /** A finished task hands its slot to the waiter that asked least lately, or frees it. */
  private release(): void {
    const next = this.lightest();
    if (!next) {
      this.running--;
      return;
    }
    this.drop(next);
    next.start();
  }

  private drop(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const i = this.waiting.indexOf(waiter);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  private lightest(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const w of this.waiting)
      if (!best || w.score < best.score || (w.score === best.score && w.seq < best.seq)) best = w;
    return best;
  }

  private busiest(): Waiter {
    let worst = this.waiting[0]!;
    for (const w of this.waiting)
      if (w.score > worst.score || (w.score === worst.score && w.seq > worst.seq)) worst = w;
    return worst;
  }

  /** The source's usage before this attempt, then counts the attempt. */
  private count(source: string): number {
    const now = this.now();
    const u = this.usage.get(source);
    const before = u ? u.score * 0.5 ** ((now - u.at) / this.halfLifeMs) : 0;
    this.usage.delete(source);
    if (this.usage.size >= this.maxSources) {
      const oldest = this.usage.keys().next();
      if (!oldest.done) this.usage.delete(oldest.value);
    }
    this.usage.set(source, { score: before + 1, at: now });
    return before;
  }

  private refusal(): AppError {
    this.options.onRefused?.();
    return new AppError('unavailable', 'Too many sign-ins at once on this server: retry in a second.', {
      retryAfter: 1,
    });
  }
}
