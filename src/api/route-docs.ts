/**
 * What every route's OpenAPI entry says besides its own fields: the errors any route can answer, who may call it
 * and which rate-limit bucket it counts against (`x-onair-permission`, `x-onair-rate-limit`: a test checks that no
 * route lacks them), the Idempotency-Key every authenticated POST takes, and the 422 of creates.
 */
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { Permission } from '../auth/permissions.js';
import type { BucketName } from '../limits/rate-limiter.js';
import { ProblemSchema } from './schemas/common.js';

export const PERMISSION_EXTENSION = 'x-onair-permission';
export const BUCKET_EXTENSION = 'x-onair-rate-limit';
/** The bucket a route's `?dryRun=1` counts against, when it has one. */
export const DRY_RUN_BUCKET_EXTENSION = 'x-onair-rate-limit-dry-run';

export const problem = (description: string) => ({
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

/** What a route that takes input values or a scene answers when one names a file the library does not hold. */
export const UNKNOWN_ASSET =
  "unknown_asset: a value, an asset input's default or a font names a file the workspace's asset library does not hold";

export const SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];
export const SESSION_SECURITY: Record<string, string[]>[] = [{ session: [] }];

/** `?dryRun=1` or `?dryRun=true`: the one reading of the flag. */
export function isDryRun(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().optional().openapi({
    description:
      'Up to 255 visible ASCII characters, unique per request you mean (a UUID). A repeat within 24 hours answers the first response without acting again (`Idempotent-Replayed: true`); the same key for another request is 409 `conflict`.',
    example: '3f0c2a9e-6f6e-4a55-9d59-0c1f7d1b9e42',
  }),
});

/** Every authenticated POST takes an Idempotency-Key (api/middleware/idempotency.ts). */
export function withIdempotency<R extends Pick<RouteConfig, 'method' | 'request' | 'responses'>>(config: R): R {
  if (config.method !== 'post') return config;
  return {
    ...config,
    request: { ...config.request, headers: IdempotencyHeaders },
    responses: { 409: problem('conflict (an Idempotency-Key reused, or still running)'), ...config.responses },
  };
}

/** Creating routes can meet a count limit (docs/api.md, "Limits"). */
export function withLimits<R extends Pick<RouteConfig, 'method' | 'responses'>>(
  config: R,
  bucket: BucketName | null,
): R {
  if (config.method !== 'post' || bucket !== 'creates') return config;
  return { ...config, responses: { 422: problem('limit_reached or endpoint_refused'), ...config.responses } };
}

/** The fields of a route's entry its declaration gives. */
export interface HttpDocs {
  tags: string[];
  summary: string;
  description?: string;
  request?: RouteConfig['request'];
  responses: RouteConfig['responses'];
}

/** The whole OpenAPI entry of an operation's route. */
export function httpDocs(
  op: { permission: Permission; bucket: BucketName | null; dryRunBucket?: BucketName | undefined },
  http: HttpDocs & { method: RouteConfig['method']; path: string },
): RouteConfig {
  const { method, path, tags, summary, description, request, responses } = http;
  const config = withLimits(withIdempotency({ method, path, request, responses }), op.bucket);
  return {
    ...config,
    tags,
    summary,
    ...(description === undefined ? {} : { description }),
    [PERMISSION_EXTENSION]: op.permission,
    [BUCKET_EXTENSION]: op.bucket ?? 'none',
    ...(op.dryRunBucket === undefined ? {} : { [DRY_RUN_BUCKET_EXTENSION]: op.dryRunBucket }),
    security: SECURITY,
    responses: { ...ERROR_RESPONSES, ...config.responses },
  };
}
