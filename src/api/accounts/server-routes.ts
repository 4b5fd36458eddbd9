/**
 * The server admin's routes (docs/api.md, "Server administration"): who may create workspaces, account by account
 * or every account at once. Rights themselves: ../../auth/server-rights.ts.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import type { AccountSummary } from '../../store/account-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { json, listOf } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { ServerAccountIn, ServerAccountOut, ServerSettingsIn, ServerSettingsOut } from './schemas.js';

const UserParam = z.object({
  userId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'userId', in: 'path' } }),
});

const accountView = (a: AccountSummary) => ({
  id: a.id,
  email: a.email,
  createdAt: a.createdAt,
  serverAdmin: a.serverAdmin,
  createsWorkspaces: a.serverAdmin || a.createsWorkspaces,
  ownedWorkspaces: a.ownedWorkspaces,
});

export function serverRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;

  app.openapi(
    route('admin', 'reads', {
      method: 'get',
      path: '/server/settings',
      tags: ['Server'],
      summary: 'Settings of the whole server',
      responses: { 200: { description: 'Settings', ...json(ServerSettingsOut) } },
    }),
    async (c) => c.json(await accounts.serverSettings(), 200),
  );

  app.openapi(
    route('admin', 'creates', {
      method: 'patch',
      path: '/server/settings',
      tags: ['Server'],
      summary: 'Change settings of the whole server (every account may create workspaces, or not)',
      request: { body: { required: true, ...json(ServerSettingsIn) } },
      responses: { 200: { description: 'Settings as they now are', ...json(ServerSettingsOut) } },
    }),
    async (c) => c.json(await accounts.updateServerSettings(c.req.valid('json')), 200),
  );

  app.openapi(
    route('admin', 'reads', {
      method: 'get',
      path: '/server/accounts',
      tags: ['Server'],
      summary: 'Every account on the server, with whether it may create workspaces',
      responses: { 200: { description: 'Accounts', ...json(listOf(ServerAccountOut, 'ServerAccountList')) } },
    }),
    async (c) => c.json({ data: (await accounts.listUsers()).map(accountView), nextCursor: null }, 200),
  );

  app.openapi(
    route('admin', 'creates', {
      method: 'patch',
      path: '/server/accounts/{userId}',
      tags: ['Server'],
      summary: 'Allow an account to create workspaces, or withdraw it',
      request: { params: UserParam, body: { required: true, ...json(ServerAccountIn) } },
      responses: {
        200: { description: 'Changed', ...json(ServerAccountOut) },
        409: { description: 'conflict: the server admin always may create workspaces' },
      },
    }),
    async (c) => {
      const { userId } = c.req.valid('param');
      const { createsWorkspaces } = c.req.valid('json');
      const before = await accounts.getUser(userId);
      if (!before) throw new AppError('not_found', `There is no account ${userId} on this server.`);
      if (before.serverAdmin && !createsWorkspaces) {
        throw new AppError('conflict', 'The server admin always may create workspaces.');
      }
      await accounts.setCreatesWorkspaces(userId, createsWorkspaces);
      const after = (await accounts.listUsers()).find((a) => a.id === userId);
      if (!after) throw new AppError('not_found', `There is no account ${userId} on this server.`);
      return c.json(accountView(after), 200);
    },
  );
  return app;
}
