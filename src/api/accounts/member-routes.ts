/**
 * Members and invitations of the caller's workspace (docs/api.md, "Members and invitations"): owner only.
 * Adding someone is always an invitation by email, answered the same way whether or not the address has
 * an account; the invitee accepts it (src/auth/invitations.ts). A workspace always keeps an owner. Only a workspace
 * with an owner who may create workspaces invites (src/auth/server-rights.ts).
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { inviteMember } from '../../auth/invitations.js';
import type { Principal } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import type { InvitationRecord, MemberChange } from '../../store/account-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { accountRoutes } from '../route.js';
import { listOf, pathParam } from '../schemas/common.js';
import { sessionUser } from './workspace-routes.js';
import { InvitationCreated, InvitationOut, MemberIn, MemberOut, MemberRoleIn } from './schemas.js';

const UserParam = z.object({ userId: pathParam('userId') });
const InvitationParam = z.object({ invitationId: pathParam('invitationId') });

const invitationView = (i: InvitationRecord) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
});

function ownerOf(c: { get(k: 'principal'): Principal }) {
  return sessionUser(c.get('principal'));
}

function checkChange(result: MemberChange, userId: string): void {
  if (result === 'not_member') throw new AppError('not_found', `User ${userId} is not a member of this workspace.`);
  if (result === 'last_owner') throw new AppError('conflict', 'A workspace keeps at least one owner.');
}

export function memberRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRoutes(app, deps, ['Members']);
  const { accounts } = deps.store;
  const member = (userId: string, m: { email: string; role: string; createdAt: string }) => ({
    userId,
    email: m.email,
    role: m.role,
    createdAt: m.createdAt,
  });

  route(
    'owner',
    'creates',
    'post /members',
    {
      summary: 'Invite someone by email (returns a one-time invite link)',
      body: MemberIn,
      ok: [201, 'Invited', InvitationCreated],
      more: { 409: 'conflict: already a member' },
    },
    async (c, { body: { email, role } }) => {
      const { invitation, token } = await inviteMember(accounts, ownerOf(c).orgId, email, role);
      return c.json({ ...invitationView(invitation), inviteUrl: `${deps.baseUrl()}/invite?token=${token}` }, 201);
    },
  );
  route(
    'owner',
    'reads',
    'get /members',
    { summary: 'Members of this workspace', ok: [200, 'Members', listOf(MemberOut, 'MemberList')] },
    async (c) => {
      const members = await accounts.membersOf(ownerOf(c).orgId);
      return c.json({ data: members.map((m) => member(m.userId, m)), nextCursor: null }, 200);
    },
  );
  route(
    'owner',
    'creates',
    'patch /members/{userId}',
    {
      summary: "Change a member's role",
      params: UserParam,
      body: MemberRoleIn,
      ok: [200, 'Changed', MemberOut],
      more: { 409: 'conflict: the last owner cannot be demoted' },
    },
    async (c, { params: { userId }, body }) => {
      const { orgId } = ownerOf(c);
      checkChange(await accounts.setMemberRole(orgId, userId, body.role), userId);
      const m = (await accounts.membersOf(orgId)).find((x) => x.userId === userId);
      if (!m) throw new AppError('not_found', `User ${userId} is not a member of this workspace.`);
      return c.json(member(userId, m), 200);
    },
  );
  route(
    'owner',
    'creates',
    'delete /members/{userId}',
    {
      summary: 'Remove a member from this workspace',
      params: UserParam,
      ok: [204, 'Removed'],
      more: { 409: 'conflict: the last owner stays' },
    },
    async (c, { params: { userId } }) => {
      checkChange(await accounts.removeMember(ownerOf(c).orgId, userId), userId);
      return c.body(null, 204);
    },
  );
  route(
    'owner',
    'reads',
    'get /invitations',
    {
      summary: 'Pending invitations of this workspace (their links are never shown again)',
      ok: [200, 'Invitations', listOf(InvitationOut, 'InvitationList')],
    },
    async (c) => {
      const pending = await accounts.listInvitations(ownerOf(c).orgId, new Date().toISOString());
      return c.json({ data: pending.map(invitationView), nextCursor: null }, 200);
    },
  );
  route(
    'owner',
    'creates',
    'delete /invitations/{invitationId}',
    {
      summary: 'Withdraw a pending invitation (its link stops working)',
      params: InvitationParam,
      ok: [204, 'Withdrawn'],
    },
    async (c, { params: { invitationId } }) => {
      if (!(await accounts.deleteInvitation(ownerOf(c).orgId, invitationId))) {
        throw new AppError('not_found', `No pending invitation ${invitationId} in this workspace.`);
      }
      return c.body(null, 204);
    },
  );
  return app;
}
