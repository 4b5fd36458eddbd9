/**
 * Signals reach the server through `npm start`. A process manager (systemd, Docker, a terminal) knows only
 * the pid it started, npm's: SIGTERM or SIGINT sent there must drain the server (renderers closed with 1001),
 * end npm, and leave no onair process behind holding the port or the data directory.
 * Linux only: the process tree is read from /proc.
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, createChannelWithScoreboard } from './helpers/api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { freePort, spawnServer, type ChildServer } from './helpers/spawn-server.js';
import { RenderClient } from './helpers/ws-client.js';

const children: ChildServer[] = [];
const clients: RenderClient[] = [];
const dirs: string[] = [];
/** Processes under npm: killed after a failed test, which may have left them running without npm. */
const strays: number[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const pid of strays.splice(0).filter(running)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every process below `pid`, from /proc (the server, and whatever it started). */
function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const stat = readStat(Number(entry));
    if (stat) byParent.set(stat.ppid, [...(byParent.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (parent: number) =>
    byParent.get(parent)?.forEach((child) => {
      found.push(child);
      walk(child);
    });
  walk(pid);
  return found;
}

function readStat(pid: number): { ppid: number; state: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the fields after it do not.
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state };
  } catch {
    return null;
  }
}

/** A zombie has exited; only its parent has not collected it yet. */
const running = (pid: number) => !['Z', 'X', undefined].includes(readStat(pid)?.state);

function connectRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe.skipIf(process.platform !== 'linux')('signals to npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm's pid drains the server, ends npm and frees the port and the data directory`, async () => {
      const dir = makeDataDir();
      dirs.push(dir);
      const env = { ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info', ONAIR_PORT: String(await freePort()) };
      // npm start builds the output page and the dashboard before the server starts: seconds, more on a busy machine.
      const npm = await spawnServer(env, { command: 'npm', args: ['start'], timeoutMs: 60_000 });
      children.push(npm);
      const tree = descendants(npm.process.pid!);
      strays.push(...tree);
      expect(tree.length).toBeGreaterThan(0);
      const { channelId, token } = await createChannelWithScoreboard(api(npm.url, TEST_KEY));
      const renderer = await RenderClient.connect(npm.url, channelId, { token });
      clients.push(renderer);
      await renderer.next((m) => m.type === 'snapshot');

      const code = await npm.kill(signal);

      expect((await renderer.closed).code).toBe(1001);
      expect(code).toBe(0);
      await vi.waitFor(() => expect(tree.filter(running)).toEqual([]), { timeout: 15_000 });
      expect(await connectRefused(npm.port)).toBe(true);
      // The same port and data directory serve a new server at once.
      const next = await spawnServer(env);
      children.push(next);
      expect(next.port).toBe(npm.port);
    }, 120_000);
  }
});
