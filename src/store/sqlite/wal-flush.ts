/**
 * Group commit for the write-ahead log, off the event loop. A tick is written with `synchronous=NORMAL`
 * (the WAL frames reach the OS: they survive a process crash or kill -9, and the write costs microseconds);
 * this flusher then makes them survive a power cut with fdatasync on the -wal file, which libuv runs on
 * its thread pool. fdatasync flushes every byte written to the file before it started, whichever
 * descriptor wrote them, so one flush covers every tick written while the previous one ran.
 */
import fs from 'node:fs';

export class WalFlusher {
  private running: Promise<void> | null = null;
  /**
   * After a failed fdatasync the kernel may have dropped the dirty pages and report the next flush as a
   * success; a WAL with a hole loses every later frame at recovery. So one failure fails every flush
   * after it: nothing more is acknowledged until the process restarts and SQLite recovers from disk.
   */
  private broken: Error | null = null;
  /** The flush that will start when the running one ends: every write made meanwhile waits for it. */
  private next: Promise<void> | null = null;
  /** Told how long each fdatasync took, failed ones included (for metrics). */
  private onFlushed: ((ms: number) => void) | null = null;

  private constructor(private readonly fd: number) {}

  /** Null when there is no -wal file to flush (not in WAL mode): the caller then syncs in SQLite itself. */
  static open(walPath: string): WalFlusher | null {
    try {
      return new WalFlusher(fs.openSync(walPath, 'r'));
    } catch {
      return null;
    }
  }

  /** Resolves when everything written to the WAL before this call is on disk. */
  flush(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (!this.running) return (this.running = this.start());
    this.next ??= this.running.then(
      () => this.promote(),
      () => this.promote(),
    );
    return this.next;
  }

  /** Reports the duration of every fdatasync from now on; one listener (the last one set). */
  observe(onFlushed: (ms: number) => void): void {
    this.onFlushed = onFlushed;
  }

  /** The failure that stopped every flush, if any. */
  failure(): Error | null {
    return this.broken;
  }

  /**
   * Waits for any flush under way, then releases the descriptor. A descriptor whose flush failed is left
   * to the restart that must follow: whatever made it fail (EIO, or EBADF), closing it again helps nothing.
   */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    if (!this.broken) fs.closeSync(this.fd);
  }

  /** A listener that throws must not keep the flush from settling: acknowledgements wait on it. */
  private report(ms: number): void {
    try {
      this.onFlushed?.(ms);
    } catch {
      // metrics only
    }
  }

  private promote(): Promise<void> {
    this.next = null;
    return (this.running = this.start());
  }

  private start(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const started = performance.now();
    const done = new Promise<void>((resolve, reject) =>
      fs.fdatasync(this.fd, (err) => {
        this.report(performance.now() - started);
        if (!err) return resolve();
        this.broken ??= new Error(`fdatasync of the WAL failed (${err.code ?? err.message}); restart the server.`);
        reject(this.broken);
      }),
    );
    const clear = () => {
      if (this.running === done) this.running = null;
    };
    done.then(clear, clear);
    return done;
  }
}
