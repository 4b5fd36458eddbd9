/**
 * Every authenticated /v1 route is declared through routeDefiner with the permission it needs and the
 * rate-limit bucket it counts against. The guard runs before validation and the handler: it resolves the
 * `:id` channel (404 outside the caller's workspace or lock), checks the permission, then the bucket.
 * Both are written into the OpenAPI document (`x-onair-permission`, `x-onair-rate-limit`), where a test
 * checks that no route lacks them.
 */
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Permission, Principal } from '../auth/permissions.js';
import { assertMayCreateWorkspaces, assertServerAdmin } from '../auth/server-rights.js';
import { AppError } from '../errors.js';
import { admit, admitCustom } from '../limits/enforce.js';
import type { BucketName } from '../limits/rate-limiter.js';
import { authorizeOnChannel } from '../operations/index.js';
import { CLIENT_ADDRESS_HEADER as CLIENT_HEADER } from './accounts/sign-in.js';
import type { ApiDeps, ApiEnv } from './env.js';
import { idempotent, type ReplayCheck } from './middleware/idempotency.js';
import { ProblemSchema } from './schemas/common.js';

export const PERMISSION_EXTENSION = 'x-onair-permission';
export const BUCKET_EXTENSION = 'x-onair-rate-limit';
/** The bucket a route's `?dryRun=1` counts against, when it has one (RouteRule.dryRunBucket). */
export const DRY_RUN_BUCKET_EXTENSION = 'x-onair-rate-limit-dry-run';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

export const ERROR_RESPONSES = {
  400: problem('invalid_request or unknown_input'),
  401: problem('unauthorized'),
  403: problem('forbidden'),
  404: problem('not_found'),
  413: problem('payload_too_large'),
  415: problem('unsupported_media_type'),
  429: problem('rate_limited'),
  500: problem('internal'),
  503: problem('unavailable'),
} as const;

const SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];

/**
 * Every authenticated POST takes an Idempotency-Key: `idempotent` (api/middleware/idempotency.ts) applies it on every
 * route, before the guard, replaying only to a caller the guard's own check lets through now.
 */
const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().optional().openapi({
    description:
      'Up to 255 visible ASCII characters, unique per request you mean (a UUID). A repeat within 24 hours answers the first response without acting again (`Idempotent-Replayed: true`); the same key for another request is 409 `conflict`.',
    example: '3f0c2a9e-6f6e-4a55-9d59-0c1f7d1b9e42',
  }),
});

function withIdempotency<R extends Pick<RouteConfig, 'method' | 'request' | 'responses'>>(config: R): R {
  if (config.method !== 'post') return config;
  return {
    ...config,
    request: { ...config.request, headers: IdempotencyHeaders },
    responses: { 409: problem('conflict (an Idempotency-Key reused, or still running)'), ...config.responses },
  };
}

/** Creating routes can meet a count limit (docs/api.md, "Limits"). */
function withLimits<R extends Pick<RouteConfig, 'method' | 'responses'>>(config: R, bucket: BucketName | null): R {
  if (config.method !== 'post' || bucket !== 'creates') return config;
  return { ...config, responses: { 422: problem('limit_reached or endpoint_refused'), ...config.responses } };
}
const SESSION_SECURITY: Record<string, string[]>[] = [{ session: [] }];

export interface RouteRule {
  permission: Permission;
  /** The rate-limit bucket the route counts against (docs/api.md, "Rate limits"). */
  bucket: BucketName;
  /**
   * A route that can be dry-run (`?dryRun=1` or `true`: check everything, save nothing) counts those calls against
   * this bucket instead of `bucket` (a scene editor validates as the user types).
   */
  dryRunBucket?: BucketName;
}

/** `?dryRun=1` or `?dryRun=true`: the one reading of the flag, shared by the guard and the handlers. */
export function isDryRun(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/**
 * Creates also count per account (a dashboard user, over all their workspaces) and per client address, so a
 * fresh workspace's bucket is no way around the limit (docs/api.md, "Rate limits"). Checked before the
 * workspace's bucket: a request refused here takes nothing from it.
 */
async function admitCreator(
  deps: Pick<ApiDeps, 'limiter' | 'limits'>,
  principal: Principal,
  client: string | undefined,
): Promise<void> {
  const minute = 60_000;
  if (client) {
    const rule = { limit: deps.limits.createsPerAddressPerMinute, windowMs: minute };
    await admitCustom(deps.limiter, `creates:address:${client}`, rule, 'creates from this address');
  }
  if (principal.kind === 'user') {
    const rule = { limit: deps.limits.createsPerAccountPerMinute, windowMs: minute };
    await admitCustom(deps.limiter, `creates:account:${principal.userId}`, rule, 'creates by this account');
  }
}

/** Permission, then rate limit; returns the RateLimit-* headers for the answer. */
export async function checkRoute(
  deps: Pick<ApiDeps, 'engine' | 'limiter' | 'limits'>,
  rule: RouteRule,
  principal: Principal,
  channelId: string | undefined,
  client?: string,
): Promise<Record<string, string>> {
  authorizeOnChannel(deps.engine, principal, rule.permission, channelId);
  const scope = rule.bucket === 'updates' && channelId !== undefined ? channelId : principal.orgId;
  if (rule.bucket === 'creates') await admitCreator(deps, principal, client);
  return (await admit(deps.limiter, rule.bucket, scope)).headers;
}

/** Permission, then rate limit, then the handler; RateLimit-* headers go on the answer. */
export function routeGuard(
  deps: Pick<ApiDeps, 'engine' | 'limiter' | 'limits'>,
  rule: RouteRule,
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const dryBucket = isDryRun(c.req.query('dryRun')) ? rule.dryRunBucket : undefined;
    const applied = { ...rule, bucket: dryBucket ?? rule.bucket };
    const client = c.req.header(CLIENT_HEADER);
    const headers = await checkRoute(deps, applied, c.get('principal'), c.req.param('id'), client);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/**
 * A route that declares no body accepts none, an empty one or `{}` (docs/api.md, "Conventions"); anything
 * else is refused rather than ignored, so a misdirected request cannot act as if it had been understood.
 */
export const noBody: MiddlewareHandler<ApiEnv> = async (c, next) => {
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
  guard: MiddlewareHandler<ApiEnv> | null,
  config: Pick<RouteConfig, 'method' | 'request'>,
) {
  const chain = [idempotent(check), ...(guard ? [guard] : [])];
  return config.method !== 'get' && config.request?.body === undefined ? [...chain, noBody] : chain;
}

export function routeDefiner(deps: Pick<ApiDeps, 'engine' | 'limiter' | 'limits'>) {
  return <P extends string, R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P }>(
    rule: RouteRule,
    config: R,
  ) =>
    createRoute({
      ...withLimits(withIdempotency(config), rule.bucket),
      [PERMISSION_EXTENSION]: rule.permission,
      [BUCKET_EXTENSION]: rule.bucket,
      ...(rule.dryRunBucket === undefined ? {} : { [DRY_RUN_BUCKET_EXTENSION]: rule.dryRunBucket }),
      security: SECURITY,
      middleware: middlewareFor(
        (c) => authorizeOnChannel(deps.engine, c.get('principal'), rule.permission, c.req.param('id')),
        routeGuard(deps, rule),
        config,
      ),
      responses: { ...ERROR_RESPONSES, ...config.responses },
    });
}

/**
 * A route that runs a channel operation (../operations): its permission and bucket go into the document like
 * any route's, but the operation checks them itself, after the input's shape, in the same order the fast route
 * and the WebSocket use; so the same request gets the same answer whichever way it comes.
 */
export function operationRouteDefiner(deps: Pick<ApiDeps, 'engine'>) {
  return <P extends string, R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P }>(
    op: { permission: Permission },
    config: R,
  ) =>
    createRoute({
      ...withIdempotency(config),
      [PERMISSION_EXTENSION]: op.permission,
      [BUCKET_EXTENSION]: 'updates' satisfies BucketName,
      security: SECURITY,
      middleware: middlewareFor(
        (c) => authorizeOnChannel(deps.engine, c.get('principal'), op.permission, c.req.param('id')),
        null,
        config,
      ),
      responses: { ...ERROR_RESPONSES, ...config.responses },
    });
}

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
      await admitCreator(deps, c.get('principal'), c.req.header(CLIENT_HEADER));
    }
    const { headers } = await admit(deps.limiter, bucket, access === 'public' ? 'public' : c.get('principal').orgId);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

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
