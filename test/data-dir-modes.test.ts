/**
 * Only the service user may read the data directory and the backups (docs/deploy.md, "File permissions"): they
 * hold password hashes, emails, hashed secrets and the key that seals webhook secrets. The directory is 0700 and
 * every file in it 0600 whatever the umask; an existing directory with looser modes is made private at start,
 * with a warning in the log; backups and restored databases are 0600 too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { backupDatabase } from '../src/store/sqlite/backup.js';
import { restoreDatabase } from '../src/store/sqlite/restore.js';
import { api, createChannelWithScoreboard, expectStatus } from './helpers/api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';

const FILES = ['onair.db', 'onair.db-wal', 'onair.db-shm', 'onair.lock', 'onair.pid', 'secret.key'];
const dirs: string[] = [];
let handle: ServerHandle | undefined;
const umask = process.umask();

afterEach(async () => {
  await handle?.stop();
  handle = undefined;
  process.umask(umask);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = makeDataDir();
  dirs.push(dir);
  return dir;
}

const modeOf = (file: string) => `0${(fs.statSync(file).mode & 0o777).toString(8)}`;

function modes(dataDir: string): Record<string, string> {
  const entries: [string, string][] = [
    ['.', modeOf(dataDir)],
    ...FILES.map((f) => [f, modeOf(path.join(dataDir, f))] as [string, string]),
  ];
  return Object.fromEntries(entries);
}

const PRIVATE = { '.': '0700', ...Object.fromEntries(FILES.map((f) => [f, '0600'])) };

async function start(dataDir: string, lines: string[] = []): Promise<ServerHandle> {
  const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
  handle = await startServer(loadConfig({ ...serverEnv(dataDir), ONAIR_DB_SYNC: 'full' }), { logger });
  // A write, so the -wal holds frames.
  await createChannelWithScoreboard(api(handle.baseUrl, TEST_KEY));
  return handle;
}

it('creates the data directory 0700 and every file in it 0600 under a permissive umask', async () => {
  process.umask(0o000);
  const dataDir = path.join(scratch(), 'new', 'data');
  await start(dataDir);
  expect(modes(dataDir)).toEqual(PRIVATE);
  expect(modeOf(path.dirname(dataDir))).toBe('0700');
});

it('makes an existing data directory with looser modes private at start, and says so in the log', async () => {
  process.umask(0o022);
  const dataDir = scratch();
  await start(dataDir);
  await handle!.stop();
  handle = undefined;
  // What an older onair left: a directory and files any local user could read.
  fs.chmodSync(dataDir, 0o755);
  for (const f of FILES.filter((f) => fs.existsSync(path.join(dataDir, f)))) fs.chmodSync(path.join(dataDir, f), 0o644);
  const lines: string[] = [];
  await start(dataDir, lines);
  expect(modes(dataDir)).toEqual(PRIVATE);
  const warning = lines.map((l) => JSON.parse(l) as { msg: string; tightened?: string[] }).find((l) => l.tightened);
  expect(warning?.msg).toMatch(/readable by other users/);
  expect(warning?.tightened).toContain(`${dataDir} 0755 → 0700`);
  expect(warning?.tightened).toContain(`${path.join(dataDir, 'onair.db')} 0644 → 0600`);
  expect(warning?.tightened).toContain(`${path.join(dataDir, 'secret.key')} 0644 → 0600`);
});

it('writes backups 0600 and restores a database 0600 whatever the backup file’s mode', async () => {
  process.umask(0o022);
  const dataDir = scratch();
  await start(dataDir);
  const target = path.join(scratch(), 'backup.db');
  await backupDatabase(dataDir, target, { force: false });
  expect(modeOf(target)).toBe('0600');
  await handle!.stop();
  handle = undefined;

  fs.chmodSync(target, 0o644);
  fs.chmodSync(dataDir, 0o755);
  const restored = restoreDatabase(dataDir, target);
  expect(modeOf(restored.file)).toBe('0600');
  expect(modeOf(dataDir)).toBe('0700');
  expect(modeOf(restored.movedAside!)).toBe('0700');
  for (const f of fs.readdirSync(restored.movedAside!)) expect(modeOf(path.join(restored.movedAside!, f))).toBe('0600');
  expect(restored.modes.tightened).toContain(`${dataDir} 0755 → 0700`);
  // The restored database serves.
  const again = await start(dataDir);
  expectStatus(await api(again.baseUrl, TEST_KEY)('GET', '/v1/channels'), 200);
});
