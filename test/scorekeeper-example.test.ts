/**
 * examples/scorekeeper.ts against a real server (docs/incoming-hooks.md): through a hook with the mapping its
 * header shows (the README's walk-through creates the same one), the example plays a game to its end and the
 * channel holds the final score it printed and the clock the console shows at full time; posted to a URL with a
 * wrong token, it stops with the server's 404.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type Event,
  type List,
} from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The hook body in the first `-d '…'` after `from` in a file: the mapping it tells its reader to create. */
function hookBodyIn(file: string, from: string): { mapping: Record<string, string> } {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const body = /-d '([^']+)'/.exec(text.slice(text.indexOf(from)))?.[1];
  expect(body, `${file}: no -d '…' after ${from}`).toBeDefined();
  return JSON.parse(body!.replace(/\n\s*\*/g, '')) as { mapping: Record<string, string> };
}

/** The mapping examples/scorekeeper.ts tells its reader to create (its header's curl). */
const MAPPING = hookBodyIn('examples/scorekeeper.ts', 'incoming-hooks').mapping;

it('the README walk-through creates the hook with the mapping the example shows', () => {
  expect(hookBodyIn('README.md', '# 8. ').mapping).toEqual(MAPPING);
});

let server: TestServer;
let call: Api;
let channelId: string;
let hookUrl: string;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId } = await createChannelWithScoreboard(call));
  const created = await call<{ url: string }>('POST', `/v1/channels/${channelId}/incoming-hooks`, {
    name: 'Scorekeeper',
    mapping: MAPPING,
  });
  hookUrl = expectStatus(created, 201).url;
});

afterEach(async () => {
  await server.dispose();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the example to its end (killed after `timeoutMs`) and returns what it printed. */
function runExample(args: string[], timeoutMs = 15_000): Promise<Run> {
  const env = { ...process.env };
  delete env.ONAIR_HOOK_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/scorekeeper.ts', ...args], {
    cwd: ROOT,
    env,
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

it('plays a game through the hook: the channel ends with the final score it printed', async () => {
  const run = await runExample([hookUrl, '--speed', '20', '--quarters', '4']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);

  // Every post answered: one line each, tip-off + 7 plays + buzzer a quarter; every field it posts is mapped.
  const posts = run.stdout.split('\n').filter((line) => line.includes('-> applied'));
  expect(posts).toHaveLength(4 * 9);
  expect(posts.filter((line) => !line.endsWith('ignored (nothing)'))).toEqual([]);
  const final = /^Final: (.+) (\d+), (.+) (\d+)$/m.exec(run.stdout);
  expect(final, run.stdout).not.toBeNull();
  const [, home, scoreA, away, scoreB] = final!;

  const state = await getState(call, channelId);
  expect(state.inputs).toMatchObject({ home, away, scoreA: Number(scoreA), scoreB: Number(scoreB), period: 4 });
  // Full time: the on-air clock shows what the console's last post says, 00:00 and stopped.
  expect(posts.at(-1)).toMatch(/^Q4 00:00 stopped/);
  expect(state.clocks.gameClock).toMatchObject({ running: false, ms: 0 });

  const query = `?channelId=${channelId}&type=channel.bind_updated&limit=100`;
  const events = expectStatus(await call<List<Event>>('GET', `/v1/events${query}`), 200);
  expect(events.data.some((e) => e.data.source === 'incoming_webhook')).toBe(true);
});

it('stops with the 404 when the hook URL has a wrong token', async () => {
  const url = new URL(hookUrl);
  url.pathname = url.pathname.replace(/[^/]+$/, 'x'.repeat(32));
  const run = await runExample([url.href, '--speed', '20']);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/404/);
  expect(run.stderr).toMatch(/not[ _]found/i);
  expect(run.stdout).not.toMatch(/-> applied/);
});
