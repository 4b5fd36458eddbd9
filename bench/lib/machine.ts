/**
 * The machine's state around a measurement: these are 2-core machines shared with other work, so a
 * benchmark waits (bounded) for the CPUs to be quiet and reports how busy they were.
 */
import fs from 'node:fs';
import os from 'node:os';
import { sleep } from './child.js';

function cpuTimes(): { busy: number; total: number; steal: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total, steal: f[7] ?? 0 };
}

/**
 * CPU time the hypervisor gave to other guests ("steal") as a share of all CPU time since `start()` was
 * called: on a shared VM, the noise no benchmark can control, so every run reports it.
 */
export function stealMeter(): () => number {
  const a = cpuTimes();
  return () => {
    const b = cpuTimes();
    return b.total === a.total ? 0 : (b.steal - a.steal) / (b.total - a.total);
  };
}

/**
 * A thread's scheduler times (/proc/<pid>/schedstat: the main thread of a process): time on a CPU, and
 * time runnable but waiting for one. Waiting is what a busy machine does to a frame clock: the timer is
 * due, the thread is ready, and another process (or the hypervisor) has the CPU.
 */
export function schedMeter(pid: number): () => { runMs: number; waitMs: number; seconds: number } {
  const read = () => {
    const [run = 0, wait = 0] = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { run, wait, at: performance.now() };
  };
  const a = read();
  return () => {
    const b = read();
    return { runMs: (b.run - a.run) / 1e6, waitMs: (b.wait - a.wait) / 1e6, seconds: (b.at - a.at) / 1000 };
  };
}

/** Share of all CPUs busy over the next `ms` (0..1). */
export async function cpuBusy(ms = 500): Promise<number> {
  const a = cpuTimes();
  await sleep(ms);
  const b = cpuTimes();
  return b.total === a.total ? 0 : (b.busy - a.busy) / (b.total - a.total);
}

/** Waits up to `maxMs` for the machine to be below `threshold` busy; returns the last reading. */
export async function waitForQuiet(maxMs = 10_000, threshold = 0.15): Promise<number> {
  const until = Date.now() + maxMs;
  let busy = await cpuBusy();
  while (busy > threshold && Date.now() < until) busy = await cpuBusy();
  return busy;
}

export function machineLine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Before a measurement: wait (3 s at most in --short runs, 20 s otherwise) for other work to calm down. */
export function settle(short: boolean): Promise<number> {
  return waitForQuiet(short ? 3_000 : 20_000, 0.2);
}
