/**
 * Runs a pass over waiting work one at a time. A request while a pass runs asks for one more pass after it (however
 * many requests came meanwhile), so work that arrived during a pass is never missed and passes never overlap. The
 * outbox dispatcher and the delivery worker each run their passes this way.
 */
export class SinglePass {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<void>,
    /** A pass that failed: the work is still waiting, for the next request. */
    private readonly failed: (err: unknown) => void,
  ) {}

  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.failed)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }

  /** Starts no more passes; resolves once the one running has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
