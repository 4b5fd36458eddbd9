/**
 * Sign-in for the dashboard (docs/api.md, "Accounts"): first-run setup, login, logout, accepting an
 * invitation, and `GET /v1/me`. Login is throttled on failures (../../limits/login-throttle.ts).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { checkLogin, completeSetup, normaliseEmail } from '../../auth/accounts.js';
import { acceptInvitation } from '../../auth/invitations.js';
import { mayCreateWorkspaces } from '../../auth/server-rights.js';
import { clearedSessionCookie, readSessionCookie } from '../../auth/sessions.js';
import { sha256Hex } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { assertSameOrigin } from '../../http/same-origin.js';
import { json } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { AcceptInviteIn, LoginIn, LoginOut, MeOut, SetupIn } from './schemas.js';
import { cookieOptions, signedInBody, signIn, throttled } from './sign-in.js';

export function authRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/setup',
      tags: ['Accounts'],
      summary: 'Create the owner account with the one-time setup token',
      request: { body: { required: true, ...json(SetupIn) } },
      responses: { 201: { description: 'Owner created and signed in', ...json(LoginOut) } },
    }),
    async (c) => c.json(await signIn(deps, c, await completeSetup(deps.store, c.req.valid('json'))), 201),
  );

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/login',
      tags: ['Accounts'],
      summary: 'Sign in; sets the session cookie',
      request: { body: { required: true, ...json(LoginIn) } },
      responses: { 200: { description: 'Signed in', ...json(LoginOut) } },
    }),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const account = sha256Hex(normaliseEmail(email));
      const userId = await throttled(deps, c, account, (from) => checkLogin(accounts, email, password, from));
      return c.json(await signIn(deps, c, userId), 200);
    },
  );

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/accept-invite',
      tags: ['Accounts'],
      summary: 'Accept an invitation: create the account with a password, or join while signed in as it',
      request: { body: { required: true, ...json(AcceptInviteIn) } },
      responses: {
        200: { description: 'Joined; signed in (a new account gets its session cookie)', ...json(LoginOut) },
        409: { description: 'conflict: the email has an account; sign in first' },
      },
    }),
    async (c) => {
      const { token, password } = c.req.valid('json');
      const session = await deps.auth.sessionOf(c.req.header('cookie'));
      // Joining with a session is a cookie-authenticated write: it must come from this server's pages.
      if (session) assertSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'));
      const signedIn = session ? { userId: session.userId } : undefined;
      const { userId, created } = await acceptInvitation(accounts, { token, password, signedIn });
      return c.json(created ? await signIn(deps, c, userId) : await signedInBody(deps, userId), 200);
    },
  );

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/logout',
      tags: ['Accounts'],
      summary: 'End the session',
      responses: { 204: { description: 'Signed out' } },
    }),
    async (c) => {
      const token = readSessionCookie(c.req.header('cookie'));
      // Ending a session is a cookie-authenticated write: a page on another origin (another port of this
      // host included) must not sign the operator out mid-show.
      if (token) assertSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'));
      if (token) await accounts.deleteSession(sha256Hex(token));
      c.header('Set-Cookie', clearedSessionCookie(cookieOptions(deps)));
      return c.body(null, 204);
    },
  );

  app.openapi(
    route('authenticated', 'reads', {
      method: 'get',
      path: '/me',
      tags: ['Accounts'],
      summary: 'Who am I: the user or key, its workspace and permissions',
      responses: { 200: { description: 'The caller', ...json(MeOut) } },
    }),
    async (c) => {
      const p = c.get('principal');
      if (p.kind === 'output')
        return c.json(
          { workspace: { id: p.orgId, name: '' }, permissions: ['channels:read'], channelIds: [p.channelId] },
          200,
        );
      const org = await accounts.getOrg(p.orgId);
      const workspace = { id: p.orgId, name: org?.name ?? '' };
      const permissions = [...p.grants];
      const channelIds = p.channelIds ? [...p.channelIds] : null;
      if (p.kind === 'key') return c.json({ key: { id: p.keyId }, workspace, permissions, channelIds }, 200);
      const user = await accounts.getUser(p.userId);
      const rights = {
        serverAdmin: user?.serverAdmin ?? false,
        mayCreateWorkspaces: await mayCreateWorkspaces(accounts, p.userId),
      };
      return c.json(
        {
          user: { id: p.userId, email: user?.email ?? '', createdAt: user?.createdAt ?? '', ...rights },
          workspace,
          role: p.role,
          permissions,
          channelIds,
        },
        200,
      );
    },
  );
  return app;
}
