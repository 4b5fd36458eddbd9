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
import { json, listOf } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { InvitationCreated, InvitationOut, MemberIn, MemberOut, MemberRoleIn } from './schemas.js';

const pathParam = (name: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name, in: 'path' } });
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
  const p = c.get('principal');
  if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
  return p;
}

function checkChange(result: MemberChange, userId: string): void {
  if (result === 'not_member') throw new AppError('not_found', `User ${userId} is not a member of this workspace.`);
  if (result === 'last_owner') throw new AppError('conflict', 'A workspace keeps at least one owner.');
}

export function memberRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;

  app.openapi(
    route('owner', 'creates', {
      method: 'post',
      path: '/members',
      tags: ['Members'],
      summary: 'Invite someone by email (returns a one-time invite link)',
      request: { body: { required: true, ...json(MemberIn) } },
      responses: {
        201: { description: 'Invited', ...json(InvitationCreated) },
        409: { description: 'conflict: already a member' },
      },
    }),
    async (c) => {
      const { email, role } = c.req.valid('json');
      const { invitation, token } = await inviteMember(accounts, ownerOf(c).orgId, email, role);
      return c.json({ ...invitationView(invitation), inviteUrl: `${deps.baseUrl()}/invite?token=${token}` }, 201);
    },
  );

  app.openapi(
    route('owner', 'reads', {
      method: 'get',
      path: '/members',
      tags: ['Members'],
      summary: 'Members of this workspace',
      responses: { 200: { description: 'Members', ...json(listOf(MemberOut, 'MemberList')) } },
    }),
    async (c) => {
      const members = await accounts.membersOf(ownerOf(c).orgId);
      const data = members.map((m) => ({ userId: m.userId, email: m.email, role: m.role, createdAt: m.createdAt }));
      return c.json({ data, nextCursor: null }, 200);
    },
  );

  app.openapi(
    route('owner', 'creates', {
      method: 'patch',
      path: '/members/{userId}',
      tags: ['Members'],
      summary: "Change a member's role",
      request: { params: UserParam, body: { required: true, ...json(MemberRoleIn) } },
      responses: {
        200: { description: 'Changed', ...json(MemberOut) },
        409: { description: 'conflict: the last owner cannot be demoted' },
      },
    }),
    async (c) => {
      const { orgId } = ownerOf(c);
      const { userId } = c.req.valid('param');
      checkChange(await accounts.setMemberRole(orgId, userId, c.req.valid('json').role), userId);
      const m = (await accounts.membersOf(orgId)).find((x) => x.userId === userId);
      if (!m) throw new AppError('not_found', `User ${userId} is not a member of this workspace.`);
      return c.json({ userId, email: m.email, role: m.role, createdAt: m.createdAt }, 200);
    },
  );

  app.openapi(
    route('owner', 'creates', {
      method: 'delete',
      path: '/members/{userId}',
      tags: ['Members'],
      summary: 'Remove a member from this workspace',
      request: { params: UserParam },
      responses: { 204: { description: 'Removed' }, 409: { description: 'conflict: the last owner stays' } },
    }),
    async (c) => {
      const { userId } = c.req.valid('param');
      checkChange(await accounts.removeMember(ownerOf(c).orgId, userId), userId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    route('owner', 'reads', {
      method: 'get',
      path: '/invitations',
      tags: ['Members'],
      summary: 'Pending invitations of this workspace (their links are never shown again)',
      responses: { 200: { description: 'Invitations', ...json(listOf(InvitationOut, 'InvitationList')) } },
    }),
    async (c) => {
      const pending = await accounts.listInvitations(ownerOf(c).orgId, new Date().toISOString());
      return c.json({ data: pending.map(invitationView), nextCursor: null }, 200);
    },
  );

  app.openapi(
    route('owner', 'creates', {
      method: 'delete',
      path: '/invitations/{invitationId}',
      tags: ['Members'],
      summary: 'Withdraw a pending invitation (its link stops working)',
      request: { params: InvitationParam },
      responses: { 204: { description: 'Withdrawn' } },
    }),
    async (c) => {
      const { invitationId } = c.req.valid('param');
      if (!(await accounts.deleteInvitation(ownerOf(c).orgId, invitationId))) {
        throw new AppError('not_found', `No pending invitation ${invitationId} in this workspace.`);
      }
      return c.body(null, 204);
    },
  );
  return app;
}
