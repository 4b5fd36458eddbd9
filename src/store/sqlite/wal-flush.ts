/**
 * Group commit for the write-ahead log, off the event loop. A tick is written with `synchronous=NORMAL`
 * (the WAL frames reach the OS: they survive a process crash or kill -9, and the write costs microseconds);
 * this flusher then makes them survive a power cut with fdatasync on the -wal file. fdatasync flushes every
 * byte written to the file before it started, whichever descriptor wrote them, so one flush covers every
 * tick written while the previous one ran.
 *
 * The fdatasync runs on a thread of its own (a worker that calls it synchronously), not on libuv's thread
 * pool: that pool also runs argon2 for sign-ins, DNS lookups and file reads, and a flush queued behind them
 * held every acknowledgement back (docs/performance.md, "Sign-in flood"). Descriptors belong to the process,
 * so the worker syncs the descriptor opened here.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
parentPort.on('message', () => {
  const started = performance.now();
  try {
    fs.fdatasyncSync(workerData.fd);
    parentPort.postMessage({ ms: performance.now() - started });
  } catch (err) {
    parentPort.postMessage({ ms: performance.now() - started, failed: String((err && (err.code || err.message)) || err) });
  }
});
`;

interface FlushReply {
  ms: number;
  failed?: string;
}

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
  /** Settles the fdatasync the worker is running (at most one at a time). */
  private settle: ((reply: FlushReply) => void) | null = null;
  private closing = false;
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  private constructor(private readonly fd: number) {
    this.worker = new Worker(WORKER_CODE, { eval: true, workerData: { fd } });
    // Only a flush under way keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (reply: FlushReply) => this.settle?.(reply));
    this.worker.on('error', (err) => this.settle?.({ ms: 0, failed: err.message }));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    void this.exited.then(() => {
      if (!this.closing) this.broken ??= new Error('the WAL flush thread stopped; restart the server.');
      this.settle?.({ ms: 0, failed: 'the flush thread stopped' });
    });
  }

  /** Null when there is no -wal file to flush (not in WAL mode): the caller then syncs in SQLite itself. */
  static open(walPath: string): WalFlusher | null {
    let fd: number;
    try {
      fd = fs.openSync(walPath, 'r');
    } catch {
      return null;
    }
    return new WalFlusher(fd);
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
   * Waits for any flush under way, stops the thread, then releases the descriptor. A descriptor whose flush
   * failed is left to the restart that must follow: whatever made it fail (EIO, or EBADF), closing it again
   * helps nothing.
   */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    this.closing = true;
    await this.worker.terminate();
    await this.exited;
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
    const done = new Promise<void>((resolve, reject) => {
      this.settle = (reply) => {
        this.settle = null;
        this.worker.unref();
        this.report(reply.ms);
        if (reply.failed === undefined) return resolve();
        this.broken ??= new Error(`fdatasync of the WAL failed (${reply.failed}); restart the server.`);
        reject(this.broken);
      };
    });
    this.worker.ref();
    this.worker.postMessage(null);
    const clear = () => {
      if (this.running === done) this.running = null;
    };
    done.then(clear, clear);
    return done;
  }
}
