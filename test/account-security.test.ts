/**
 * The account attacks security reviews found (docs/api.md, "Members and invitations"), each replayed
 * against a real server: squatting an address through an invitation from a workspace of one's own, account
 * discovery through `POST /v1/members`, password changes and resets that leave an attacker's session or link
 * alive, and a throttle an attacker could turn against the owner.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, type Api, type Channel, type List } from './helpers/api.js';
import {
  addMember,
  allowWorkspaces,
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
  it('the audit’s squat fails: a viewer gets no workspace to invite from, and the real invitation works', async () => {
    expectStatus(await owner.call('POST', '/v1/channels', { name: 'A secret' }), 201);
    const victimInvite = await invite(owner.call, 'victim@example.com', 'operator');
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    const refused = expectProblem(await attacker.call('POST', '/v1/workspaces', { name: 'Trap' }), 403, 'forbidden');
    expect(refused.detail).toMatch(/server admin/);
    // The only workspace the attacker is in refuses it an invitation: it is no owner there.
    expectProblem(
      await attacker.call('POST', '/v1/members', { email: 'victim@example.com', role: 'owner' }),
      403,
      'forbidden',
    );
    const workspaces = expectStatus(await attacker.call<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(workspaces).toHaveLength(1);

    // The victim's own invitation still creates the victim's account, with the victim's password.
    const joined = await accept(tokenOf(victimInvite), 'victim password 1');
    expect(expectStatus(joined, 200).user.email).toBe('victim@example.com');
    expectStatus(await login(server.url, 'victim@example.com', 'victim password 1'), 200);
  });

  it('a workspace made while every account could is no trap once that is switched off', async () => {
    expectStatus(await owner.call('PATCH', '/v1/server/settings', { everyoneCreatesWorkspaces: true }), 200);
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    const own = await newWorkspace(server.url, attacker, 'Trap');
    const trap = await invite(own.session, 'victim@example.com', 'owner');
    expectStatus(await owner.call('PATCH', '/v1/server/settings', { everyoneCreatesWorkspaces: false }), 200);

    // The link the attacker holds creates no account, and says nothing about whether one exists.
    const squat = await accept(tokenOf(trap), 'attacker password 1');
    expectProblem(squat, 403, 'forbidden');
    expect(squat.headers.get('set-cookie')).toBeNull();
    expectProblem(
      await own.session('POST', '/v1/members', { email: 'other@example.com', role: 'viewer' }),
      403,
      'forbidden',
    );
    const victimInvite = await invite(owner.call, 'victim@example.com', 'operator');
    expectStatus(await accept(tokenOf(victimInvite), 'victim password 1'), 200);
  });

  it('withdrawing an account’s right stops its workspace’s links creating accounts; giving it back restores them', async () => {
    const maker = await addMember(server.url, owner.call, 'maker@example.com', 'viewer');
    await allowWorkspaces(owner, maker.userId);
    const own = await newWorkspace(server.url, maker, 'Studio B');
    const pending = await invite(own.session, 'crew@example.com', 'operator');
    await allowWorkspaces(owner, maker.userId, false);
    expectProblem(await accept(tokenOf(pending), 'crew password 12'), 403, 'forbidden');
    await allowWorkspaces(owner, maker.userId);
    expectStatus(await accept(tokenOf(pending), 'crew password 12'), 200);
  });

  it('a second workspace’s invitation never touches an existing account: password, sessions, workspaces', async () => {
    const victim = await addMember(server.url, owner.call, 'victim@example.com', 'operator');
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    await allowWorkspaces(owner, attacker.userId);
    const own = await newWorkspace(server.url, attacker, 'Trap');
    const trap = await invite(own.session, 'victim@example.com', 'owner');

    const res = await accept(tokenOf(trap), 'attacker password 1');
    expectProblem(res, 409, 'conflict');
    expect(res.headers.get('set-cookie')).toBeNull();
    // Nor can the attacker's own session take it: the invitation is for another address.
    expectProblem(await accept(tokenOf(trap), undefined, attacker.call), 403, 'forbidden');
    expectStatus(await victim.call('GET', '/v1/me'), 200);
    expectStatus(await login(server.url, victim.email, PASSWORD), 200);
    expectProblem(await login(server.url, victim.email, 'attacker password 1'), 401, 'unauthorized');
    const workspaces = expectStatus(await victim.call<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(workspaces.map((w) => w.id)).not.toContain(own.orgId);
    const members = expectStatus(await own.session<List<{ email: string }>>('GET', '/v1/members'), 200).data;
    expect(members.map((m) => m.email)).toEqual(['attacker@example.com']);
  });

  it('answers POST /v1/members the same way whether or not the email has an account', async () => {
    await addMember(server.url, owner.call, 'known@example.com', 'viewer');
    const attacker = await addMember(server.url, owner.call, 'attacker@example.com', 'viewer');
    await allowWorkspaces(owner, attacker.userId);
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

describe('a new password withdraws every reset link of the account', () => {
  const reset = (token: string | null, password: string) =>
    anonymous(server.url)('POST', '/v1/auth/reset-password', { token, password });

  it('a reset with one link withdraws the others; another account’s link still works', async () => {
    const member = await addMember(server.url, owner.call, 'member@example.com', 'viewer');
    const first = resetTokenFor(server.dir, server.url, owner.email);
    const second = resetTokenFor(server.dir, server.url, owner.email);
    const members = resetTokenFor(server.dir, server.url, member.email);
    expectStatus(await reset(second, 'reset password 99'), 200);
    expectProblem(await reset(first, 'stolen password 1'), 401, 'unauthorized');
    expectStatus(await login(server.url, owner.email, 'reset password 99'), 200);
    expectProblem(await login(server.url, owner.email, 'stolen password 1'), 401, 'unauthorized');
    expectStatus(await reset(members, 'member password 7'), 200);
  });

  it('a password change withdraws every outstanding reset link', async () => {
    const link = resetTokenFor(server.dir, server.url, owner.email);
    const change = { currentPassword: PASSWORD, newPassword: 'a brand new password' };
    expect((await owner.call('POST', '/v1/auth/password', change)).status).toBe(204);
    expectProblem(await reset(link, 'stolen password 1'), 401, 'unauthorized');
    expectStatus(await login(server.url, owner.email, 'a brand new password'), 200);
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
