/**
 * Roles, members and workspaces (docs/api.md, "Authentication"): owner / operator / viewer walked over the route table;
 * account routes for sessions and owners only; invitations; and password hashes that never appear in a
 * response or a log line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { api, createChannelWithScoreboard, expectStatus, type Api, type List } from './helpers/api.js';
import {
  addMember,
  anonymous,
  createKey,
  login,
  PASSWORD,
  queryDb,
  sessionApi,
  setupOwner,
  startServerWith,
  type AccessServer,
  type Member,
} from './helpers/access-fixtures.js';
import {
  bodyFor,
  fillPath,
  operations,
  incomingHookOf,
  sourceOf,
  showOf,
  WEBHOOK_ENV,
  WEBHOOK_URL,
  type Ids,
  type Operation,
} from './helpers/access-openapi.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { ografZip, uploadZip } from './helpers/ograf-packages.js';
import { expectProblem } from './helpers/problem.js';

const ROLE_GRANTS: Record<string, string[]> = {
  operator: ['channels:read', 'inputs:write', 'playout:write'],
  viewer: ['channels:read'],
};

let server: AccessServer;
let logLines: string[];
let owner: Member;
let ids: Ids;

beforeEach(async () => {
  logLines = [];
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  server = await startServerWith({ ONAIR_LOG_LEVEL: 'debug', ...WEBHOOK_ENV }, { logger });
  owner = await setupOwner(server);
  const { channelId, sceneId } = await createChannelWithScoreboard(owner.call);
  ids = {
    id: channelId,
    sceneId,
    keyId: (await createKey(owner.call, ['channels:read'])).id,
    invitationId: 'inv_0000000000000000000000000000000a',
    webhookId: expectStatus(await owner.call<{ id: string }>('POST', '/v1/webhooks', { url: WEBHOOK_URL }), 201).id,
    ...(await incomingHookOf(owner.call, channelId)),
    ...(await sourceOf(owner.call, channelId)),
    ...(await showOf(owner.call, channelId, sceneId)),
    assetId: String((await uploadForm(server.url, server.key, solidPng(1, 1, [0, 0, 0, 255]), 'dot.png')).body.id),
    graphicId: (await uploadZip(server.url, server.key, ografZip())).body.data[0]!.id,
  };
});

afterEach(async () => {
  await server.dispose();
});

const send = (call: Api, op: Operation, target: Ids = ids) =>
  call(op.method, fillPath(op, target), bodyFor(op, target));

describe('roles', () => {
  it.each(['operator', 'viewer'])('%s: 403 on every route needing a permission outside the role', async (role) => {
    const member = await addMember(server.url, owner.call, `${role}@example.com`, role);
    const ops = (await operations(server.url)).filter((op) => String(op.permission).includes(':'));
    const granted = ROLE_GRANTS[role]!;
    for (const op of ops.filter((o) => !granted.includes(String(o.permission)))) {
      const problem = expectProblem(await send(member.call, op), 403, 'forbidden');
      expect(problem.permission, op.name).toBe(op.permission);
    }
    for (const op of ops.filter((o) => o.method === 'GET' && granted.includes(String(o.permission)))) {
      expect((await send(member.call, op)).status, op.name).toBe(200);
    }
  });

  it('lets an operator change inputs and playout, and a viewer only read', async () => {
    const operator = await addMember(server.url, owner.call, 'op@example.com', 'operator');
    const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');
    expectStatus(await operator.call('PATCH', `/v1/channels/${ids.id}/inputs`, { scoreA: 1 }), 200);
    expectStatus(await operator.call('POST', `/v1/channels/${ids.id}/clear`), 200);
    expectProblem(await viewer.call('PATCH', `/v1/channels/${ids.id}/inputs`, { scoreA: 2 }), 403, 'forbidden');
    const me = expectStatus(await viewer.call<{ role: string; permissions: string[] }>('GET', '/v1/me'), 200);
    expect(me).toMatchObject({ role: 'viewer', permissions: ['channels:read'] });
  });
});

describe('account routes', () => {
  it('keeps session routes from API keys, and creator, owner and admin routes from keys and the rest', async () => {
    const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');
    const operator = await addMember(server.url, owner.call, 'op@example.com', 'operator');
    const star = api(server.url, server.key);
    const target = { ...ids, userId: viewer.userId };
    const ops = await operations(server.url);
    const access = (...levels: string[]) => ops.filter((o) => levels.includes(String(o.permission)));
    for (const op of access('session', 'creator', 'owner', 'admin')) {
      expectProblem(await send(star, op, target), 403, 'forbidden');
    }
    for (const op of access('creator', 'owner', 'admin')) {
      expectProblem(await send(operator.call, op, target), 403, 'forbidden');
      expectProblem(await send(viewer.call, op, target), 403, 'forbidden');
    }
    for (const op of ops.filter((o) => o.permission === 'authenticated')) {
      for (const call of [star, operator.call, viewer.call]) expect((await send(call, op)).status, op.name).toBe(200);
    }
    const members = expectStatus(await owner.call<List<{ userId: string }>>('GET', '/v1/members'), 200).data;
    expect(members).toHaveLength(3);
  });
});

describe('members', () => {
  it('invites with a one-time link; the invitee creates the account; removal ends their access', async () => {
    const added = expectStatus(
      await owner.call<{ id: string; inviteUrl: string }>('POST', '/v1/members', {
        email: 'new@example.com',
        role: 'operator',
      }),
      201,
    );
    const token = new URL(added.inviteUrl).searchParams.get('token')!;
    const list = await owner.call('GET', '/v1/members');
    expect(JSON.stringify(list.body)).not.toContain(token);
    const pending = expectStatus(await owner.call<List<{ id: string }>>('GET', '/v1/invitations'), 200).data;
    expect(pending.map((i) => i.id)).toEqual([added.id]);
    expect(JSON.stringify(pending)).not.toContain(token);
    const accepted = await anonymous(server.url)<{ user: { id: string } }>('POST', '/v1/auth/accept-invite', {
      token,
      password: PASSWORD,
    });
    const userId = expectStatus(accepted, 200).user.id;
    expectProblem(
      await anonymous(server.url)('POST', '/v1/auth/accept-invite', { token, password: PASSWORD }),
      401,
      'unauthorized',
    );
    expect(expectStatus(await owner.call<List<unknown>>('GET', '/v1/invitations'), 200).data).toEqual([]);
    const res = await login(server.url, 'new@example.com');
    const member = sessionApi(server.url, (res.headers.get('set-cookie') ?? '').split(';')[0]!);
    expectStatus(await member('GET', `/v1/channels/${ids.id}/state`), 200);
    expectStatus(await owner.call('DELETE', `/v1/members/${userId}`), 204);
    const after = await member('GET', `/v1/channels/${ids.id}/state`);
    expect([403, 404], JSON.stringify(after.body)).toContain(after.status);
  });

  it('withdraws a pending invitation: its link stops working', async () => {
    const added = expectStatus(
      await owner.call<{ id: string; inviteUrl: string }>('POST', '/v1/members', {
        email: 'x@example.com',
        role: 'viewer',
      }),
      201,
    );
    expectStatus(await owner.call('DELETE', `/v1/invitations/${added.id}`), 204);
    expectProblem(await owner.call('DELETE', `/v1/invitations/${added.id}`), 404, 'not_found');
    const token = new URL(added.inviteUrl).searchParams.get('token');
    expectProblem(
      await anonymous(server.url)('POST', '/v1/auth/accept-invite', { token, password: PASSWORD }),
      401,
      'unauthorized',
    );
  });

  it('changes a role with PATCH and refuses to invite someone who is already a member', async () => {
    const op = await addMember(server.url, owner.call, 'op@example.com', 'operator');
    const changed = await owner.call('PATCH', `/v1/members/${op.userId}`, { role: 'viewer' });
    expect(expectStatus(changed, 200)).toMatchObject({ userId: op.userId, role: 'viewer' });
    expect(expectStatus(await op.call<{ role: string }>('GET', '/v1/me'), 200).role).toBe('viewer');
    expectProblem(await owner.call('POST', '/v1/members', { email: 'OP@example.com', role: 'owner' }), 409, 'conflict');
    expectProblem(await owner.call('PATCH', '/v1/members/usr_nobody', { role: 'viewer' }), 404, 'not_found');
  });

  it('keeps the last owner, whatever the route', async () => {
    expectProblem(await owner.call('DELETE', `/v1/members/${owner.userId}`), 409, 'conflict');
    expectProblem(await owner.call('PATCH', `/v1/members/${owner.userId}`, { role: 'viewer' }), 409, 'conflict');
    expectProblem(await owner.call('POST', '/v1/members', { email: owner.email, role: 'viewer' }), 409, 'conflict');
    const me = expectStatus(await owner.call<{ role: string }>('GET', '/v1/me'), 200);
    expect(me.role).toBe('owner');
  });

  it('lets one of two owners step down, but never both at once', async () => {
    const second = await addMember(server.url, owner.call, 'second@example.com', 'owner');
    const [a, b] = await Promise.all([
      owner.call('PATCH', `/v1/members/${owner.userId}`, { role: 'viewer' }),
      second.call('PATCH', `/v1/members/${second.userId}`, { role: 'viewer' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const members = queryDb<{ role: string }>(server.dir, `SELECT role FROM memberships WHERE role = 'owner'`);
    expect(members).toHaveLength(1);
  });
});

describe('workspaces', () => {
  it('creates a workspace owned by the caller, picked with X-Workspace', async () => {
    const created = expectStatus(
      await owner.call<{ id: string; role: string }>('POST', '/v1/workspaces', { name: 'B' }),
      201,
    );
    expect(created.role).toBe('owner');
    const list = expectStatus(await owner.call<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(list.map((w) => w.id)).toContain(created.id);
    const inB = sessionApi(server.url, owner.cookie, { 'x-workspace': created.id });
    expect(expectStatus(await inB<List<unknown>>('GET', '/v1/channels'), 200).data).toEqual([]);
    const me = expectStatus(await inB<{ workspace: { id: string } }>('GET', '/v1/me'), 200);
    expect(me.workspace.id).toBe(created.id);
  });
});

describe('password hashes', () => {
  it('are argon2id and never appear in any response or log line', async () => {
    const seen: string[] = [];
    const record = async (res: Promise<{ status: number; headers: Headers; body: unknown }>) => {
      const r = await res;
      seen.push(JSON.stringify(r.body), JSON.stringify([...r.headers]));
      return r;
    };
    const operator = await addMember(server.url, owner.call, 'op@example.com', 'operator');
    await record(login(server.url, owner.email));
    await record(login(server.url, owner.email, 'wrong password!'));
    await record(login(server.url, 'nobody@example.com'));
    for (const p of ['/v1/me', '/v1/members', '/v1/workspaces', '/v1/server/accounts'])
      await record(owner.call('GET', p));
    await record(owner.call('POST', '/v1/members', { email: 'op@example.com', role: 'viewer' }));
    await record(operator.call('GET', '/v1/me'));
    await record(operator.call('GET', '/v1/members'));
    await record(owner.call('POST', '/v1/auth/logout'));

    const hashes = queryDb<{ password_hash: string | null }>(server.dir, 'SELECT password_hash FROM users');
    expect(hashes).toHaveLength(2);
    for (const { password_hash } of hashes) expect(password_hash).toMatch(/^\$argon2id\$/);
    expect(logLines.length).toBeGreaterThan(10);
    const everything = [...seen, ...logLines].join('\n');
    for (const { password_hash } of hashes) expect(everything).not.toContain(password_hash!.split('$').pop());
    expect(everything).not.toContain('$argon2');
    expect(everything).not.toContain(PASSWORD);
  });
});
