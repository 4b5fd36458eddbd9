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
  /** The flush that will start when the running one ends: every write made meanwhile waits for it. */
  private next: Promise<void> | null = null;

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
    if (!this.running) return (this.running = this.start());
    this.next ??= this.running.then(
      () => this.promote(),
      () => this.promote(),
    );
    return this.next;
  }

  /** Waits for any flush under way, then releases the descriptor. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    fs.closeSync(this.fd);
  }

  private promote(): Promise<void> {
    this.next = null;
    return (this.running = this.start());
  }

  private start(): Promise<void> {
    const done = new Promise<void>((resolve, reject) =>
      fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())),
    );
    const clear = () => {
      if (this.running === done) this.running = null;
    };
    done.then(clear, clear);
    return done;
  }
}
