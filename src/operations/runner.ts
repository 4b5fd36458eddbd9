/**
 * The one runner every entry point calls (docs/api.md, "The order of checks"): for an operation on a channel, the
 * channel is resolved first (an id that is malformed, unknown, of another workspace or outside a key's lock answers
 * the same 404, so ids do not leak); then the permission (403); then the rate-limit bucket (429, with creates also
 * counted per account and per client address); then the input's shape (400); then the operation itself. Errors
 * raised after the bucket carry its RateLimit-* headers. Nothing else in the server calls `authorize`.
 */
import { authorize, type Permission, type Principal } from '../auth/permissions.js';
import type { ChannelRecord, Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import { admit, admitCustom } from '../limits/enforce.js';
import type { BucketName } from '../limits/rate-limiter.js';
import type { ResourceLimits } from '../limits/resource-limits.js';
import { validationError } from '../validation.js';
import type { Caller, Operation, OperationContext, Outcome } from './operation.js';
import type { Services } from './services.js';

/** What a call names besides the caller: the channel (for a channel operation) and the input as sent. */
export interface Call {
  channelId?: string | undefined;
  /** The input as sent (parsed JSON, with path and query parameters); `{}` for a request without a body. */
  input: unknown;
  dryRun?: boolean | undefined;
  /** Checks of the request that come after the guard and before the input's (a body on a route that takes none). */
  check?: (() => unknown) | undefined;
}

export interface Runner {
  run<I, O>(op: Operation<I, O>, caller: Caller, call: Call): Promise<Outcome<O>>;
  /** The guard alone, for what is not an operation call (a WebSocket upgrade reads its channel). */
  resolveChannel(principal: Principal, permission: Permission, channelId: string): ChannelRecord;
  /**
   * Whether `principal` may call `op` now, rate limits aside: what a replayed answer (an Idempotency-Key seen
   * before) is checked against, so a caller whose rights changed gets what it would get now.
   */
  authorizeNow(op: Operation<unknown, unknown>, principal: Principal, channelId: string | undefined): void;
  readonly services: Services;
}

/** Channel ids are at most this long; a longer one names no channel. */
const MAX_ID_LENGTH = 100;
const MINUTE = 60_000;

export function createRunner(services: Services): Runner {
  const resolveChannel = (principal: Principal, permission: Permission, channelId: string) =>
    channelFor(services.engine, principal, permission, channelId);

  const authorizeNow = (op: Operation<unknown, unknown>, principal: Principal, channelId: string | undefined) => {
    if (op.scope === 'channel') return resolveChannel(principal, op.permission, channelId ?? '');
    authorize(principal, op.permission);
    return undefined;
  };

  const guard = async <I, O>(op: Operation<I, O>, caller: Caller, call: Call) => {
    const channel = authorizeNow(op, caller.principal, call.channelId);
    const bucket = call.dryRun && op.dryRunBucket ? op.dryRunBucket : op.bucket;
    const headers = caller.admitted ?? (await admitBucket(services, bucket, caller, channel));
    return { channel, headers };
  };

  return {
    services,
    resolveChannel,
    authorizeNow,
    async run(op, caller, call) {
      const { channel, headers } = await guard(op, caller, call);
      try {
        call.check?.();
        const parsed = op.input.safeParse(call.input);
        if (!parsed.success) throw validationError(parsed.error);
        const ctx: OperationContext = {
          caller,
          services,
          dryRun: call.dryRun === true,
          channelOf: (id, permission) => resolveChannel(caller.principal, permission, id),
        };
        const body =
          op.scope === 'channel'
            ? await op.run({ ...ctx, channel: channel! }, parsed.data)
            : await op.run(ctx, parsed.data);
        return { body, headers };
      } catch (err) {
        throw err instanceof AppError ? withHeaders(err, headers) : err;
      }
    },
  };
}

/** The channel, when the principal may see it and holds `permission` on it; the same 404 for every other case. */
function channelFor(engine: Engine, principal: Principal, permission: Permission, channelId: string): ChannelRecord {
  const known = channelId.length <= MAX_ID_LENGTH && engine.has(channelId);
  const orgId = known ? engine.channelRecord(channelId).orgId : '\u0000missing';
  authorize(principal, permission, { orgId, channelId });
  return engine.channelRecord(channelId);
}

/** Takes from the call's bucket: updates per channel, reads and creates per workspace (creates also per account). */
async function admitBucket(
  services: Pick<Services, 'limiter' | 'limits'>,
  bucket: BucketName | null,
  caller: Caller,
  channel: ChannelRecord | undefined,
): Promise<Record<string, string>> {
  if (bucket === null) return {};
  if (bucket === 'creates') await admitCreator(services, caller);
  const scope = bucket === 'updates' && channel ? channel.id : caller.principal.orgId;
  return (await admit(services.limiter, bucket, scope)).headers;
}

/**
 * Creates also count per account (a dashboard user, over all their workspaces) and per client address, so a fresh
 * workspace's bucket is no way around the limit (docs/api.md, "Rate limits"). Checked before the workspace's bucket:
 * a request refused here takes nothing from it.
 */
export async function admitCreator(
  services: {
    limiter: Services['limiter'];
    limits: Pick<ResourceLimits, 'createsPerAddressPerMinute' | 'createsPerAccountPerMinute'>;
  },
  caller: Pick<Caller, 'principal' | 'client'>,
): Promise<void> {
  if (caller.client) {
    const rule = { limit: services.limits.createsPerAddressPerMinute, windowMs: MINUTE };
    await admitCustom(services.limiter, `creates:address:${caller.client}`, rule, 'creates from this address');
  }
  if (caller.principal.kind === 'user') {
    const rule = { limit: services.limits.createsPerAccountPerMinute, windowMs: MINUTE };
    await admitCustom(services.limiter, `creates:account:${caller.principal.userId}`, rule, 'creates by this account');
  }
}

/** The same error, with these headers added (RateLimit-* on an answer after the limit). */
export function withHeaders(err: AppError, headers: Record<string, string>): AppError {
  if (Object.keys(headers).length === 0) return err;
  return new AppError(err.code, err.message, {
    errors: err.errors,
    retryAfter: err.retryAfter,
    extra: err.extra,
    headers: { ...headers, ...err.headers },
    reason: err.reason,
  });
}
