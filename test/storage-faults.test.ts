/**
 * Storage faults made for real, under a real server process (docs/deploy.md, "When the disk refuses writes"): the
 * data directory is a file system of its own, mounted by the test, which then fills it up or turns it read-only
 * while the server runs.
 *
 * - A full disk: a small tmpfs, filled with a filler file, then PATCHed until the database cannot grow.
 * - A read-only file system: an ext4 image on a loop device, mounted `errors=remount-ro`, and an ext4 error
 *   raised through sysfs (`trigger_fs_error`): the kernel remounts it read-only under the open database, as it
 *   does when a disk fails. (Neither `mount -o remount,ro` nor a read-only bind mount can do that: the kernel
 *   refuses them while files are open for writing, and `chattr +i` does not stop writes through open
 *   descriptors.)
 *
 * What must hold in both: a refused write answers `503 unavailable` (problem+json, Retry-After), never 500, and
 * the process stays up; reads answer 200 with the last acknowledged values, including for a key used for the first
 * time (its lastUsedAt cannot be written); connected renderers stay connected and hold the last acknowledged state,
 * and a new one gets it in its snapshot; `/healthz` says `storage_failed`. Then the documented recovery (free
 * space; or repair the file system, then restart) brings every acknowledged write back and writes work again.
 *
 * A third test needs no mount: after a failed flush of the WAL (made as in storage-failure.test.ts), writes other
 * than ticks must be refused too, since SQLite would sync them on a disk that has already lost data once.
 *
 * Mounting needs root on Linux. Without it these tests are skipped with the reason, except under CI=true, where
 * they fail: CI runs as root and must run them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi, type TestContext } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { startServer as startInProcess } from '../src/main.js';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type ApiResponse,
  type Channel,
  type Event,
  type List,
} from './helpers/api.js';
import { breakFlusher } from './helpers/flusher-fd.js';
import { expectProblem } from './helpers/problem.js';
import { serverEnv, TEST_KEY } from './helpers/server.js';
import { spawnServer, type ChildServer } from './helpers/spawn-server.js';
import { RenderClient } from './helpers/ws-client.js';

const IN_CI = process.env.CI === 'true';
const TIMEOUT_MS = 120_000;

/** Undone in reverse order after each test, failures collected: a server is killed before its disk is unmounted. */
const cleanups: { what: string; run: () => void | Promise<void> }[] = [];

afterEach(async () => {
  const failures: string[] = [];
  for (const { what, run } of cleanups.splice(0).reverse()) {
    try {
      await run();
    } catch (err) {
      failures.push(`${what}: ${(err as Error).message}`);
    }
  }
  if (failures.length > 0) throw new Error(`cleanup failed:\n${failures.join('\n')}`);
});

function sh(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function errorText(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (e.stderr || e.message || String(err)).trim();
}

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push({ what: `remove ${dir}`, run: () => fs.rmSync(dir, { recursive: true, force: true }) });
  return dir;
}

/** Mounts, and unmounts after the test (lazily if something still holds it, so the next test is not blocked). */
function mount(args: string[], target: string): void {
  sh('mount', [...args, target]);
  cleanups.push({
    what: `umount ${target}`,
    run: () => {
      if (!mounted(target)) return;
      try {
        sh('umount', [target]);
      } catch (err) {
        sh('umount', ['-l', target]);
        throw new Error(`${target} was busy and was unmounted lazily: ${errorText(err)}`);
      }
    },
  });
}

function mounted(target: string): boolean {
  try {
    sh('findmnt', ['-n', target]);
    return true;
  } catch {
    return false;
  }
}

/** Why this machine cannot mount what `needs` says, or null when it can. */
function cannotMount(needs: 'a tmpfs' | 'an ext4 image on a loop device'): string | null {
  if (process.platform !== 'linux') return `mounting ${needs} needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return `mounting ${needs} needs root (this runs as uid ${process.getuid?.()})`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-mount-probe-'));
  try {
    if (needs === 'a tmpfs') {
      sh('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    } else {
      sh('e2fsck', ['-V']);
      const image = path.join(dir, 'probe.img');
      fs.mkdirSync(path.join(dir, 'mnt'));
      fs.writeFileSync(image, '');
      fs.truncateSync(image, 8 << 20);
      sh('mkfs.ext4', ['-q', '-F', image]);
      sh('mount', ['-o', 'loop', image, path.join(dir, 'mnt')]);
      const device = path.basename(sh('findmnt', ['-n', '-o', 'SOURCE', path.join(dir, 'mnt')]).trim());
      const trigger = `/sys/fs/ext4/${device}/trigger_fs_error`;
      const canTrigger = fs.existsSync(trigger);
      sh('umount', [path.join(dir, 'mnt')]);
      return canTrigger ? null : `the kernel has no ${trigger} to turn an ext4 read-only`;
    }
    sh('umount', [dir]);
    return null;
  } catch (err) {
    return `mounting ${needs} failed: ${errorText(err)}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Skips the test when mounting is impossible here, except in CI, where that is a failure. */
function requireMounting(ctx: TestContext, needs: 'a tmpfs' | 'an ext4 image on a loop device'): void {
  const problem = cannotMount(needs);
  if (!problem) return;
  if (IN_CI) throw new Error(`CI must run this storage-fault test, but ${problem}`);
  console.warn(`storage-faults: skipped "${ctx.task.name}": ${problem}`);
  ctx.skip(problem);
}

interface Server {
  child: ChildServer;
  call: Api;
  /** Every line the server logged to stdout since it started listening. */
  log: string[];
}

/**
 * onair in its own process with the production default ONAIR_DB_SYNC=full, killed after the test if still up. The
 * sealing key comes from the environment: these tests are about the database, and `secret.key`, written on the
 * first start without an fsync, does not survive an ext4 error that follows within seconds.
 */
async function startServer(dataDir: string): Promise<Server> {
  const child = await spawnServer({
    ...serverEnv(dataDir),
    ONAIR_LOG_LEVEL: 'info',
    ONAIR_DB_SYNC: 'full',
    ONAIR_SECRET_KEY: 'storage-faults-test-sealing-key-0123456789',
  });
  cleanups.push({ what: `kill the server on ${dataDir}`, run: async () => void (await child.kill('SIGKILL')) });
  const log: string[] = [];
  child.process.stdout?.on('data', (d: Buffer) => log.push(...d.toString().split('\n').filter(Boolean)));
  return { child, call: api(child.url, TEST_KEY), log };
}

function alive(server: Server): boolean {
  return server.child.process.exitCode === null && server.child.process.signalCode === null;
}

/** The log lines of answers the server could not map (500 internal): there must be none. */
function unhandled(server: Server): string[] {
  return server.log.filter((line) => line.includes('"unhandled error"') || line.includes('"status":500'));
}

async function connectRenderer(server: Server, channelId: string, token: string): Promise<RenderClient> {
  const renderer = await RenderClient.connect(server.child.url, channelId, { token });
  cleanups.push({ what: 'close a renderer', run: () => renderer.close() });
  await renderer.until(() => (renderer.synced ? true : undefined), 15_000, 'the snapshot');
  return renderer;
}

/** One acknowledged PATCH: the frame it is drawn in and the values it set. */
interface Acked {
  frame: number;
  scoreA: number;
  home: string;
}

/** The values of PATCH number `n`: `home` is long so that the database grows by a few KiB each time. */
function values(n: number): { scoreA: number; home: string } {
  return { scoreA: n, home: `${n}:`.padEnd(3000, String.fromCharCode(65 + (n % 26))) };
}

/** A channel on air, PATCHed by number, recording what was acknowledged and what was refused. */
class Show {
  readonly acked: Acked[] = [];
  readonly refused: number[] = [];
  private n = 0;

  constructor(
    private readonly server: () => Server,
    readonly channelId: string,
    readonly token: string,
  ) {}

  get last(): Acked {
    const last = this.acked.at(-1);
    if (!last) throw new Error('nothing acknowledged yet');
    return last;
  }

  /** A number for a write sent some other way, which the caller expects refused. */
  refuse(): number {
    this.refused.push(++this.n);
    return this.n;
  }

  /** One PATCH, retried while rate-limited (30 updates/s): 200 or a refusal. */
  async patch(): Promise<ApiResponse<unknown>> {
    for (;;) {
      const n = ++this.n;
      const res = await this.server().call<{ frame: number }>(
        'PATCH',
        `/v1/channels/${this.channelId}/inputs`,
        values(n),
      );
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (res.status === 200) this.acked.push({ frame: res.body.frame, ...values(n) });
      else this.refused.push(n);
      return res;
    }
  }

  /** PATCHes until one is refused; every answer before it is a 200. */
  async patchUntilRefused(max: number): Promise<ApiResponse<unknown>> {
    for (let i = 0; i < max; i++) {
      const res = await this.patch();
      if (res.status !== 200) return res;
    }
    throw new Error(`${max} PATCHes were all acknowledged: the storage never refused a write`);
  }
}

/** A refusal: 503 unavailable, problem+json, with Retry-After. */
function expectRefused(res: ApiResponse<unknown>, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(503);
  expectProblem(res, 503, 'unavailable');
  expect(Number(res.headers.get('retry-after')), `${what}: Retry-After`).toBeGreaterThanOrEqual(1);
}

/** What only a storage fault explains: /healthz is 503 storage_failed. */
async function expectStorageFailed(call: Api): Promise<void> {
  const health = expectProblem(await call('GET', '/healthz', undefined, { noAuth: true }), 503, 'unavailable');
  expect(health).toMatchObject({ health: 'storage_failed', storage: 'failed' });
}

/** Reads keep working while writes are refused: the state is the last acknowledged one. */
async function expectReadsWork(server: Server, show: Show, spareKey: string): Promise<void> {
  const { call } = server;
  const state = await getState(call, show.channelId);
  expect(state.inputs).toMatchObject({ scoreA: show.last.scoreA, home: show.last.home });
  expectStatus(await call('GET', `/v1/channels/${show.channelId}`), 200);
  expectStatus(await call('GET', '/v1/channels'), 200);
  expectStatus(await call('GET', `/v1/channels/${show.channelId}/scenes`), 200);
  expectStatus(await call('GET', `/v1/events?channelId=${show.channelId}&limit=5`), 200);
  // A key's first request writes its lastUsedAt, which the disk refuses: the read must still be answered.
  const spare = api(server.child.url, spareKey);
  expect((await getState(spare, show.channelId)).inputs).toMatchObject({ scoreA: show.last.scoreA });
}

/** Every kind of write is refused with 503, not 500, and none of them half-happens. */
async function expectWritesRefused(server: Server, show: Show): Promise<void> {
  const { call } = server;
  const channelsBefore = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.length;
  expectRefused(await show.patch(), 'PATCH inputs');
  expectRefused(await call('POST', '/v1/channels', { name: 'Refused' }), 'POST /v1/channels');
  expectRefused(
    await call('POST', '/v1/channels', { name: 'Refused too' }, { headers: { 'Idempotency-Key': 'refused-1' } }),
    'POST /v1/channels with an Idempotency-Key',
  );
  expectRefused(await call('PATCH', `/v1/channels/${show.channelId}`, { name: 'Renamed' }), 'PATCH channel');
  expectRefused(
    await call('POST', `/v1/channels/${show.channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    'POST scene',
  );
  expectRefused(await call('POST', '/v1/keys', { name: 'Refused', permissions: ['channels:read'] }), 'POST /v1/keys');
  // A control surface on the WebSocket gets the same refusal as an `error` reply, and stays connected.
  const control = await RenderClient.connect(server.child.url, show.channelId, { key: TEST_KEY });
  cleanups.push({ what: 'close a control client', run: () => control.close() });
  const n = show.refuse();
  control.send({ op: 'patch', id: 'refused', inputs: values(n) });
  expect(await control.reply('refused')).toMatchObject({ type: 'error', code: 'unavailable' });
  expect(control.readyState).toBe(WebSocket.OPEN);
  const channels = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data;
  expect(channels).toHaveLength(channelsBefore);
  expect(channels.find((c) => c.id === show.channelId)?.name).toBe('Main');
}

/** The renderer still holds the last acknowledged state, and no frame of a refused write ever reached it. */
async function expectRendererHoldsLastAcked(renderer: RenderClient, show: Show): Promise<void> {
  await renderer.until(() => (renderer.mirror && renderer.mirror.frame >= show.last.frame ? true : undefined));
  expect(renderer.readyState).toBe(WebSocket.OPEN);
  expect(renderer.mirror?.inputs).toMatchObject({ scoreA: show.last.scoreA, home: show.last.home });
  const scores = renderer.messages.flatMap((m) => (m.type === 'frame' ? [m.inputs?.scoreA] : []));
  for (const n of show.refused) expect(scores).not.toContain(n);
}

/** After a restart: every acknowledged PATCH is there, with its event; no refused one left a trace. */
async function expectNothingAcknowledgedLost(call: Api, show: Show): Promise<void> {
  const state = await getState(call, show.channelId);
  expect(state.inputs).toMatchObject({ scoreA: show.last.scoreA, home: show.last.home });
  const events: Event[] = [];
  for (let cursor = ''; ;) {
    const page = expectStatus(
      await call<List<Event>>(
        'GET',
        `/v1/events?channelId=${show.channelId}&type=channel.bind_updated&limit=100${cursor}`,
      ),
      200,
    );
    events.push(...page.data);
    if (!page.nextCursor) break;
    cursor = `&cursor=${page.nextCursor}`;
  }
  const logged = events.map((e) => ({ frame: e.data.frame, scoreA: (e.data.inputs as { scoreA?: number }).scoreA }));
  expect(logged).toEqual(show.acked.map((a) => ({ frame: a.frame, scoreA: a.scoreA })));
}

/** Writes to `file` until the file system has no room left; returns the bytes written. */
function fillUp(file: string): number {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          written += fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

/** A channel with a scoreboard on air, a renderer on it, a key never used yet, and a few acknowledged PATCHes. */
async function setUpShow(current: () => Server): Promise<{ show: Show; renderer: RenderClient; spareKey: string }> {
  const server = current();
  const { channelId, token } = await createChannelWithScoreboard(server.call);
  const show = new Show(current, channelId, token);
  const spare = expectStatus(
    await server.call<{ secret: string }>('POST', '/v1/keys', { name: 'First used later', permissions: ['*'] }),
    201,
  );
  for (let i = 0; i < 5; i++) expectStatus(await show.patch(), 200);
  const renderer = await connectRenderer(server, channelId, token);
  return { show, renderer, spareKey: spare.secret };
}

it(
  'a full disk: writes answer 503 while reads and renderers go on; freeing space resumes writes and nothing acknowledged is lost',
  async (ctx) => {
    requireMounting(ctx, 'a tmpfs');
    const dataDir = tempDir('onair-full-disk-');
    mount(['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs'], dataDir);
    let server = await startServer(dataDir);
    const { show, renderer, spareKey } = await setUpShow(() => server);

    // Something else fills the disk (a log, a core dump), all but the last 512 KiB: the PATCHes that still fit
    // are acknowledged, until the database cannot grow.
    const filler = path.join(dataDir, 'filler.bin');
    const filled = fillUp(filler);
    expect(filled).toBeGreaterThan(16 << 20);
    fs.truncateSync(filler, filled - (512 << 10));
    const before = show.acked.length;
    expectRefused(await show.patchUntilRefused(3000), 'the PATCH the full disk refused');
    expect(show.acked.length, 'PATCHes acknowledged in the last 512 KiB').toBeGreaterThan(before);
    expect(alive(server), 'the server is still running').toBe(true);

    await expectStorageFailed(server.call);
    await expectReadsWork(server, show, spareKey);
    await expectWritesRefused(server, show);
    await expectRendererHoldsLastAcked(renderer, show);
    const late = await connectRenderer(server, show.channelId, show.token);
    expect(late.mirror?.inputs).toMatchObject({ scoreA: show.last.scoreA, home: show.last.home });
    await expectStorageFailed(server.call);

    // Recovery, as docs/deploy.md says: free space. Writes resume by themselves within a few seconds.
    fs.rmSync(filler);
    await vi.waitFor(async () => expect((await server.call('GET', '/healthz')).status).toBe(200), {
      timeout: 10_000,
      interval: 200,
    });
    expectStatus(await show.patch(), 200);
    await renderer.until(() => (renderer.mirror?.inputs.scoreA === show.last.scoreA ? true : undefined));
    expectStatus(await server.call('POST', '/v1/channels', { name: 'After the fault' }), 201);
    expect(unhandled(server)).toEqual([]);

    // And a restart on the same data directory finds every acknowledged write.
    expect(await server.child.kill('SIGTERM')).toBe(0);
    server = await startServer(dataDir);
    await expectNothingAcknowledgedLost(server.call, show);
    const again = await connectRenderer(server, show.channelId, show.token);
    expect(again.mirror?.inputs).toMatchObject({ scoreA: show.last.scoreA });
    expectStatus(await show.patch(), 200);
    expect((await getState(api(server.child.url, spareKey), show.channelId)).inputs.scoreA).toBe(show.last.scoreA);
    expect(unhandled(server)).toEqual([]);
  },
  TIMEOUT_MS,
);

it(
  'a file system gone read-only: writes answer 503 while reads and renderers go on; repair and restart bring back every acknowledged write',
  async (ctx) => {
    requireMounting(ctx, 'an ext4 image on a loop device');
    const work = tempDir('onair-read-only-');
    const image = path.join(work, 'disk.img');
    const dataDir = path.join(work, 'data');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 64 << 20);
    sh('mkfs.ext4', ['-q', '-F', image]);
    mount(['-o', 'loop,errors=remount-ro', image], dataDir);
    let server = await startServer(dataDir);
    const { show, renderer, spareKey } = await setUpShow(() => server);

    // The disk fails: ext4 records an error and, as told by errors=remount-ro, goes read-only under the server.
    const device = path.basename(sh('findmnt', ['-n', '-o', 'SOURCE', dataDir]).trim());
    fs.writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, 'onair storage-faults test');
    expect(() => fs.writeFileSync(path.join(dataDir, 'probe'), 'x')).toThrow(/EROFS/);

    expectRefused(await show.patch(), 'the PATCH the read-only file system refused');
    expect(alive(server), 'the server is still running').toBe(true);
    await expectStorageFailed(server.call);
    await expectReadsWork(server, show, spareKey);
    await expectWritesRefused(server, show);
    await expectRendererHoldsLastAcked(renderer, show);
    const late = await connectRenderer(server, show.channelId, show.token);
    expect(late.mirror?.inputs).toMatchObject({ scoreA: show.last.scoreA, home: show.last.home });
    await expectStorageFailed(server.call);
    expect(unhandled(server)).toEqual([]);

    // Recovery, as docs/deploy.md says: stop the server, repair the file system, mount it again, start the server.
    // The stop drains as usual, although nothing can be written.
    expect(await server.child.kill('SIGTERM')).toBe(0);
    sh('umount', [dataDir]);
    try {
      sh('e2fsck', ['-f', '-y', image]);
    } catch (err) {
      // 1: errors were corrected, which is what is expected after an ext4 error.
      if ((err as { status?: number }).status !== 1) throw err;
    }
    sh('mount', ['-o', 'loop,errors=remount-ro', image, dataDir]);
    server = await startServer(dataDir);
    await expectNothingAcknowledgedLost(server.call, show);
    const again = await connectRenderer(server, show.channelId, show.token);
    expect(again.mirror?.inputs).toMatchObject({ scoreA: show.last.scoreA });
    expectStatus(await show.patch(), 200);
    expectStatus(await server.call('POST', '/v1/channels', { name: 'After the repair' }), 201);
    expect((await getState(api(server.child.url, spareKey), show.channelId)).inputs.scoreA).toBe(show.last.scoreA);
    expect(unhandled(server)).toEqual([]);
  },
  TIMEOUT_MS,
);

it('a failed flush: besides PATCHes, every other write is refused until a restart, and reads go on', async () => {
  // The flush fails for real, as in storage-failure.test.ts: the descriptor the store flushes the WAL through is
  // closed under it (this server runs in this process). Ticks are still drawn, unconfirmed; any other write that
  // SQLite would sync by itself must be refused too, since a later fsync that succeeds proves nothing.
  const dataDir = tempDir('onair-unflushed-');
  const start = () => startInProcess(loadConfig({ ...serverEnv(dataDir), ONAIR_DB_SYNC: 'full' }));
  let handle = await start();
  cleanups.push({ what: 'stop the in-process server', run: () => handle.stop() });
  let call = api(handle.baseUrl, TEST_KEY);
  const { channelId } = await createChannelWithScoreboard(call);
  const spare = expectStatus(
    await call<{ secret: string }>('POST', '/v1/keys', { name: 'First used later', permissions: ['*'] }),
    201,
  );
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);

  const restore = breakFlusher(path.join(dataDir, 'onair.db-wal'));
  cleanups.push({ what: 'close the /dev/null descriptor', run: restore });
  expectRefused(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 2 }), 'the unconfirmed PATCH');
  await expectStorageFailed(call);

  expectRefused(await call('POST', '/v1/channels', { name: 'Refused' }), 'POST /v1/channels');
  expectRefused(await call('PATCH', `/v1/channels/${channelId}`, { name: 'Renamed' }), 'PATCH channel');
  expectRefused(await call('POST', '/v1/keys', { name: 'Refused', permissions: ['channels:read'] }), 'POST /v1/keys');
  expect((await getState(api(handle.baseUrl, spare.secret), channelId)).inputs).toMatchObject({ scoreA: 2 });
  const channels = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data;
  expect(channels.map((c) => c.name)).toEqual(['Main']);

  await handle.stop();
  handle = await start();
  call = api(handle.baseUrl, TEST_KEY);
  expect(expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.map((c) => c.name)).toEqual(['Main']);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 3 }), 200);
  expectStatus(await call('POST', '/v1/channels', { name: 'After the restart' }), 201);
  expectStatus(await call('GET', '/healthz'), 200);
});
