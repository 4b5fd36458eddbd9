/**
 * Fixtures for the access-control tests (docs/api.md, "Authentication"): servers with extra settings, API keys,
 * dashboard sessions (setup, invitations, workspaces) and a read-only look into the SQLite file.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { startServer, type ServerHandle, type StartOptions } from '../../src/main.js';
import { api, expectStatus, type Api, type ApiResponse } from './api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './server.js';

export const PASSWORD = 'correct horse battery staple';
/**
 * Written from docs/api.md ("Authentication"), not imported from src: a permission added or renamed there must show up
 * here.
 */
export const ALL_PERMISSIONS = [
  'channels:read',
  'channels:write',
  'inputs:write',
  'playout:write',
  'webhooks:manage',
  'keys:manage',
] as const;
export type Permission = (typeof ALL_PERMISSIONS)[number];

export interface AccessServer {
  url: string;
  key: string;
  dir: string;
  handle: ServerHandle;
  dispose(): Promise<void>;
}

/** A real server like startTestServer's, with extra environment (ONAIR_SESSION_TTL_S, ONAIR_BASE_URL…). */
export async function startServerWith(env: Record<string, string> = {}, options: StartOptions = {}) {
  const dir = makeDataDir();
  const handle = await startServer(loadConfig({ ...serverEnv(dir), ...env }), options);
  const server: AccessServer = {
    url: `http://127.0.0.1:${handle.port}`,
    key: TEST_KEY,
    dir,
    handle,
    async dispose() {
      await handle.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface KeyCreated {
  id: string;
  name: string;
  prefix: string;
  secret: string;
  permissions: string[];
  channelIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function createKey(call: Api, permissions: readonly string[], channelIds?: string[]): Promise<KeyCreated> {
  const body = { name: `key ${permissions.join(' ')}`, permissions, ...(channelIds ? { channelIds } : {}) };
  return expectStatus(await call<KeyCreated>('POST', '/v1/keys', body), 201);
}

/** `onair_session=…` from a Set-Cookie header. */
export function cookieOf(res: ApiResponse<unknown>): string {
  const match = /(?:^|,\s*)(onair_session=[^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  if (!match?.[1]) throw new Error(`no session cookie in ${JSON.stringify(res.body)}`);
  return match[1];
}

/** A dashboard client: the cookie, and the Origin a browser sends from the server's own pages. */
export function sessionApi(baseUrl: string, cookie: string, headers: Record<string, string> = {}): Api {
  const call = api(baseUrl, '');
  return (method, p, body, options = {}) =>
    call(method, p, body, {
      ...options,
      noAuth: true,
      headers: { cookie, origin: baseUrl, ...headers, ...options.headers },
    });
}

/** Anonymous calls (login, setup). */
export function anonymous(baseUrl: string): Api {
  const call = api(baseUrl, '');
  return (method, p, body, options = {}) => call(method, p, body, { ...options, noAuth: true });
}

export interface Member {
  userId: string;
  email: string;
  cookie: string;
  call: Api;
}

/** Completes first-run setup with the token the server printed; the owner is signed in. */
export async function setupOwner(
  server: AccessServer | { url: string; handle: ServerHandle },
  email = 'owner@example.com',
) {
  const token = server.handle.firstRun.setupToken;
  if (!token) throw new Error('the server issued no setup token');
  const res = await anonymous(server.url)<{ user: { id: string } }>('POST', '/v1/auth/setup', {
    token,
    email,
    password: PASSWORD,
    workspaceName: 'Studio A',
  });
  const cookie = cookieOf(res);
  const owner: Member = { userId: expectStatus(res, 201).user.id, email, cookie, call: sessionApi(server.url, cookie) };
  return owner;
}

/** The owner invites an email; the invitee follows the link, creates the account and is signed in. */
export async function addMember(baseUrl: string, owner: Api, email: string, role: string): Promise<Member> {
  const added = expectStatus(
    await owner<{ id: string; inviteUrl: string }>('POST', '/v1/members', { email, role }),
    201,
  );
  const token = new URL(added.inviteUrl).searchParams.get('token');
  const res = await anonymous(baseUrl)<{ user: { id: string } }>('POST', '/v1/auth/accept-invite', {
    token,
    password: PASSWORD,
  });
  const userId = expectStatus(res, 200).user.id;
  const cookie = cookieOf(res);
  return { userId, email, cookie, call: sessionApi(baseUrl, cookie) };
}

export async function login(baseUrl: string, email: string, password = PASSWORD): Promise<ApiResponse<unknown>> {
  return anonymous(baseUrl)('POST', '/v1/auth/login', { email, password });
}

/** The server admin allows (or forbids) an account to create workspaces (docs/api.md, "Server administration"). */
export async function allowWorkspaces(admin: Member, userId: string, allowed = true): Promise<void> {
  const path = `/v1/server/accounts/${userId}`;
  expectStatus(await admin.call('PATCH', path, { createsWorkspaces: allowed }), 200);
}

/** A second workspace owned by `owner` (who must be allowed to create one), with a `*` key of its own. */
export async function newWorkspace(baseUrl: string, owner: Member, name = 'Studio B') {
  const ws = expectStatus(await owner.call<{ id: string }>('POST', '/v1/workspaces', { name }), 201);
  const inB = sessionApi(baseUrl, owner.cookie, { 'x-workspace': ws.id });
  const key = await createKey(inB, ['*']);
  return { orgId: ws.id, session: inB, key: key.secret, call: api(baseUrl, key.secret) };
}

/** Rows from the server's SQLite file, read-only (WAL lets us read while it runs). */
export function queryDb<T>(dir: string, sql: string): T[] {
  const db = new Database(path.join(dir, 'onair.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Resolves at the given Date.now() value (waiting for wall time to pass, not for an event). */
export function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}
