/**
 * Operator accounts (docs/api.md, "Authentication"): the first-run setup link, login, the session cookie, logout,
 * expiry, CSRF on cookie-authenticated writes and the login throttle.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, expectStatus, type Api, type Channel, type List } from './helpers/api.js';
import {
  anonymous,
  cookieOf,
  login,
  PASSWORD,
  sessionApi,
  setupOwner,
  startServerWith,
  type AccessServer,
  sleepUntil,
  type Member,
} from './helpers/access-fixtures.js';
import { expectProblem } from './helpers/problem.js';
import { makeDataDir, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let owner: Member;
const extra: AccessServer[] = [];

beforeEach(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  for (const s of extra.splice(0)) await s.dispose();
  await server.dispose();
});

const setup = (token: string | null, password = PASSWORD) =>
  anonymous(server.url)('POST', '/v1/auth/setup', {
    token,
    email: 'owner@example.com',
    password,
    workspaceName: 'Studio A',
  });

describe('first run', () => {
  it('creates the owner of the first workspace with the one-time token, once', async () => {
    const token = server.handle.firstRun.setupToken;
    expect(token).toMatch(/^[A-Za-z0-9]{32,}$/);
    expectProblem(await setup('not-the-token'), 401, 'unauthorized');
    expectProblem(await setup(token, 'short'), 400, 'invalid_request');
    const res = await setup(token);
    expect(expectStatus(res, 201)).toMatchObject({ workspaces: [{ name: 'Studio A', role: 'owner' }] });
    type Me = { workspace: { id: string; name: string } };
    const me = expectStatus(await sessionApi(server.url, cookieOf(res))<Me>('GET', '/v1/me'), 200);
    const keyMe = expectStatus(await api(server.url, server.key)<Me>('GET', '/v1/me'), 200);
    expect(me).toMatchObject({ role: 'owner', user: { email: 'owner@example.com' }, workspace: keyMe.workspace });
    expectProblem(await setup(token), 401, 'unauthorized');
  });

  it('lets only one of several simultaneous setups with the token through', async () => {
    const token = server.handle.firstRun.setupToken;
    const results = await Promise.all(Array.from({ length: 5 }, () => setup(token)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 401, 401, 401, 401]);
  });

  it('issues a fresh token at each start while there is no owner, and none after', async () => {
    const first = server.handle.firstRun.setupToken;
    await server.restart();
    const second = server.handle.firstRun.setupToken;
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expectProblem(await setup(first), 401, 'unauthorized');
    expectStatus(await setup(second), 201);
    await server.restart();
    expect(server.handle.firstRun.setupToken).toBeNull();
  });

  // A server process of its own: 60 s for a busy machine.
  it('prints the setup link on stderr (never in the JSON logs), and the link works', async () => {
    const dir = makeDataDir();
    const env: NodeJS.ProcessEnv = { ...process.env, ONAIR_HOST: '127.0.0.1', ONAIR_PORT: '0' };
    Object.assign(env, { ONAIR_DATA_DIR: dir, ONAIR_LOG_LEVEL: 'debug', ONAIR_BOOTSTRAP_KEY: undefined });
    const root = path.resolve(import.meta.dirname, '..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts'], { cwd: root, env, stdio: 'pipe' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const link = await vi.waitFor(
        () => {
          const m = /(https?:\/\/\S+)\/setup\?token=([A-Za-z0-9]+)/.exec(stderr);
          if (!m) throw new Error(`no setup link yet: ${stderr}`);
          return { base: m[1]!, token: m[2]! };
        },
        { timeout: 20_000, interval: 50 },
      );
      const res = await anonymous(link.base)('POST', '/v1/auth/setup', {
        token: link.token,
        email: 'owner@example.com',
        password: PASSWORD,
        workspaceName: 'Spawned',
      });
      expectStatus(res, 201);
      expect(stderr.split(link.token)).toHaveLength(2);
      expect(stdout).toContain('"listening"');
      expect(stdout).not.toContain(link.token);
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('login and sessions', () => {
  beforeEach(async () => {
    owner = await setupOwner(server);
  });

  it('signs in with an HttpOnly, SameSite=Lax session cookie, not Secure over http', async () => {
    const res = await login(server.url, '  OWNER@example.com ');
    expect(expectStatus(res, 200)).toMatchObject({ user: { email: 'owner@example.com' } });
    const header = res.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^onair_session=[^;]{32,};/);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);
    expect(header).toMatch(/;\s*Path=\//);
    expect(header).toMatch(/;\s*Max-Age=86400/);
    expect(header).not.toMatch(/Secure/i);
    expectStatus(await sessionApi(server.url, cookieOf(res))('GET', '/v1/me'), 200);
  });

  it('refuses a wrong password and an unknown user with the same 401, in comparable time', async () => {
    const timed = async (email: string, password: string) => {
      const started = performance.now();
      const res = await login(server.url, email, password);
      return { res, ms: performance.now() - started };
    };
    // Timings on a busy machine are noisy: warm both paths up first, then compare medians of five interleaved
    // tries (five wrong passwords are as many as the throttle lets through before slowing the pair).
    expectStatus(await login(server.url, owner.email), 200);
    await timed('nobody-warm-up@example.com', PASSWORD);
    const wrong = [];
    const unknown = [];
    for (let i = 0; i < 5; i++) {
      wrong.push(await timed('owner@example.com', 'wrong password here'));
      unknown.push(await timed(`nobody${i}@example.com`, PASSWORD));
    }
    const a = expectProblem(wrong[0]!.res, 401, 'unauthorized');
    const b = expectProblem(unknown[0]!.res, 401, 'unauthorized');
    expect(b).toEqual(a);
    expect(wrong[0]!.res.headers.get('set-cookie')).toBeNull();
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
    // Both verify an argon2id hash; skipping it for unknown users would answer many times faster.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.3);
  });

  it('refuses a made-up session cookie', async () => {
    const forged = sessionApi(server.url, `onair_session=${'A'.repeat(43)}`);
    expectProblem(await forged('GET', '/v1/me'), 401, 'unauthorized');
  });

  it('ends the session on logout: 204, a cleared cookie, and the old cookie is refused', async () => {
    const cookie = cookieOf(await login(server.url, owner.email));
    const session = sessionApi(server.url, cookie);
    const res = await session('POST', '/v1/auth/logout');
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/^onair_session=;.*Max-Age=0/);
    expectProblem(await session('GET', '/v1/me'), 401, 'unauthorized');
    expectStatus(await owner.call('GET', '/v1/me'), 200); // other sessions live on
  });

  it('expires a session after ONAIR_SESSION_TTL_S', async () => {
    const short = await startServerWith({ ONAIR_SESSION_TTL_S: '1' });
    extra.push(short);
    const res = await setupOwner(short);
    const started = Date.now();
    expectStatus(await res.call('GET', '/v1/me'), 200);
    await vi.waitFor(async () => expectProblem(await res.call('GET', '/v1/me'), 401, 'unauthorized'), {
      timeout: 15_000,
      interval: 100,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  });

  it('adds Secure to the cookie behind an https base URL', async () => {
    const tls = await startServerWith({ ONAIR_BASE_URL: 'https://graphics.example.com' });
    extra.push(tls);
    const res = await anonymous(tls.url)('POST', '/v1/auth/setup', {
      token: tls.handle.firstRun.setupToken,
      email: 'owner@example.com',
      password: PASSWORD,
      workspaceName: 'TLS',
    });
    expectStatus(res, 201);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });
});

describe('CSRF on cookie-authenticated writes', () => {
  let channelId: string;
  beforeEach(async () => {
    owner = await setupOwner(server);
    channelId = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201).id;
  });
  const countChannels = async (call: Api) =>
    expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.length;

  it('refuses writes from another origin or a cross-site fetch, and changes nothing', async () => {
    const attacks: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${server.port + 1}` },
      { origin: server.url, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attacks) {
      const evil = sessionApi(server.url, owner.cookie, headers);
      const label = JSON.stringify(headers);
      expectProblem(await evil('POST', '/v1/channels', { name: 'Evil' }), 403, 'forbidden');
      expectProblem(await evil('PATCH', `/v1/channels/${channelId}`, { name: 'Evil' }), 403, 'forbidden');
      expectProblem(await evil('DELETE', `/v1/channels/${channelId}`), 403, 'forbidden');
      expect((await evil('POST', '/v1/workspaces', { name: 'Evil' })).status, label).toBe(403);
    }
    const channels = expectStatus(await owner.call<List<Channel>>('GET', '/v1/channels'), 200).data;
    expect(channels.map((c) => c.name)).toEqual(['Main']);
  });

  it('refuses a logout from another origin: a page on another port cannot sign the operator out', async () => {
    const attacks: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${server.port + 1}` },
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attacks) {
      const res = await sessionApi(server.url, owner.cookie, headers)('POST', '/v1/auth/logout');
      expectProblem(res, 403, 'forbidden');
      expect(res.headers.get('set-cookie'), JSON.stringify(headers)).toBeNull();
    }
    expectStatus(await owner.call('GET', '/v1/me'), 200);
    expect((await owner.call('POST', '/v1/auth/logout')).status).toBe(204);
    expectProblem(await owner.call('GET', '/v1/me'), 401, 'unauthorized');
  });

  it('admits same-origin writes and reads from anywhere', async () => {
    expectStatus(await owner.call('POST', '/v1/channels', { name: 'Second' }), 201);
    const sameOrigin = sessionApi(server.url, owner.cookie, { 'sec-fetch-site': 'same-origin' });
    expectStatus(await sameOrigin('POST', '/v1/channels', { name: 'Third' }), 201);
    const evilRead = sessionApi(server.url, owner.cookie, { origin: 'http://evil.example' });
    expect(await countChannels(evilRead)).toBe(3);
  });

  it('does not apply to API keys, which a browser never sends on its own', async () => {
    const key = api(server.url, server.key);
    const res = await key('POST', '/v1/channels', { name: 'Scripted' }, { headers: { origin: 'http://evil.example' } });
    expectStatus(res, 201);
  });
});

describe('login throttle', () => {
  beforeEach(async () => {
    owner = await setupOwner(server);
  });

  it('never counts successful logins', async () => {
    for (let i = 0; i < 25; i++) expectStatus(await login(server.url, owner.email), 200);
  });

  it('slows an (account, address) pair after 5 failures, with a Retry-After that is enough', async () => {
    for (let i = 0; i < 5; i++)
      expectProblem(await login(server.url, owner.email, `guess number ${i}`), 401, 'unauthorized');
    for (const email of [owner.email, 'Owner@Example.com']) {
      const res = await login(server.url, email, PASSWORD);
      expectProblem(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBe(1);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // Another account is not slowed by the guessing.
    expectProblem(await login(server.url, 'someone@example.com', 'whatever1234'), 401, 'unauthorized');
    await sleepUntil(Date.now() + 1_000);
    expectStatus(await login(server.url, owner.email), 200);
    for (let i = 0; i < 5; i++) expectProblem(await login(server.url, owner.email, `again ${i}`), 401, 'unauthorized');
  });
});
