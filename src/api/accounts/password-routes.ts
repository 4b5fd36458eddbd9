/**
 * Passwords (docs/api.md, "Accounts"): change yours while signed in, or set a new one from a reset link
 * issued with `onair reset-password <email>` on the server. Both end every other session of the user.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { changePassword, completeReset } from '../../auth/password-changes.js';
import { AppError } from '../../errors.js';
import { sha256Hex } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { accountRoutes } from '../route.js';
import { LoginOut, PasswordChangeIn, PasswordResetIn } from './schemas.js';
import { signIn, throttled } from './sign-in.js';

export function passwordRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRoutes(app, deps, ['Accounts']);
  const { accounts } = deps.store;

  route(
    'session',
    null,
    'post /auth/password',
    {
      summary: 'Change your password; every other session of yours ends',
      body: PasswordChangeIn,
      ok: [204, 'Changed; this session stays signed in'],
    },
    async (c, { body: { currentPassword, newPassword } }) => {
      const p = c.get('principal');
      if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session.');
      const user = await accounts.getUser(p.userId);
      // Guessing the current password through this route is throttled like logging in.
      await throttled(deps, c, sha256Hex(user?.email ?? p.userId), (from) =>
        changePassword(accounts, { userId: p.userId, sessionHash: p.sessionId, from }, currentPassword, newPassword),
      );
      return c.body(null, 204);
    },
  );

  route(
    'public',
    null,
    'post /auth/reset-password',
    {
      summary: 'Set a new password from a one-time reset link; every session of the user ends',
      body: PasswordResetIn,
      ok: [200, 'Password set and signed in', LoginOut],
    },
    async (c, { body: { token, password } }) =>
      c.json(await signIn(deps, c, await completeReset(accounts, token, password)), 200),
  );
  return app;
}
