/**
 * Processes for benchmarks: every server under test and every load generator runs in its own child,
 * talking to the orchestrator over IPC with numbered requests. Every child has a hard lifetime, so a
 * benchmark that goes wrong can never leave load running.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LOCALHOST = '127.0.0.1';

export interface Child {
  readonly proc: ChildProcess;
  /** What the child sent with its ready message. */
  readonly info: Record<string, unknown>;
  request<T = unknown>(cmd: string, args?: object, timeoutMs?: number): Promise<T>;
  /** Asks the child to exit, then kills it after a grace period. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  env?: Record<string, string>;
  /** Extra node flags, e.g. --expose-gc or --cpu-prof. */
  nodeFlags?: string[];
  config?: object;
  /** The child exits by itself after this long. */
  maxLifeMs?: number;
  readyTimeoutMs?: number;
}

type Reply = { id: number; ok: boolean; result?: unknown; error?: string };

export async function startChild(script: string, options: ChildOptions = {}): Promise<Child> {
  const proc = fork(path.join(ROOT, script), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', ...(options.nodeFlags ?? [])],
    env: {
      ...process.env,
      ...options.env,
      BENCH_CONFIG: JSON.stringify(options.config ?? {}),
      BENCH_MAX_LIFE_MS: String(options.maxLifeMs ?? 180_000),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${script} did not become ready`));
    }, options.readyTimeoutMs ?? 60_000);
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    proc.on('message', (msg: { ready?: Record<string, unknown> } & Partial<Reply>) => {
      if (msg.ready) {
        clearTimeout(timer);
        return resolve(msg.ready);
      }
      const w = msg.id !== undefined ? waiting.get(msg.id) : undefined;
      if (!w) return;
      waiting.delete(msg.id!);
      if (msg.ok) w.resolve(msg.result);
      else w.reject(new Error(`${script}: ${msg.error}`));
    });
  });
  proc.on('exit', () => {
    for (const w of waiting.values()) w.reject(new Error(`${script} exited`));
    waiting.clear();
  });

  return {
    proc,
    info,
    request<T>(cmd: string, args: object = {}, timeoutMs = 60_000): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${script}: ${cmd} timed out`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (v) => (clearTimeout(timer), resolve(v as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        proc.send({ id, cmd, args });
      });
    },
    stop: () => stopProcess(proc),
  };
}

function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    if (proc.connected) proc.send({ id: 0, cmd: 'exit', args: {} });
    else proc.kill('SIGTERM');
  });
}

export type Handler = (args: Record<string, unknown>) => unknown;

/**
 * Child side: answers the orchestrator's requests with `handlers`, exits on `exit`, when the parent
 * goes away, or when its lifetime is up.
 */
export function serveParent(handlers: Record<string, Handler>, onExit: () => Promise<void> | void = () => {}): void {
  const exit = async (code: number) => {
    try {
      await onExit();
    } finally {
      process.exit(code);
    }
  };
  setTimeout(() => void exit(3), Number(process.env.BENCH_MAX_LIFE_MS ?? 180_000)).unref();
  process.on('disconnect', () => void exit(0));
  process.on('message', (msg: { id: number; cmd: string; args: Record<string, unknown> }) => {
    if (msg.cmd === 'exit') return void exit(0);
    const handler = handlers[msg.cmd];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${msg.cmd}`);
        return handler(msg.args);
      })
      .then(
        (result) => process.send?.({ id: msg.id, ok: true, result }),
        (err: unknown) => process.send?.({ id: msg.id, ok: false, error: String((err as Error)?.stack ?? err) }),
      );
  });
}

export function ready(info: Record<string, unknown> = {}): void {
  process.send?.({ ready: info });
}

export function childConfig<T>(): T {
  return JSON.parse(process.env.BENCH_CONFIG ?? '{}') as T;
}

/** RSS after a full GC (children started with --expose-gc), and heap in use. */
export async function memorySnapshot(): Promise<{ rss: number; heapUsed: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
