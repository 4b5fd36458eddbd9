/**
 * Production without tsx at run time: `npm run build` compiles src/ (no tests) into dist/, and
 * `node dist/cli.js` finds everything it serves from the repository: the API reference's files in
 * node_modules, public/, and the renderer's bundle in renderer/dist. The test leaves dist/ as it found it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { api, createChannelWithScoreboard } from './helpers/api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { spawnServer, type ChildServer } from './helpers/spawn-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
const hadDist = fs.existsSync(DIST);
let child: ChildServer | undefined;
let dir: string | undefined;

afterEach(async () => {
  await child?.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (!hadDist) fs.rmSync(DIST, { recursive: true, force: true });
});

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' });
}

it('npm run build emits dist/, and node dist/cli.js serves the API, its pages and the output page', async () => {
  const started = performance.now();
  // About 40 s with both cores busy, 111 s seen with twice that load: 240 s before it counts as stuck.
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, timeout: 240_000 });
  const buildMs = performance.now() - started;
  console.log(`npm run build took ${Math.round(buildMs)} ms`);
  expect(filesUnder(DIST)).toContain('cli.js');
  expect(filesUnder(DIST).filter((f) => /\.(test|contract|fixtures)\.js$/.test(f))).toEqual([]);
  // Nor test support: what reads the test Postgres and Redis (test/helpers/services.ts) stays out of the build.
  const emitted = filesUnder(DIST).filter((f) => f.endsWith('.js'));
  expect(emitted.filter((f) => fs.readFileSync(path.join(DIST, f), 'utf8').includes('ONAIR_TEST_'))).toEqual([]);

  dir = makeDataDir();
  child = await spawnServer({ ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info' }, { args: ['dist/cli.js'] });

  const health = await fetch(`${child.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ready' });
  expect((await fetch(`${child.url}/docs`)).status).toBe(200);
  expect((await fetch(`${child.url}/`)).status).toBe(200);
  const { channelId, token } = await createChannelWithScoreboard(api(child.url, TEST_KEY));
  const page = await fetch(`${child.url}/render/${channelId}?token=${token}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/render-[A-Z0-9]+\.js/i);
  expect(await child.kill('SIGTERM')).toBe(0);
}, 300_000);
