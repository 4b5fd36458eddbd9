/**
 * The account attacks the security probe found (docs/api.md, "Members and invitations"), each replayed
 * against a real server: a cross-workspace takeover through an invitation, account discovery through
 * `POST /v1/members`, password changes that leave an attacker's session alive, and a throttle an
 * attacker could turn against the owner.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, type Api, type Channel, type List } from './helpers/api.js';
import {
  addMember,
  anonymous,
  cookieOf,
  login,
  newWorkspace,
  PASSWORD,
  sessionApi,
  setupOwner,
  startServerWith,
  type AccessServer,
  type Member,
} from './helpers/access-fixtures.js';
import { loginFrom } from './helpers/login-from.js';
import { expectProblem } from './helpers/problem.js';
import { resetTokenFor } from './helpers/reset-link.js';

let server: AccessServer;
let owner: Member;

beforeEach(async () => {
  server = await startServerWith();
  owner = await setupOwner(server);
});

afterEach(async () => {
  await server.dispose();
});

interface Invitation {
  id: string;
  email: string;
  role: string;
  inviteUrl: string;
  createdAt: string;
  expiresAt: string;
}

const invite = async (call: Api, email: string, role = 'viewer') =>
  expectStatus(await call<Invitation>('POST', '/v1/members', { email, role }), 201);
const tokenOf = (inv: Invitation) => new URL(inv.inviteUrl).searchParams.get('token')!;
const accept = (token: string, password?: string, call: Api = anonymous(server.url)) =>
  call<{ user: { id: string; email: string } }>('POST', '/v1/auth/accept-invite', {
    token,
    ...(password === undefined ? {} : { password }),
  });

describe('cross-workspace account takeover', () => {
  it('an invitation from a stranger workspace never reaches the account invited elsewhere', async () => {
    expectStatus(await owner.call('POST', '/v1/channels', { name: 'A secret' }), 201);
    const victimInvite = await invite(owner.call, 'victim@example.com', 'operator');
    // Any signed-in user, even a viewer of A, makes a workspace of their own and invites the victim there.
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    const own = await newWorkspace(server.url, attacker, 'Trap');
    const trap = await invite(own.session, 'victim@example.com', 'owner');
    expect(tokenOf(trap)).not.toBe(tokenOf(victimInvite));

    // Whoever opens the trap link creates an account for that address, joined to the trap only.
    const squat = await accept(tokenOf(trap), 'attacker password 1');
    expectStatus(squat, 200);
    const asVictim = sessionApi(server.url, cookieOf(squat));
    const workspaces = expectStatus(await asVictim<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(workspaces.map((w) => w.id)).toEqual([own.orgId]);
    const me = expectStatus(await owner.call<{ workspace: { id: string } }>('GET', '/v1/me'), 200);
    const inA = sessionApi(server.url, cookieOf(squat), { 'x-workspace': me.workspace.id });
    expectProblem(await inA('GET', '/v1/channels'), 404, 'not_found');

    // A's invitation is still pending and A's members do not include the address.
    const members = expectStatus(await owner.call<List<{ email: string }>>('GET', '/v1/members'), 200).data;
    expect(members.map((m) => m.email)).not.toContain('victim@example.com');
    const pending = expectStatus(await owner.call<List<{ id: string }>>('GET', '/v1/invitations'), 200).data;
    expect(pending.map((i) => i.id)).toContain(victimInvite.id);
    // The invitation for A cannot be used to set a password on the existing account.
    expectProblem(await accept(tokenOf(victimInvite), 'another password'), 409, 'conflict');
  });

  it('never touches an existing account: no new password, its sessions live on, no session for the link holder', async () => {
    const victim = await addMember(server.url, owner.call, 'victim@example.com', 'operator');
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    const own = await newWorkspace(server.url, attacker, 'Trap');
    const trap = await invite(own.session, 'victim@example.com', 'owner');

    const res = await accept(tokenOf(trap), 'attacker password 1');
    expectProblem(res, 409, 'conflict');
    expect(res.headers.get('set-cookie')).toBeNull();
    expectStatus(await victim.call('GET', '/v1/me'), 200);
    expectStatus(await login(server.url, victim.email, PASSWORD), 200);
    expectProblem(await login(server.url, victim.email, 'attacker password 1'), 401, 'unauthorized');
    const workspaces = expectStatus(await victim.call<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(workspaces.map((w) => w.id)).not.toContain(own.orgId);
  });

  it('answers POST /v1/members the same way whether or not the email has an account', async () => {
    await addMember(server.url, owner.call, 'known@example.com', 'viewer');
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    const own = await newWorkspace(server.url, attacker, 'Probe');
    const shape = (inv: Invitation) =>
      Object.fromEntries(Object.entries(inv).map(([k, v]) => [k, k === 'email' ? v : typeof v]));
    const known = await invite(own.session, 'known@example.com');
    const unknown = await invite(own.session, 'unknown@example.com');
    expect(shape(known)).toEqual({ ...shape(unknown), email: 'known@example.com' });
    expect(Object.keys(known).sort()).toEqual(['createdAt', 'email', 'expiresAt', 'id', 'inviteUrl', 'role']);
    // Inviting adds nobody: the existing user is not a member until they accept.
    const members = expectStatus(await own.session<List<{ email: string }>>('GET', '/v1/members'), 200).data;
    expect(members.map((m) => m.email)).toEqual(['attacker@example.com']);
  });
});

describe('an existing account accepts while signed in', () => {
  it('joins with the invitation role; the link works once; another signed-in account is refused', async () => {
    const other = await newWorkspace(server.url, owner, 'Other studio');
    const guest = await addMember(server.url, other.session, 'guest@example.com', 'viewer');
    const stranger = await addMember(server.url, other.session, 'stranger@example.com', 'viewer');
    const inv = await invite(owner.call, 'guest@example.com', 'operator');

    expectProblem(await accept(tokenOf(inv), undefined, stranger.call), 403, 'forbidden');
    expectProblem(await accept(tokenOf(inv)), 400, 'invalid_request');
    const joined = await accept(tokenOf(inv), undefined, guest.call);
    expect(expectStatus(joined, 200).user.email).toBe('guest@example.com');
    expect(joined.headers.get('set-cookie')).toBeNull();
    const ws = expectStatus(await guest.call<List<{ name: string; role: string }>>('GET', '/v1/workspaces'), 200);
    expect(ws.data).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Studio A', role: 'operator' })]));
    expectProblem(await accept(tokenOf(inv), undefined, guest.call), 401, 'unauthorized');
  });

  it('refuses a signed-in acceptance from another origin (CSRF)', async () => {
    const other = await newWorkspace(server.url, owner, 'Other studio');
    const guest = await addMember(server.url, other.session, 'guest@example.com', 'viewer');
    const inv = await invite(owner.call, 'guest@example.com', 'operator');
    const evil = sessionApi(server.url, guest.cookie, { origin: 'http://evil.example' });
    expectProblem(await accept(tokenOf(inv), undefined, evil), 403, 'forbidden');
    expectStatus(await accept(tokenOf(inv), undefined, guest.call), 200);
  });
});

describe('changing and resetting a password ends the other sessions', () => {
  it('a change keeps the session that made it and ends every other one', async () => {
    const other = cookieOf(await login(server.url, owner.email));
    const res = await owner.call('POST', '/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(res.status).toBe(204);
    expectStatus(await owner.call('GET', '/v1/me'), 200);
    expectProblem(await sessionApi(server.url, other)('GET', '/v1/me'), 401, 'unauthorized');
    expectProblem(await login(server.url, owner.email, PASSWORD), 401, 'unauthorized');
    expectStatus(await login(server.url, owner.email, 'a brand new password'), 200);
  });

  it('a wrong current password changes nothing', async () => {
    const res = await owner.call('POST', '/v1/auth/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new password',
    });
    expectProblem(res, 403, 'forbidden');
    expectStatus(await login(server.url, owner.email, PASSWORD), 200);
  });

  it('a reset link sets the password once and ends every session', async () => {
    const token = resetTokenFor(server.dir, server.url, owner.email);
    expect(token).not.toBeNull();
    expect(resetTokenFor(server.dir, server.url, 'nobody@example.com')).toBeNull();
    const res = await anonymous(server.url)('POST', '/v1/auth/reset-password', {
      token,
      password: 'reset password 99',
    });
    expectStatus(res, 200);
    expectProblem(await owner.call('GET', '/v1/me'), 401, 'unauthorized');
    expectStatus(await sessionApi(server.url, cookieOf(res))('GET', '/v1/me'), 200);
    expectStatus(await login(server.url, owner.email, 'reset password 99'), 200);
    const again = await anonymous(server.url)('POST', '/v1/auth/reset-password', { token, password: 'x'.repeat(12) });
    expectProblem(again, 401, 'unauthorized');
  });
});

describe('a throttle that cannot be turned against the owner', () => {
  it('after 50 failures from 10 addresses, an address that never failed still signs in', async () => {
    for (let a = 10; a < 20; a++) {
      for (let i = 0; i < 5; i++) {
        const res = await loginFrom(server.url, `127.0.0.${a}`, owner.email, `guess ${a}.${i}`);
        expect(res.status).toBe(401);
      }
    }
    const failed = await loginFrom(server.url, '127.0.0.10', owner.email, PASSWORD);
    expect(failed.status).toBe(429);
    expect((await loginFrom(server.url, '127.0.0.99', owner.email, PASSWORD)).status).toBe(200);
  });

  it('an address the owner signed in from before is not locked out by an attack, even after a typo', async () => {
    expect((await loginFrom(server.url, '127.0.0.5', owner.email, PASSWORD)).status).toBe(200);
    expect((await loginFrom(server.url, '127.0.0.5', owner.email, 'typo')).status).toBe(401);
    for (let a = 10; a < 20; a++)
      for (let i = 0; i < 5; i++) await loginFrom(server.url, `127.0.0.${a}`, owner.email, `guess ${a}.${i}`);
    expect((await loginFrom(server.url, '127.0.0.5', owner.email, PASSWORD)).status).toBe(200);
  });
});

describe('routes without a body refuse one', () => {
  it('rotates nothing on a body of [] and logs nobody out on one', async () => {
    const ch = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
    const rotate = `/v1/channels/${ch.id}/output-token`;
    for (const raw of ['[]', '{"token":"x"}', 'null', '1', '"{}"']) {
      expectProblem(await owner.call('POST', rotate, undefined, { raw }), 400, 'invalid_request');
    }
    const after = expectStatus(await owner.call<Channel>('GET', `/v1/channels/${ch.id}`), 200);
    expect(after.outputUrl).toBe(ch.outputUrl);
    expectProblem(await owner.call('POST', '/v1/auth/logout', []), 400, 'invalid_request');
    expectStatus(await owner.call('GET', '/v1/me'), 200);
    expect((await owner.call('POST', rotate, {})).status).toBe(200);
    expect((await owner.call('POST', '/v1/auth/logout')).status).toBe(204);
  });
});
