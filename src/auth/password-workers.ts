/**
 * argon2id on threads of its own, at a lower CPU priority than the frame clock (docs/deploy.md, "Sign-in under
 * load"). @node-rs/argon2's async calls run on libuv's thread pool, which the process shares with DNS lookups and
 * file reads, and at the same priority as the event loop: a flood of failed sign-ins then took the cores the
 * frame clock and the acknowledgements need. Here each worker runs the synchronous calls one at a time, niced
 * (on Linux a nice value belongs to a thread), so on a busy machine the event loop goes first.
 *
 * Guarantees: at most `size` threads, started when first needed and kept (they hold no handle that keeps the
 * process alive while idle); tasks beyond the free threads wait in order; a thread that dies fails its task
 * and is replaced by the next task.
 *
 * The worker's code is a plain CommonJS string (it needs only @node-rs/argon2), so it runs the same under tsx,
 * vitest and plain node.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(workerData.nice);
  } catch {}
}
parentPort.on('message', (task) => {
  try {
    const result = task.op === 'hash' ? argon2.hashSync(task.password) : argon2.verifySync(task.hash, task.password);
    parentPort.postMessage({ result });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
});
`;

/** The threads' nice value (Linux): below the event loop's share on a busy machine, all of a free core otherwise. */
export const PASSWORD_NICE = 10;

type Task = { op: 'hash'; password: string } | { op: 'verify'; hash: string; password: string };
interface Reply {
  result?: string | boolean;
  error?: string;
}
interface Job {
  task: Task;
  resolve: (result: string | boolean) => void;
  reject: (err: Error) => void;
}

class PasswordThread {
  private job: Job | null = null;
  private readonly worker: Worker;
  dead = false;

  constructor(argon2: string, onIdle: (thread: PasswordThread) => void) {
    this.worker = new Worker(WORKER_CODE, { eval: true, workerData: { argon2, nice: PASSWORD_NICE } });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const job = this.finish();
      if (reply.error !== undefined) job?.reject(new Error(reply.error));
      else job?.resolve(reply.result!);
      onIdle(this);
    });
    const die = (err: Error) => {
      if (this.dead) return;
      this.dead = true;
      this.finish()?.reject(err);
      onIdle(this);
    };
    this.worker.on('error', die);
    this.worker.on('exit', () => die(new Error('the password thread stopped')));
  }

  get busy(): boolean {
    return this.job !== null;
  }

  start(job: Job): void {
    this.job = job;
    // Only a task under way keeps the process alive (a command that hashes a password and exits).
    this.worker.ref();
    this.worker.postMessage(job.task);
  }

  stop(): void {
    this.dead = true;
    void this.worker.terminate();
  }

  private finish(): Job | null {
    const job = this.job;
    this.job = null;
    this.worker.unref();
    return job;
  }
}

export class PasswordWorkers {
  private readonly threads: PasswordThread[] = [];
  private readonly queue: Job[] = [];
  private readonly argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');

  constructor(private size: number) {}

  /** Threads kept from now on; extra idle ones stop. */
  resize(size: number): void {
    this.size = size;
    for (const t of this.threads.filter((t) => !t.busy).slice(0, Math.max(0, this.threads.length - size))) {
      this.remove(t);
    }
  }

  hash(password: string): Promise<string> {
    return this.run({ op: 'hash', password }) as Promise<string>;
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ op: 'verify', hash, password }) as Promise<boolean>;
  }

  private run(task: Task): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let thread = this.threads.find((t) => !t.busy);
      if (!thread && this.threads.length < this.size) {
        thread = new PasswordThread(this.argon2, (t) => this.idle(t));
        this.threads.push(thread);
      }
      if (!thread) return;
      thread.start(this.queue.shift()!);
    }
  }

  /** A thread finished its task, or died. */
  private idle(thread: PasswordThread): void {
    if (thread.dead || this.threads.length > this.size) this.remove(thread);
    this.dispatch();
  }

  private remove(thread: PasswordThread): void {
    const i = this.threads.indexOf(thread);
    if (i < 0) return;
    this.threads.splice(i, 1);
    thread.stop();
  }
}
