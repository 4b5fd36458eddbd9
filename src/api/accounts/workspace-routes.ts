/** Workspaces and their members (API.md §2): session users only; members are managed by the owner. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { addMember } from '../../auth/accounts.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { json } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { MemberCreated, MemberIn, MemberOut, WorkspaceIn, WorkspaceOut } from './schemas.js';
import { userWorkspaces } from './workspace-view.js';

const list = <T extends z.ZodType>(item: T) => json(z.object({ data: z.array(item), nextCursor: z.null() }));
const UserParam = z.object({
  userId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'userId', in: 'path' } }),
});

export function workspaceRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;
  const userOf = (c: { get(k: 'principal'): import('../../auth/permissions.js').Principal }) => {
    const p = c.get('principal');
    if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
    return p;
  };

  app.openapi(
    route('session', 'creates', {
      method: 'post',
      path: '/workspaces',
      tags: ['Accounts'],
      summary: 'Create a workspace owned by you',
      request: { body: { required: true, ...json(WorkspaceIn) } },
      responses: { 201: { description: 'Created', ...json(WorkspaceOut) } },
    }),
    async (c) => {
      const p = userOf(c);
      const org = { id: newId('org'), name: c.req.valid('json').name, createdAt: new Date().toISOString() };
      await accounts.insertOrg(org);
      await accounts.upsertMembership({ userId: p.userId, orgId: org.id, role: 'owner', createdAt: org.createdAt });
      return c.json({ ...org, role: 'owner' as const }, 201);
    },
  );

  app.openapi(
    route('session', 'reads', {
      method: 'get',
      path: '/workspaces',
      tags: ['Accounts'],
      summary: 'Your workspaces',
      responses: { 200: { description: 'Workspaces', ...list(WorkspaceOut) } },
    }),
    async (c) => c.json({ data: await userWorkspaces(accounts, userOf(c).userId), nextCursor: null }, 200),
  );

  app.openapi(
    route('owner', 'creates', {
      method: 'post',
      path: '/members',
      tags: ['Accounts'],
      summary: 'Add a member (returns a one-time invite link)',
      request: { body: { required: true, ...json(MemberIn) } },
      responses: { 201: { description: 'Added', ...json(MemberCreated) } },
    }),
    async (c) => {
      const { email, role } = c.req.valid('json');
      const { userId, inviteToken } = await addMember(accounts, userOf(c).orgId, email, role);
      const inviteUrl = inviteToken ? `${deps.baseUrl()}/invite?token=${inviteToken}` : null;
      return c.json({ userId, role, inviteUrl }, 201);
    },
  );

  app.openapi(
    route('owner', 'reads', {
      method: 'get',
      path: '/members',
      tags: ['Accounts'],
      summary: 'Members of this workspace',
      responses: { 200: { description: 'Members', ...list(MemberOut) } },
    }),
    async (c) => {
      const members = await accounts.membersOf(userOf(c).orgId);
      return c.json(
        {
          data: members.map((m) => ({ userId: m.userId, email: m.email, role: m.role, createdAt: m.createdAt })),
          nextCursor: null,
        },
        200,
      );
    },
  );

  app.openapi(
    route('owner', 'creates', {
      method: 'delete',
      path: '/members/{userId}',
      tags: ['Accounts'],
      summary: 'Remove a member from this workspace',
      request: { params: UserParam },
      responses: { 204: { description: 'Removed' } },
    }),
    async (c) => {
      const p = userOf(c);
      const { userId } = c.req.valid('param');
      const members = await accounts.membersOf(p.orgId);
      const target = members.find((m) => m.userId === userId);
      if (!target) throw new AppError('not_found', `User ${userId} is not a member of this workspace.`);
      if (target.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1) {
        throw new AppError('conflict', 'A workspace keeps at least one owner.');
      }
      await accounts.deleteMembership(userId, p.orgId);
      return c.body(null, 204);
    },
  );
  return app;
}
