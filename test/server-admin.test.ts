/**
 * Who may create workspaces (docs/api.md, "Server administration"; docs/deploy.md, "Who may do what"): only the
 * server admin (the account first-run setup made) by default; the admin allows and withdraws it account by account,
 * or for every account at once; nobody else reaches the server routes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, expectStatus, type List } from './helpers/api.js';
import { addMember, setupOwner, startServerWith, type AccessServer, type Member } from './helpers/access-fixtures.js';
import { expectProblem } from './helpers/problem.js';

interface ServerAccount {
  id: string;
  email: string;
  serverAdmin: boolean;
  createsWorkspaces: boolean;
  ownedWorkspaces: number;
}
interface MeUser {
  user: { serverAdmin: boolean; mayCreateWorkspaces: boolean };
}

let server: AccessServer;
let admin: Member;
let member: Member;

beforeEach(async () => {
  server = await startServerWith();
  admin = await setupOwner(server);
  member = await addMember(server.url, admin.call, 'member@example.com', 'operator');
});

afterEach(async () => {
  await server.dispose();
});

const createWorkspace = (who: Member, name = 'Studio B') => who.call('POST', '/v1/workspaces', { name });
const allow = (userId: string, createsWorkspaces: boolean) =>
  admin.call<ServerAccount>('PATCH', `/v1/server/accounts/${userId}`, { createsWorkspaces });
const everyone = (everyoneCreatesWorkspaces: boolean) =>
  admin.call<{ everyoneCreatesWorkspaces: boolean }>('PATCH', '/v1/server/settings', { everyoneCreatesWorkspaces });
const rightsOf = async (who: Member) => expectStatus(await who.call<MeUser>('GET', '/v1/me'), 200).user;

describe('creating workspaces', () => {
  it('is the admin’s alone by default; the admin allows an account, then withdraws it', async () => {
    expect(await rightsOf(admin)).toEqual(expect.objectContaining({ serverAdmin: true, mayCreateWorkspaces: true }));
    expect(await rightsOf(member)).toEqual(expect.objectContaining({ serverAdmin: false, mayCreateWorkspaces: false }));
    const refused = expectProblem(await createWorkspace(member), 403, 'forbidden');
    expect(refused.detail).toMatch(/server admin/);

    expect(expectStatus(await allow(member.userId, true), 200)).toMatchObject({ createsWorkspaces: true });
    expect((await rightsOf(member)).mayCreateWorkspaces).toBe(true);
    expect(expectStatus(await createWorkspace(member), 201)).toMatchObject({ name: 'Studio B', role: 'owner' });

    expect(expectStatus(await allow(member.userId, false), 200)).toMatchObject({ createsWorkspaces: false });
    expectProblem(await createWorkspace(member, 'Studio C'), 403, 'forbidden');
    expect((await rightsOf(member)).mayCreateWorkspaces).toBe(false);
    expectStatus(await createWorkspace(admin, 'Studio D'), 201);

    const accounts = expectStatus(await admin.call<List<ServerAccount>>('GET', '/v1/server/accounts'), 200).data;
    expect(accounts.map((a) => [a.email, a.serverAdmin, a.createsWorkspaces, a.ownedWorkspaces])).toEqual([
      ['owner@example.com', true, true, 2],
      ['member@example.com', false, false, 1],
    ]);
    expect(JSON.stringify(accounts)).not.toContain('argon2');
  });

  it('is every account’s while the server-wide setting says so, and no longer once it is off', async () => {
    expect(expectStatus(await admin.call('GET', '/v1/server/settings'), 200)).toEqual({
      everyoneCreatesWorkspaces: false,
    });
    expect(expectStatus(await everyone(true), 200)).toEqual({ everyoneCreatesWorkspaces: true });
    expect((await rightsOf(member)).mayCreateWorkspaces).toBe(true);
    expectStatus(await createWorkspace(member), 201);
    expectStatus(await everyone(false), 200);
    expectProblem(await createWorkspace(member, 'Studio C'), 403, 'forbidden');
  });
});

describe('the server routes', () => {
  it('answer only the server admin: not another owner, not a key, not an operator', async () => {
    const second = await addMember(server.url, admin.call, 'second-owner@example.com', 'owner');
    const key = api(server.url, server.key);
    for (const call of [second.call, member.call, key]) {
      expectProblem(await call('GET', '/v1/server/settings'), 403, 'forbidden');
      expectProblem(await call('PATCH', '/v1/server/settings', { everyoneCreatesWorkspaces: true }), 403, 'forbidden');
      expectProblem(await call('GET', '/v1/server/accounts'), 403, 'forbidden');
      const grant = { createsWorkspaces: true };
      expectProblem(await call('PATCH', `/v1/server/accounts/${member.userId}`, grant), 403, 'forbidden');
    }
    // A key is refused POST /v1/workspaces too: workspaces belong to accounts.
    expectProblem(await key('POST', '/v1/workspaces', { name: 'Scripted' }), 403, 'forbidden');
    expectProblem(await createWorkspace(second), 403, 'forbidden');
    expect(expectStatus(await admin.call('GET', '/v1/server/settings'), 200)).toEqual({
      everyoneCreatesWorkspaces: false,
    });
  });

  it('keep the admin’s own right, and name unknown accounts', async () => {
    expectProblem(await allow(admin.userId, false), 409, 'conflict');
    expectProblem(await allow('usr_0000000000000000000000000000000a', true), 404, 'not_found');
    expectProblem(await admin.call('PATCH', '/v1/server/settings', { everyone: true }), 400, 'invalid_request');
    expectStatus(await createWorkspace(admin), 201);
  });
});
