/**
 * Sign-in for the dashboard (API.md §2): first-run setup, login, logout, invitations, and `GET /v1/me`.
 * Login is throttled per email and per client address against guessing.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { acceptInvite, checkLogin, completeSetup, normaliseEmail } from '../../auth/accounts.js';
import { clearedSessionCookie, createSession, readSessionCookie, sessionCookie } from '../../auth/sessions.js';
import { sha256Hex } from '../../ids.js';
import { admitCustom } from '../../limits/enforce.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { json } from '../schemas/common.js';
import { accountRouteDefiner } from '../route.js';
import { AcceptInviteIn, LoginIn, LoginOut, MeOut, SetupIn } from './schemas.js';
import { userWorkspaces } from './workspace-view.js';

const LOGIN_ATTEMPTS = { limit: 10, windowMs: 15 * 60_000 };
/** Set by the transport from the TCP peer address; a value sent by the client is replaced. */
export const CLIENT_ADDRESS_HEADER = 'x-onair-client';

export function authRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = accountRouteDefiner(deps);
  const { accounts } = deps.store;
  const cookieOptions = () => ({ ttlSeconds: deps.sessionTtlSeconds, secure: deps.baseUrl().startsWith('https:') });

  /** Starts a session (the cookie) and returns the body of a sign-in answer. */
  const signIn = async (c: Context<ApiEnv>, userId: string) => {
    const token = await createSession(accounts, userId, deps.sessionTtlSeconds);
    c.header('Set-Cookie', sessionCookie(token, cookieOptions()));
    const user = await accounts.getUser(userId);
    const workspaces = await userWorkspaces(accounts, userId);
    return { user: { id: userId, email: user?.email ?? '', createdAt: user?.createdAt ?? '' }, workspaces };
  };

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/setup',
      tags: ['Accounts'],
      summary: 'Create the owner account with the one-time setup token',
      request: { body: { required: true, ...json(SetupIn) } },
      responses: { 201: { description: 'Owner created and signed in', ...json(LoginOut) } },
    }),
    async (c) => c.json(await signIn(c, await completeSetup(deps.store, c.req.valid('json'))), 201),
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
      // Per account from one client (guessing), per account overall (spread guessing), per client (spraying).
      // The client address comes from the socket (the transport overwrites x-onair-client), never a header
      // the caller chooses.
      const account = sha256Hex(normaliseEmail(email));
      const client = c.req.header(CLIENT_ADDRESS_HEADER) ?? 'unknown';
      await admitCustom(deps.limiter, `login:${account}:${client}`, LOGIN_ATTEMPTS);
      await admitCustom(deps.limiter, `login-account:${account}`, { ...LOGIN_ATTEMPTS, limit: 50 });
      await admitCustom(deps.limiter, `login-client:${client}`, { ...LOGIN_ATTEMPTS, limit: 100 });
      return c.json(await signIn(c, await checkLogin(accounts, email, password)), 200);
    },
  );

  app.openapi(
    route('public', null, {
      method: 'post',
      path: '/auth/accept-invite',
      tags: ['Accounts'],
      summary: 'Set a password from a one-time invitation link',
      request: { body: { required: true, ...json(AcceptInviteIn) } },
      responses: { 200: { description: 'Password set and signed in', ...json(LoginOut) } },
    }),
    async (c) => {
      const { token, password } = c.req.valid('json');
      return c.json(await signIn(c, await acceptInvite(accounts, token, password)), 200);
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
      if (token) await accounts.deleteSession(sha256Hex(token));
      c.header('Set-Cookie', clearedSessionCookie(cookieOptions()));
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
      return c.json(
        {
          user: { id: p.userId, email: user?.email ?? '', createdAt: user?.createdAt ?? '' },
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
