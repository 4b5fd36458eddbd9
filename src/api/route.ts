/**
 * Account routes (sign-in, passwords, workspaces, members, server administration) are declared through
 * accountRouteDefiner with who may call them and the rate-limit bucket they count against; both are written into the
 * OpenAPI document like every route's. Everything else is an operation (./operation-route.ts).
 */
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z, ZodType } from 'zod';
import type { MiddlewareHandler } from 'hono';
import type { Principal } from '../auth/permissions.js';
import { assertMayCreateWorkspaces, assertServerAdmin } from '../auth/server-rights.js';
import { AppError } from '../errors.js';
import { admit } from '../limits/enforce.js';
import type { BucketName } from '../limits/rate-limiter.js';
import { admitCreator } from '../operations/index.js';
import { CLIENT_ADDRESS_HEADER as CLIENT_HEADER } from '../http/client-address.js';
import type { ApiDeps, ApiEnv } from './env.js';
import { idempotent, type ReplayCheck } from './middleware/idempotency.js';
import { openApiParts, type Method, type SpecDocs } from './route-spec.js';
import {
  BUCKET_EXTENSION,
  ERROR_RESPONSES,
  PERMISSION_EXTENSION,
  SECURITY,
  SESSION_SECURITY,
  withIdempotency,
  withLimits,
} from './route-docs.js';

/**
 * Who may call an account route: anyone (it checks its own secret), any authenticated caller, a
 * dashboard session user, a session user who may create workspaces, a workspace owner, or the server admin
 * (../auth/server-rights.ts).
 */
export type AccountAccess = 'public' | 'authenticated' | 'session' | 'creator' | 'owner' | 'admin';

type AccountDeps = Pick<ApiDeps, 'limiter' | 'limits' | 'store'>;

async function checkAccess(deps: AccountDeps, access: AccountAccess, p: Principal): Promise<void> {
  if (access === 'public' || access === 'authenticated') return;
  if (p.kind !== 'user') throw new AppError('forbidden', 'This needs a dashboard session (log in), not an API key.');
  if (access === 'owner' && p.role !== 'owner')
    throw new AppError('forbidden', 'Only the workspace owner can do this.');
  if (access === 'creator') await assertMayCreateWorkspaces(deps.store.accounts, p.userId);
  if (access === 'admin') await assertServerAdmin(deps.store.accounts, p.userId);
}

export function accountGuard(
  deps: AccountDeps,
  access: AccountAccess,
  bucket: BucketName | null,
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await checkAccess(deps, access, c.get('principal'));
    if (bucket === null) return next();
    if (bucket === 'creates' && access !== 'public') {
      await admitCreator(deps, { principal: c.get('principal'), client: c.req.header(CLIENT_HEADER) });
    }
    const { headers } = await admit(deps.limiter, bucket, access === 'public' ? 'public' : c.get('principal').orgId);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/**
 * A route that declares no body accepts none, an empty one or `{}` (docs/api.md, "Conventions"); anything
 * else is refused rather than ignored, so a misdirected request cannot act as if it had been understood.
 */
const noBody: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const body = c.get('body');
  const empty = body === undefined || (isPlainObject(body) && Object.keys(body).length === 0);
  if (!empty) {
    throw new AppError('invalid_request', 'This endpoint takes no body: send none, or {}.', {
      errors: [{ path: '(body)', message: 'must be empty' }],
    });
  }
  return next();
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Idempotency (replaying to whom `check` admits), the guard, then `noBody` for a route that declares no body. */
function middlewareFor(
  check: ReplayCheck,
  guard: MiddlewareHandler<ApiEnv>,
  config: Pick<RouteConfig, 'method' | 'request'>,
) {
  const chain = [idempotent(check), guard];
  return config.method !== 'get' && config.request?.body === undefined ? [...chain, noBody] : chain;
}

interface AccountInput<B, P> {
  /** The body, checked against the spec's `body`. */
  body: B;
  /** The path parameters, checked against the spec's `params`. */
  params: P;
}

/**
 * Declares account routes on `app` in a few words, under `tags`: `route('owner', 'creates', 'post /members',
 * { summary, body: MemberIn, ok: [201, 'Invited', InvitationCreated] }, (c, { body }) => …)`. The body and the path
 * parameters are checked against the spec's schemas before the handler runs, after the guard.
 */
export function accountRoutes(app: OpenAPIHono<ApiEnv>, deps: AccountDeps, tags: string[]) {
  const define = accountRouteDefiner(deps);
  return <B extends ZodType | undefined = undefined, P extends ZodType | undefined = undefined>(
    access: AccountAccess,
    bucket: BucketName | null,
    where: `${Method} /${string}`,
    spec: Omit<SpecDocs, 'body' | 'params'> & { summary: string; body?: B; params?: P },
    handler: (c: Context<ApiEnv>, input: AccountInput<Infer<B>, Infer<P>>) => Response | Promise<Response>,
  ) => {
    const [method, path] = where.split(' ') as [Method, `/${string}`];
    const config = define(access, bucket, {
      method,
      path,
      tags,
      summary: spec.summary,
      ...openApiParts(spec as SpecDocs),
    });
    app.openapi(config, (c) => {
      const valid = (c.req as unknown as { valid(target: string): unknown }).valid.bind(c.req);
      const input = { body: valid('json') as Infer<B>, params: valid('param') as Infer<P> };
      return handler(c, input);
    });
  };
}

type Infer<T> = T extends ZodType ? z.infer<T> : undefined;

export function accountRouteDefiner(deps: AccountDeps) {
  return <P extends string, R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P }>(
    access: AccountAccess,
    bucket: BucketName | null,
    config: R,
  ) =>
    createRoute({
      ...withLimits(access === 'public' ? config : withIdempotency(config), bucket),
      [PERMISSION_EXTENSION]: access,
      [BUCKET_EXTENSION]: bucket ?? 'none',
      ...(access === 'public' ? {} : { security: access === 'authenticated' ? SECURITY : SESSION_SECURITY }),
      middleware: middlewareFor(
        (c) => checkAccess(deps, access, c.get('principal')),
        accountGuard(deps, access, bucket),
        config,
      ),
      responses: { ...ERROR_RESPONSES, ...config.responses },
    });
}
