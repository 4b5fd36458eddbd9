/**
 * A channel operation, written once and called by every entry point (the REST routes, the fast PATCH route,
 * WebSocket ops, and incoming hooks): validate the input, authorize the caller on the channel, take from the
 * channel's updates bucket, submit to the engine, answer. The same request therefore gets the same answer,
 * status, code and detail, whichever way it came in.
 */
import type { ZodType } from 'zod';
import { authorize, type Permission, type Principal } from '../auth/permissions.js';
import type { ChangeSource, Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import { admit } from '../limits/enforce.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { validationError } from '../validation.js';

export interface OperationDeps {
  engine: Engine;
  limiter: RateLimiter;
}

export interface Caller {
  principal: Principal;
  /** Where the change came from, carried into its events. */
  source: ChangeSource;
  /**
   * The RateLimit-* headers of the channel's updates bucket, when the entry point already counted this call there
   * (an incoming hook counts each post before reading it): the call is then not counted twice.
   */
  admitted?: Record<string, string> | undefined;
}

export interface ChannelOperation<I, O> {
  /** The operation's name in messages, tests and the WebSocket (`op`). */
  name: string;
  permission: Permission;
  /**
   * The input's shape: it depends on nothing but the request, so it is checked first. An entry point passes
   * the parsed JSON as sent (an HTTP request without a body passes `{}`).
   */
  input: ZodType<I>;
  /** Applies a valid input to the channel; may throw AppError (checks that need the channel's scenes). */
  run(deps: OperationDeps, channelId: string, input: I, source: ChangeSource): Promise<O>;
}

/** Changes made with an API key come from the API; with a dashboard session, from the dashboard. */
export function sourceOf(principal: Principal): ChangeSource {
  return principal.kind === 'user' ? 'dashboard' : 'api';
}

export interface Outcome<O> {
  body: O;
  /** RateLimit-* headers for an HTTP answer. */
  headers: Record<string, string>;
}

/** Runs `op` for `caller` on `channelId`. Errors are AppErrors; those after the limit carry its headers. */
export async function perform<I, O>(
  op: ChannelOperation<I, O>,
  deps: OperationDeps,
  caller: Caller,
  channelId: string,
  raw: unknown,
): Promise<Outcome<O>> {
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  authorizeOnChannel(deps.engine, caller.principal, op.permission, channelId);
  const headers = caller.admitted ?? (await admit(deps.limiter, 'updates', channelId)).headers;
  try {
    return { body: await op.run(deps, channelId, parsed.data, caller.source), headers };
  } catch (err) {
    throw err instanceof AppError ? withHeaders(err, headers) : err;
  }
}

/** `permission` on the channel, or AppError: unknown and foreign channels answer the same 404. */
export function authorizeOnChannel(
  engine: Engine,
  principal: Principal,
  permission: Permission,
  channelId: string | undefined,
): void {
  if (channelId === undefined) return authorize(principal, permission);
  const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
  authorize(principal, permission, { orgId, channelId });
}

/** The same error, with these headers added (RateLimit-* on an answer after the limit). */
export function withHeaders(err: AppError, headers: Record<string, string>): AppError {
  return new AppError(err.code, err.message, {
    errors: err.errors,
    retryAfter: err.retryAfter,
    extra: err.extra,
    headers: { ...headers, ...err.headers },
    reason: err.reason,
  });
}
