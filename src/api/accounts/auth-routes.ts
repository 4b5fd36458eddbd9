/**
 * Sign-in for the dashboard (docs/api.md, "Accounts"): first-run setup, login, logout, accepting an
 * invitation, and `GET /v1/me`. Login is throttled on failures (../../limits/login-throttle.ts).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { checkLogin, completeSetup, normaliseEmail } from '../../auth/accounts.js';
import { acceptInvitation } from '../../auth/invitations.js';
import { mayCreateWorkspaces } from '../../auth/server-rights.js';
import { clearedSessionCookie, readSessionCookie } from '../../auth/sessions.js';
import type { Principal } from '../../auth/permissions.js';
import { sha256Hex } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { assertSameOrigin } from '../../http/same-origin.js';
import { accountRoutes } from '../route.js';
import { AcceptInviteIn, LoginIn, LoginOut, MeOut, SetupIn } from './schemas.js';
import { cookieOptions, signedInBody, signIn, throttled } from './sign-in.js';

export function authRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRoutes(app, deps, ['Accounts']);
  const { accounts } = deps.store;

  route(
    'public',
    null,
    'post /auth/setup',
    {
      summary: 'Create the owner account with the one-time setup token',
      body: SetupIn,
      ok: [201, 'Owner created and signed in', LoginOut],
    },
    async (c, { body }) => c.json(await signIn(deps, c, await completeSetup(deps.store, body)), 201),
  );
  route(
    'public',
    null,
    'post /auth/login',
    { summary: 'Sign in; sets the session cookie', body: LoginIn, ok: [200, 'Signed in', LoginOut] },
    async (c, { body: { email, password } }) => {
      const account = sha256Hex(normaliseEmail(email));
      const userId = await throttled(deps, c, account, (from) => checkLogin(accounts, email, password, from));
      return c.json(await signIn(deps, c, userId), 200);
    },
  );
  route(
    'public',
    null,
    'post /auth/accept-invite',
    {
      summary: 'Accept an invitation: create the account with a password, or join while signed in as it',
      body: AcceptInviteIn,
      ok: [200, 'Joined; signed in (a new account gets its session cookie)', LoginOut],
      more: { 409: 'conflict: the email has an account; sign in first' },
    },
    async (c, { body: { token, password } }) => {
      const session = await deps.auth.sessionOf(c.req.header('cookie'));
      // Joining with a session is a cookie-authenticated write: it must come from this server's pages.
      if (session) assertSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'));
      const signedIn = session ? { userId: session.userId } : undefined;
      const { userId, created } = await acceptInvitation(accounts, { token, password, signedIn });
      return c.json(created ? await signIn(deps, c, userId) : await signedInBody(deps, userId), 200);
    },
  );
  route('public', null, 'post /auth/logout', { summary: 'End the session', ok: [204, 'Signed out'] }, async (c) => {
    const token = readSessionCookie(c.req.header('cookie'));
    // Ending a session is a cookie-authenticated write: a page on another origin (another port of this host
    // included) must not sign the operator out mid-show.
    if (token) assertSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'));
    if (token) await accounts.deleteSession(sha256Hex(token));
    c.header('Set-Cookie', clearedSessionCookie(cookieOptions(deps)));
    return c.body(null, 204);
  });
  route(
    'authenticated',
    'reads',
    'get /me',
    { summary: 'Who am I: the user or key, its workspace and permissions', ok: [200, 'The caller', MeOut] },
    async (c) => c.json(await whoAmI(deps, c.get('principal')), 200),
  );
  return app;
}

/** `GET /v1/me`: a renderer's token, a key, or a signed-in user, with its workspace and rights. */
async function whoAmI(deps: ApiDeps, p: Principal) {
  const { accounts } = deps.store;
  if (p.kind === 'output') {
    return { workspace: { id: p.orgId, name: '' }, permissions: ['channels:read'], channelIds: [p.channelId] };
  }
  const org = await accounts.getOrg(p.orgId);
  const workspace = { id: p.orgId, name: org?.name ?? '' };
  const permissions = [...p.grants];
  const channelIds = p.channelIds ? [...p.channelIds] : null;
  if (p.kind === 'key') return { key: { id: p.keyId }, workspace, permissions, channelIds };
  const user = await accounts.getUser(p.userId);
  const rights = {
    serverAdmin: user?.serverAdmin ?? false,
    mayCreateWorkspaces: await mayCreateWorkspaces(accounts, p.userId),
  };
  const me = { id: p.userId, email: user?.email ?? '', createdAt: user?.createdAt ?? '', ...rights };
  return { user: me, workspace, role: p.role, permissions, channelIds };
}
