/**
 * Workspaces (docs/api.md, "Workspaces"): session users only; creating one needs the right the server admin gives
 * (../../auth/server-rights.ts). Members and invitations: member-routes.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { assertRoom } from '../../limits/resource-limits.js';
import { newId } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { json, listOf } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { WorkspaceIn, WorkspaceOut } from './schemas.js';
import { userWorkspaces } from './workspace-view.js';

export function workspaceRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;

  app.openapi(
    route('creator', 'creates', {
      method: 'post',
      path: '/workspaces',
      tags: ['Accounts'],
      summary: 'Create a workspace owned by you (if the server admin allows you to)',
      request: { body: { required: true, ...json(WorkspaceIn) } },
      responses: { 201: { description: 'Created', ...json(WorkspaceOut) } },
    }),
    async (c) => {
      const p = c.get('principal');
      if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
      const owned = (await userWorkspaces(accounts, p.userId)).filter((w) => w.role === 'owner').length;
      assertRoom(
        owned,
        deps.limits.workspacesPerAccount,
        'An account owns at most {limit} workspaces',
        'ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT',
      );
      const org = { id: newId('org'), name: c.req.valid('json').name, createdAt: new Date().toISOString() };
      await accounts.insertOrg(org);
      await accounts.insertMembership({ userId: p.userId, orgId: org.id, role: 'owner', createdAt: org.createdAt });
      return c.json({ ...org, role: 'owner' as const }, 201);
    },
  );

  app.openapi(
    route('session', 'reads', {
      method: 'get',
      path: '/workspaces',
      tags: ['Accounts'],
      summary: 'Your workspaces',
      responses: { 200: { description: 'Workspaces', ...json(listOf(WorkspaceOut, 'WorkspaceList')) } },
    }),
    async (c) => {
      const p = c.get('principal');
      if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
      return c.json({ data: await userWorkspaces(accounts, p.userId), nextCursor: null }, 200);
    },
  );
  return app;
}
