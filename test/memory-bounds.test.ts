/**
 * A stranger must not be able to grow the server's memory by choosing names: caches keyed by something a
 * client sends stay bounded. A real child process gets a flood of unique requests and its resident set
 * (VmRSS) may not keep growing. The process is spawned, not started in the test's own process, so that the
 * RSS measured is the server's alone.
 *
 * The helpers (rssOf, requestMany, rssGrowth) are meant for more traffic shapes than the ones below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeDataDir, serverEnv } from './helpers/server.js';
import { freePort } from './helpers/spawn-server.js';

interface QuietServer {
  url: string;
  process: ChildProcess;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map(killed));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * `src/cli.ts` as a child process at the default log level (info: one access line per request), with
 * stdout a pipe that nobody reads: the worst case for the logger, whose lines then wait in memory (at most
 * 2 MiB, then they are dropped). The port is chosen here, so no log line is needed to learn it.
 */
async function start(): Promise<QuietServer> {
  const dir = makeDataDir();
  dirs.push(dir);
  const port = await freePort();
  const env = { ...process.env, ...serverEnv(dir), ONAIR_PORT: String(port), ONAIR_LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    },
    { timeout: 20_000, interval: 100 },
  );
  return { url, process: child };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Resident set size of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

interface RequestSpec {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Sends `count` requests, `concurrency` in flight over keep-alive connections, and returns how many got
 * each status. Fails if the whole batch takes longer than `timeoutMs`.
 */
async function requestMany(
  baseUrl: string,
  count: number,
  spec: (i: number) => RequestSpec,
  { concurrency = 32, timeoutMs = 60_000 } = {},
): Promise<Map<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  const deadline = Date.now() + timeoutMs;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      if (Date.now() > deadline) throw new Error(`only ${next} of ${count} requests sent in ${timeoutMs} ms`);
      const status = await send(agent, baseUrl, spec(next++));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

function send(agent: http.Agent, baseUrl: string, spec: RequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
    const headers = { ...spec.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const req = http.request(`${baseUrl}${spec.path}`, { agent, method: spec.method ?? 'GET', headers }, (res) => {
      res.on('error', reject);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.resume();
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * RSS growth of the server over `count` requests, after a warm-up batch of the same traffic (so that the heap
 * has grown to its working size first). RSS is sampled every SAMPLE_EVERY requests; the growth is the lowest of
 * the last samples minus the lowest of the first ones: between collections RSS saws up and down by tens of MB
 * (where in the saw a reading falls decided the median), while memory kept for every request raises the lowest
 * readings too, in full.
 */
async function rssGrowth(
  server: QuietServer,
  count: number,
  spec: (i: number) => RequestSpec,
): Promise<{ growth: number; statuses: Map<number, number>; samples: number[] }> {
  const pid = server.process.pid!;
  const warmUp = Math.min(20_000, count / 5);
  await requestMany(server.url, warmUp, (i) => spec(count + i));
  const statuses = new Map<number, number>();
  const samples = [rssOf(pid)];
  for (let done = 0; done < count; done += SAMPLE_EVERY) {
    const batch = await requestMany(server.url, Math.min(SAMPLE_EVERY, count - done), (i) => spec(done + i));
    for (const [status, n] of batch) statuses.set(status, (statuses.get(status) ?? 0) + n);
    samples.push(rssOf(pid));
  }
  const window = Math.max(3, Math.floor(samples.length / 4));
  const growth = Math.min(...samples.slice(-window)) - Math.min(...samples.slice(0, window));
  return { growth, statuses, samples };
}

const SAMPLE_EVERY = 5_000;
const MB = 1024 * 1024;
const UNIQUE = 100_000;
// Generous: these guard against a hang, not a speed (a busy 2-core machine takes minutes).

describe('memory stays bounded under unique names', () => {
  it('answers 100,000 requests for unique missing static files without growing', { timeout: 600_000 }, async () => {
    const server = await start();
    // Every static route that takes a file name: renderer assets, the public files, the API reference's assets.
    const paths = [
      (name: string) => `/render/assets/render-${name}.js`,
      (name: string) => `/${name}.js`,
      (name: string) => `/docs/assets/${name}.css`,
    ];
    // Long names, as an attacker would choose them: each remembered miss would cost about a kilobyte.
    const padding = 'x'.repeat(1_000);
    const started = Date.now();
    const { growth, statuses, samples } = await rssGrowth(server, UNIQUE, (i) => ({
      path: paths[i % paths.length]!(`${padding}${i.toString(36)}`),
    }));
    console.log(`${UNIQUE} unique missing files: RSS +${(growth / MB).toFixed(1)} MB in ${Date.now() - started} ms`);
    expect([...statuses]).toEqual([[404, UNIQUE]]);
    expect(growth, `RSS samples (MB): ${samples.map((b) => (b / MB).toFixed(0)).join(' ')}`).toBeLessThan(20 * MB);
  });

  it('answers 100,000 sign-ins with unique emails without growing', { timeout: 600_000 }, async () => {
    const server = await start();
    const started = Date.now();
    const { growth, statuses, samples } = await rssGrowth(server, UNIQUE, (i) => ({
      method: 'POST',
      path: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `guess-${i.toString(36)}-${'x'.repeat(200)}@example.com`, password: 'guess' }),
    }));
    console.log(`${UNIQUE} unique sign-ins: RSS +${(growth / MB).toFixed(1)} MB in ${Date.now() - started} ms`);
    // From one address, the throttle refuses once 100 have failed, before looking at the email.
    expect(statuses.get(429)).toBeGreaterThan(UNIQUE * 0.99);
    expect(growth, `RSS samples (MB): ${samples.map((b) => (b / MB).toFixed(0)).join(' ')}`).toBeLessThan(20 * MB);
  });
});
