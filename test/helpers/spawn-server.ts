/**
 * onair as a real child process (`src/cli.ts` under tsx by default; `npm start` or `node dist/cli.js` when
 * asked), for tests that restart, signal or kill the whole process. The port is learnt from the JSON
 * `listening` log line. `runCli` runs a command that ends by itself (backup, restore, a refused start).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ChildServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Sends the signal and waits for the process to exit. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** How to start the process: `src/cli.ts` under tsx unless told otherwise. */
export interface SpawnOptions {
  command?: string;
  args?: string[];
  timeoutMs?: number;
}

const CLI = [process.execPath, '--import', 'tsx', 'src/cli.ts'] as const;

export async function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): Promise<ChildServer> {
  const { command = CLI[0], args = CLI.slice(1), timeoutMs = 20_000 } = options;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ONAIR_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = parseJson(line);
      if (entry?.msg === 'listening' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolve(entry.port);
      }
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    process: child,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli.ts <args>` to its end (at most `timeoutMs`) and returns what it printed. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawn(CLI[0], [...CLI.slice(1), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port that was free a moment ago (for restarting a child server on the same address). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function parseJson(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
