/**
 * One onair per data directory (src/store/sqlite/data-dir-lock.ts): a second server on a directory a live
 * one holds refuses to start at once and names the holder; a holder killed with kill -9 blocks nothing; a
 * second store in the same process is refused too, and its refusal leaves the first one's lock in place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { DataDirInUseError } from '../src/store/sqlite/data-dir-lock.js';
import { makeDataDir, serverEnv } from './helpers/server.js';
import { runCli, spawnServer, type ChildServer } from './helpers/spawn-server.js';

const children: ChildServer[] = [];
const stores: SqliteStore[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = makeDataDir();
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<ChildServer> {
  const child = await spawnServer({ ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info' });
  children.push(child);
  return child;
}

/** The refusal a second onair prints: no stack trace, the holder named. */
function refusal(dir: string, pid: number): RegExp {
  const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^onair could not start: the data directory ${escaped} is in use by another onair ` +
      `\\(pid ${pid} on host ${os.hostname()}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\. ` +
      'Stop it first, or use another ONAIR_DATA_DIR\\.\\n$',
    'm',
  );
}

// Spawned servers, each a process of its own: 60 s for a busy machine.
it('refuses a second server on a data directory a live one holds, naming the first, and leaves it running', async () => {
  const dir = dataDir();
  const first = await start(dir);

  const second = await runCli(['start'], serverEnv(dir));

  expect(second.code).toBe(1);
  expect(second.stderr).toMatch(refusal(dir, first.process.pid!));
  expect(second.stderr).not.toMatch(/^\s+at /m);
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  // The refused attempt did not loosen the first server's lock.
  expect((await runCli([], serverEnv(dir))).stderr).toMatch(refusal(dir, first.process.pid!));
}, 60_000);

it('starts at once on a data directory whose holder was killed with kill -9', async () => {
  const dir = dataDir();
  const first = await start(dir);
  await first.kill('SIGKILL');

  const second = await start(dir);

  expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  const holder = JSON.parse(fs.readFileSync(path.join(dir, 'onair.pid'), 'utf8')) as { pid: number };
  expect(holder.pid).toBe(second.process.pid);
}, 60_000);

it('refuses a second store in the same process; the first keeps the directory until it closes', async () => {
  const dir = dataDir();
  const first = new SqliteStore({ dataDir: dir, synchronous: 'normal' });
  stores.push(first);

  let refused: unknown;
  try {
    stores.push(new SqliteStore({ dataDir: dir, synchronous: 'normal' }));
  } catch (err) {
    refused = err;
  }

  expect(refused).toBeInstanceOf(DataDirInUseError);
  expect((refused as DataDirInUseError).holder).toMatchObject({ pid: process.pid, host: os.hostname() });
  expect((await first.defaultOrg()).id).toMatch(/^org_/);
  // The refused connection was closed; the first one's lock holds against other processes still.
  expect((await runCli(['start'], serverEnv(dir))).stderr).toMatch(refusal(dir, process.pid));
  await first.close();
  expect(fs.existsSync(path.join(dir, 'onair.pid'))).toBe(false);
  stores.push(new SqliteStore({ dataDir: dir, synchronous: 'normal' }));
});
