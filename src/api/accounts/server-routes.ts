/**
 * The server admin's routes (docs/api.md, "Server administration"): who may create workspaces, account by account
 * or every account at once. Rights themselves: ../../auth/server-rights.ts.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import type { AccountSummary } from '../../store/account-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { accountRoutes } from '../route.js';
import { listOf, pathParam } from '../schemas/common.js';
import { ServerAccountIn, ServerAccountOut, ServerSettingsIn, ServerSettingsOut } from './schemas.js';

const UserParam = z.object({ userId: pathParam('userId') });

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
  const route = accountRoutes(app, deps, ['Server']);
  const { accounts } = deps.store;
  const noAccount = (userId: string) => new AppError('not_found', `There is no account ${userId} on this server.`);

  route(
    'admin',
    'reads',
    'get /server/settings',
    { summary: 'Settings of the whole server', ok: [200, 'Settings', ServerSettingsOut] },
    async (c) => c.json(await accounts.serverSettings(), 200),
  );
  route(
    'admin',
    'creates',
    'patch /server/settings',
    {
      summary: 'Change settings of the whole server (every account may create workspaces, or not)',
      body: ServerSettingsIn,
      ok: [200, 'Settings as they now are', ServerSettingsOut],
    },
    async (c, { body }) => c.json(await accounts.updateServerSettings(body), 200),
  );
  route(
    'admin',
    'reads',
    'get /server/accounts',
    {
      summary: 'Every account on the server, with whether it may create workspaces',
      ok: [200, 'Accounts', listOf(ServerAccountOut, 'ServerAccountList')],
    },
    async (c) => c.json({ data: (await accounts.listUsers()).map(accountView), nextCursor: null }, 200),
  );
  route(
    'admin',
    'creates',
    'patch /server/accounts/{userId}',
    {
      summary: 'Allow an account to create workspaces, or withdraw it',
      params: UserParam,
      body: ServerAccountIn,
      ok: [200, 'Changed', ServerAccountOut],
      more: { 409: 'conflict: the server admin always may create workspaces' },
    },
    async (c, { params: { userId }, body: { createsWorkspaces } }) => {
      const before = await accounts.getUser(userId);
      if (!before) throw noAccount(userId);
      if (before.serverAdmin && !createsWorkspaces) {
        throw new AppError('conflict', 'The server admin always may create workspaces.');
      }
      await accounts.setCreatesWorkspaces(userId, createsWorkspaces);
      const after = (await accounts.listUsers()).find((a) => a.id === userId);
      if (!after) throw noAccount(userId);
      return c.json(accountView(after), 200);
    },
  );
  return app;
}
