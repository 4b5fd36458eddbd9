/**
 * The system clock with a brake: while held, engine timers that come due are parked instead of run, so
 * no tick happens until release() (or until the engine runs one itself, as a drain does). Lets a test
 * put work in the queue and act before the tick that would apply it, without any sleep.
 */
import { systemTime, type TimeSource } from '../../src/engine/index.js';

export class HoldableTime implements TimeSource {
  /** Timers set and not yet run or cancelled: 0 means every frame clock is idle. */
  pendingTimers = 0;
  private held = false;
  private parked: (() => void)[] = [];

  now(): number {
    return systemTime.now();
  }

  setTimer(fn: () => void, ms: number): () => void {
    let done = false;
    const finish = () => {
      if (done) return false;
      done = true;
      this.pendingTimers--;
      return true;
    };
    const run = () => {
      if (finish()) fn();
    };
    this.pendingTimers++;
    const cancelReal = systemTime.setTimer(() => (this.held ? this.parked.push(run) : run()), ms);
    return () => {
      finish();
      cancelReal();
    };
  }

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    for (const run of this.parked.splice(0)) run();
  }
}
