/**
 * WAL checkpoints on a worker thread. SQLite's automatic checkpoint runs inside whichever commit crosses
 * 1,000 pages, copying megabytes and syncing twice on the event loop: a stall of tens of milliseconds, a
 * frame or two of late ticks. Here the main connection never checkpoints (`wal_autocheckpoint=0`) and a
 * second connection on its own thread runs PASSIVE checkpoints, which never block the writer. The worker
 * sleeps until the store reports a tick written, then checkpoints once per interval while writes go on, at
 * a lower CPU priority than the event loop.
 *
 * PASSIVE alone does not keep the WAL small under a steady load: SQLite starts the WAL over only when a write begins
 * while every frame in it has been checkpointed, and with commits every few milliseconds that moment comes by
 * chance. The WAL then grew to hundreds of MB, and the write that finally reset it truncated the file to
 * `journal_size_limit` on the event loop: stalls of 100–270 ms (docs/performance.md, "Soak"). So when a PASSIVE
 * checkpoint leaves more than `restartBytes` in the WAL, the worker follows it with a RESTART checkpoint: it copies
 * the few frames written since, waits (up to its short busy timeout) for readers to leave the WAL, and makes the next
 * write start the WAL from its beginning. The WAL then stays near `restartBytes`, and the file never needs cutting.
 * A RESTART holds back writers only while it copies what PASSIVE left, a fraction of a millisecond's worth of commits.
 *
 * The worker's code is a plain CommonJS string (it needs nothing but better-sqlite3), so it runs the same
 * under tsx, vitest and plain node.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// Background work: on a busy machine the frame clock's thread goes first. (On Linux a nice value belongs
// to a thread, so this lowers the worker only; elsewhere it may lower the process, so it is skipped.)
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(workerData.nice);
  } catch {}
}
const db = new Database(workerData.file);
// Short: a RESTART that cannot have the WAL to itself soon gives up, and the next interval tries again.
db.pragma('busy_timeout = 100');
// A checkpoint copies pages from the WAL to the database file: it needs no cache to speak of.
db.pragma('cache_size = -256');
db.pragma('synchronous = ' + workerData.synchronous);
const pageSize = db.pragma('page_size', { simple: true });
const restartPages = Math.max(1, Math.floor(workerData.restartBytes / pageSize));
const checkpoint = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive && passive.log >= restartPages) {
      const [restart] = db.pragma('wal_checkpoint(RESTART)');
      parentPort.postMessage({ restarted: restart ? restart.busy === 0 : false, walPages: passive.log });
    }
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message), code: err && err.code });
  }
};
// Nothing runs until the main thread says it wrote: an idle server has no timer here.
let timer = null;
parentPort.on('message', (msg) => {
  if (msg === 'written' && timer === null) {
    timer = setTimeout(() => {
      timer = null;
      checkpoint();
      parentPort.postMessage({ checkpointed: true });
    }, workerData.intervalMs);
  }
  if (msg !== 'stop') return;
  if (timer !== null) clearTimeout(timer);
  checkpoint();
  db.close();
  process.exit(0);
});
`;

/** The worker's nice value (Linux): the same CPU share as any other work when the machine is idle. */
export const CHECKPOINT_NICE = 10;

export interface CheckpointerOptions {
  file: string;
  synchronous: 'FULL' | 'NORMAL';
  intervalMs?: number | undefined;
  /** A PASSIVE checkpoint that leaves more than this in the WAL is followed by a RESTART one. Default 4 MiB. */
  restartBytes?: number | undefined;
  /**
   * The worker's nice value on Linux. Default CHECKPOINT_NICE; a test of the checkpoints alone gives it the writer's
   * (0), so that on a busy machine the two share the CPU as they do on an idle one.
   */
  nice?: number | undefined;
  /** The worker failed: the caller turns SQLite's automatic checkpoints back on. */
  onFailure: (err: Error) => void;
}

export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private failed = false;
  /** A checkpoint is due in the worker; further writes need not say so again. */
  private requested = false;

  constructor(options: CheckpointerOptions) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        driver,
        file: options.file,
        synchronous: options.synchronous,
        intervalMs: options.intervalMs ?? 500,
        restartBytes: options.restartBytes ?? 4 * 1024 * 1024,
        nice: options.nice ?? CHECKPOINT_NICE,
      },
    });
    this.worker.unref();
    const fail = (err: Error) => {
      if (this.failed) return;
      this.failed = true;
      options.onFailure(err);
    };
    this.worker.on('message', (msg: { error?: string; code?: string; checkpointed?: boolean }) => {
      // A full disk passes (storage-faults.ts): the next write asks again, and checkpoints resume with the room.
      if (msg.error && !msg.code?.startsWith('SQLITE_FULL')) fail(new Error(`WAL checkpoint failed: ${msg.error}`));
      if (msg.checkpointed) this.requested = false;
    });
    this.worker.on('error', fail);
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Something was written to the WAL: the worker checkpoints it within intervalMs. One message per interval. */
  written(): void {
    if (this.requested || this.failed) return;
    this.requested = true;
    this.worker.postMessage('written');
  }

  /** One last checkpoint, then the worker's connection is closed. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    const timeout = setTimeout(() => void this.worker.terminate(), 5000);
    await this.exited;
    clearTimeout(timeout);
  }
}
