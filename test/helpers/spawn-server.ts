/**
 * onair as a real child process (`src/cli.ts`, as `npm start` runs it), for tests that restart or kill
 * the whole process. The port is learnt from the JSON `listening` log line.
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

export async function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts'], {
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
