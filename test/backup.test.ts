/**
 * `onair backup` beside a live server under load, and `onair restore` (src/store/sqlite/backup.ts,
 * restore.ts). PATCHes are sequential and each writes a counter, so every slot's value says when it was
 * sent: the backup must hold, for every slot, at least the value acknowledged when the backup command was
 * started (a later one is allowed). The server is then killed with kill -9 so that its -wal still holds
 * writes the backup does not have: a restore that left that log beside the restored file would show them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { backupDatabase } from '../src/store/sqlite/backup.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { api, createChannelWithScoreboard, getState, type InputValue } from './helpers/api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { runCli, spawnServer, type ChildServer } from './helpers/spawn-server.js';

const children: ChildServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = makeDataDir();
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<ChildServer> {
  const child = await spawnServer({ ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info', ONAIR_DB_SYNC: 'full' });
  children.push(child);
  return child;
}

const NAMES = ['scoreA', 'scoreB', 'home'] as const;
type Slot = `${string}/${(typeof NAMES)[number]}`;

interface Stream {
  /** Last acknowledged value per slot, as the sequence number it was sent with. */
  acked: Map<Slot, number>;
  ackCount: number;
  stop(): Promise<void>;
}

/** The sequence number a value was sent with: `7` or `"team-7"`. */
function seq(value: InputValue | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.startsWith('team-')) return Number(value.slice(5));
  return -1;
}

/** Sequential PATCHes cycling through the channels and their inputs until stopped. */
function patchStream(url: string, channelIds: string[]): Stream {
  let stopped = false;
  const stream = { acked: new Map<Slot, number>(), ackCount: 0, stop: async () => {} };
  const done = (async () => {
    for (let i = 0; !stopped; i++) {
      const channelId = channelIds[i % channelIds.length]!;
      const name = NAMES[Math.floor(i / channelIds.length) % NAMES.length]!;
      let res: Response;
      try {
        res = await fetch(`${url}/v1/channels/${channelId}/inputs`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ [name]: name === 'home' ? `team-${i}` : i }),
        });
        await res.arrayBuffer();
      } catch {
        return; // the server was killed
      }
      // Anything but 200 was not acknowledged, so it promises nothing.
      if (res.status === 200) {
        stream.acked.set(`${channelId}/${name}`, i);
        stream.ackCount++;
      }
    }
  })();
  stream.stop = () => {
    stopped = true;
    return done;
  };
  return stream;
}

async function valuesOf(url: string, channelIds: string[]): Promise<Map<Slot, number>> {
  const call = api(url, TEST_KEY);
  const values = new Map<Slot, number>();
  for (const channelId of channelIds) {
    const { inputs } = await getState(call, channelId);
    for (const name of NAMES) values.set(`${channelId}/${name}`, seq(inputs[name]));
  }
  return values;
}

/** A server with three scoreboard channels and a PATCH stream running against it. */
async function serverUnderLoad(dir: string) {
  const live = await start(dir);
  const call = api(live.url, TEST_KEY);
  const channelIds: string[] = [];
  for (const name of ['One', 'Two', 'Three']) {
    channelIds.push((await createChannelWithScoreboard(call, name)).channelId);
  }
  const stream = patchStream(live.url, channelIds);
  await vi.waitFor(() => expect(stream.ackCount).toBeGreaterThanOrEqual(60), { timeout: 15_000, interval: 5 });
  return { live, channelIds, stream };
}

/** Runs `onair backup` while the stream goes on; returns what was acknowledged when the command started. */
async function backupUnderLoad(dir: string, file: string, stream: Stream): Promise<Map<Slot, number>> {
  const before = new Map(stream.acked);
  const acksBefore = stream.ackCount;
  const backup = await runCli(['backup', file], serverEnv(dir));
  const acksDuring = stream.ackCount - acksBefore;
  expect(backup.stderr).toBe('');
  expect(backup.code).toBe(0);
  expect(backup.stdout).toMatch(
    /^Backed up .+ to .+\.db: [\d.]+ (B|KiB|MiB), snapshot taken at \S+Z, in \d+ ms\. Integrity check: ok\.\n$/,
  );
  // The server kept acknowledging while the backup ran: the copy was taken under load.
  expect(acksDuring).toBeGreaterThan(0);
  return before;
}

// Four servers started and three CLI runs, each a process of its own: near a minute on a busy machine.
it('backs up a live server under load with every acknowledged value, and restores it in place', async () => {
  const dir = tempDir();
  const file = path.join(tempDir(), 'onair-backup.db');
  const { live, channelIds, stream } = await serverUnderLoad(dir);
  const before = await backupUnderLoad(dir, file, stream);
  // Writes the backup cannot have, left in the -wal by the kill below.
  const acksAfterBackup = stream.ackCount;
  await vi.waitFor(() => expect(stream.ackCount).toBeGreaterThanOrEqual(acksAfterBackup + 30), { timeout: 15_000 });

  const refused = await runCli(['restore', file], serverEnv(dir));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    new RegExp(`^onair restore failed: the data directory .+ is in use by another onair \\(pid ${live.process.pid} `),
  );

  await live.kill('SIGKILL');
  await stream.stop();
  const restored = await runCli(['restore', file], serverEnv(dir));
  expect(restored.stderr).toBe('');
  expect(restored.code).toBe(0);
  const aside = /now in (\S+);/.exec(restored.stdout)?.[1];
  expect(fs.readdirSync(dir)).not.toContain('onair.db-wal');
  // The same backup restored into a fresh directory, where no old -wal could ever have been.
  const fresh = tempDir();
  expect((await runCli(['restore', file], serverEnv(fresh))).code).toBe(0);

  const [inPlace, elsewhere] = await Promise.all([start(dir), start(fresh)]);
  const values = await valuesOf(inPlace.url, channelIds);
  expect(values).toEqual(await valuesOf(elsewhere.url, channelIds));
  for (const [slot, acked] of before) expect(values.get(slot), slot).toBeGreaterThanOrEqual(acked);

  // Nothing was deleted: the database moved aside still holds the last acknowledged values.
  expect(fs.readdirSync(aside!)).toContain('onair.db');
  fs.cpSync(aside!, path.join(fresh, 'aside'), { recursive: true });
  const asideValues = await valuesOf((await start(path.join(fresh, 'aside'))).url, channelIds);
  for (const [slot, acked] of stream.acked) expect(asideValues.get(slot), slot).toBeGreaterThanOrEqual(acked);
}, 180_000);

// CLI runs and a server, each a process of its own: 60 s for a busy machine.
it('refuses to overwrite a backup without --force, and replaces it with --force', async () => {
  const dir = tempDir();
  const file = path.join(tempDir(), 'existing.db');
  fs.writeFileSync(file, 'keep me');
  const live = await start(dir);

  const refused = await runCli(['backup', file], serverEnv(dir));

  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(`onair backup failed: ${file} already exists; pass --force to replace it\n`);
  expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  const forced = await runCli(['backup', file, '--force'], serverEnv(dir));
  expect(forced.code).toBe(0);
  expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
  expect(fs.readdirSync(path.dirname(file))).toEqual(['existing.db']);
  await live.kill('SIGTERM');
}, 60_000);

it('refuses to restore a file that is not an onair database, and touches nothing', async () => {
  const dir = tempDir();
  await (await start(dir)).kill('SIGTERM');
  const before = fs.readdirSync(dir).sort();
  const notOurs = path.join(tempDir(), 'notes.db');
  fs.writeFileSync(notOurs, `not a database${os.EOL}`.repeat(200));

  const refused = await runCli(['restore', notOurs], serverEnv(dir));

  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^onair restore failed: .*notes\.db is not a usable onair database: /);
  expect(fs.readdirSync(dir).sort()).toEqual(before);
}, 60_000);

it('finishes a backup of a large database that another connection writes every millisecond', async () => {
  const dir = tempDir();
  await new SqliteStore({ dataDir: dir, synchronous: 'normal' }).close();
  const writer = new Database(path.join(dir, 'onair.db'));
  writer.pragma('journal_mode = WAL');
  // 32 MB, thousands of pages: copied a hundred pages at a time, a write between two steps would restart
  // the copy, again and again.
  writer.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE counter (n INTEGER)');
  const fill = writer.prepare('INSERT INTO filler (v) VALUES (?)');
  writer.transaction(() => {
    for (let i = 0; i < 8000; i++) fill.run(`${i}`.padEnd(4000, 'x'));
  })();
  writer.exec('INSERT INTO counter VALUES (0)');
  const bump = writer.prepare('UPDATE counter SET n = n + 1');
  const timer = setInterval(() => bump.run(), 1);
  try {
    const result = await backupDatabase(dir, path.join(tempDir(), 'large.db'), { force: false });
    expect(result.bytes).toBeGreaterThan(32_000_000);
  } finally {
    clearInterval(timer);
    writer.close();
  }
});
