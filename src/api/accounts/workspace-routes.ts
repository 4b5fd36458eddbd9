/**
 * Workspaces (docs/api.md, "Workspaces"): session users only; creating one needs the right the server admin gives
 * (../../auth/server-rights.ts). Members and invitations: member-routes.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Principal } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { assertRoom } from '../../limits/resource-limits.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { accountRoutes } from '../route.js';
import { listOf } from '../schemas/common.js';
import { WorkspaceIn, WorkspaceOut } from './schemas.js';
import { userWorkspaces } from './workspace-view.js';

/** The signed-in user a session route acts for. */
export function sessionUser(p: Principal): Extract<Principal, { kind: 'user' }> {
  if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
  return p;
}

export function workspaceRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRoutes(app, deps, ['Accounts']);
  const { accounts } = deps.store;

  route(
    'creator',
    'creates',
    'post /workspaces',
    {
      summary: 'Create a workspace owned by you (if the server admin allows you to)',
      body: WorkspaceIn,
      ok: [201, 'Created', WorkspaceOut],
    },
    async (c, { body }) => {
      const p = sessionUser(c.get('principal'));
      const owned = (await userWorkspaces(accounts, p.userId)).filter((w) => w.role === 'owner').length;
      const setting = 'ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT';
      assertRoom(owned, deps.limits.workspacesPerAccount, 'An account owns at most {limit} workspaces', setting);
      const org = { id: newId('org'), name: body.name, createdAt: new Date().toISOString() };
      await accounts.insertOrg(org);
      await accounts.insertMembership({ userId: p.userId, orgId: org.id, role: 'owner', createdAt: org.createdAt });
      return c.json({ ...org, role: 'owner' as const }, 201);
    },
  );

  route(
    'session',
    'reads',
    'get /workspaces',
    { summary: 'Your workspaces', ok: [200, 'Workspaces', listOf(WorkspaceOut, 'WorkspaceList')] },
    async (c) => {
      const p = sessionUser(c.get('principal'));
      return c.json({ data: await userWorkspaces(accounts, p.userId), nextCursor: null }, 200);
    },
  );
  return app;
}
