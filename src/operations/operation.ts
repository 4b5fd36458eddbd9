/**
 * A use case, declared once and called by every entry point (REST routes, the fast PATCH route, WebSocket ops,
 * incoming hooks): what it needs (permission, rate-limit bucket, whether it acts on one channel), the shape of its
 * input, and what it does. The runner (./runner.ts) is the only place that resolves the channel, authorises and
 * rate-limits, so the same request gets the same answer, status, code and detail whichever way it comes in.
 */
import type { ZodType } from 'zod';
import type { Permission, Principal } from '../auth/permissions.js';
import type { Actor } from '@onair/protocol';
import type { ChangeSource, ChannelRecord, Origin } from '../engine/index.js';
import type { BucketName } from '../limits/rate-limiter.js';
import type { Services } from './services.js';

export interface Caller {
  principal: Principal;
  /** Where a change came from, carried into its events. */
  source: ChangeSource;
  /** Who it is, carried into events and the on-air history (docs/api.md, "Who did it"). */
  actor: Actor;
  /** The client's address, for the per-address limits on creates (docs/api.md, "Rate limits"). */
  client?: string | undefined;
  /**
   * The RateLimit-* headers of the bucket, when the entry point already counted this call there (an incoming hook
   * counts each post before reading it): the call is then not counted twice.
   */
  admitted?: Record<string, string> | undefined;
}

/** What every operation's `run` gets besides its input. */
export interface OperationContext {
  caller: Caller;
  services: Services;
  /** `?dryRun=1`: check everything, change nothing (operations that declare `dryRunBucket`). */
  dryRun: boolean;
  /** Another channel the input names, when the caller holds `permission` on it; the same 404 otherwise. */
  channelOf: (channelId: string, permission: Permission) => ChannelRecord;
}

/** An operation on one channel gets the channel, resolved and authorised. */
export interface ChannelContext extends OperationContext {
  channel: ChannelRecord;
}

interface OperationBase<I> {
  /** The operation's name in logs, tests and (for the live ops) the WebSocket's `op`. */
  name: string;
  permission: Permission;
  /** The rate-limit bucket a call counts against; null: none (a connection is limited elsewhere). */
  bucket: BucketName | null;
  /** The bucket a dry run counts against instead (a scene editor validates as the user types). */
  dryRunBucket?: BucketName | undefined;
  /** The input's shape, checked after the guard (docs/api.md, "The order of checks"). */
  input: ZodType<I>;
}

/** An operation on one channel: the runner answers 404 for a channel the caller may not see, whatever the input. */
export interface ChannelOperation<I, O> extends OperationBase<I> {
  scope: 'channel';
  run(ctx: ChannelContext, input: I): Promise<O>;
}

/** An operation on the caller's workspace. */
export interface WorkspaceOperation<I, O> extends OperationBase<I> {
  scope: 'workspace';
  run(ctx: OperationContext, input: I): Promise<O>;
}

export type Operation<I, O> = ChannelOperation<I, O> | WorkspaceOperation<I, O>;

/** Changes made with an API key come from the API; with a dashboard session, from the dashboard. */
export function sourceOf(principal: Principal): ChangeSource {
  return principal.kind === 'user' ? 'dashboard' : 'api';
}

/** The caller an authenticated request or connection acts as. */
export function callerOf(principal: Principal, client?: string): Caller {
  return { principal, source: sourceOf(principal), actor: actorOf(principal), client };
}

/** A session's user by id and email; a key by id and name. */
export function actorOf(principal: Principal): Actor {
  if (principal.kind === 'user') return { type: 'user', id: principal.userId, name: principal.email };
  if (principal.kind === 'key') return { type: 'key', id: principal.keyId, name: principal.name };
  return { type: 'system', id: principal.channelId, name: 'output page' };
}

/** What an op queued on the engine carries: where it came in and who did it. */
export function originOf(caller: Caller): Origin {
  return { source: caller.source, actor: caller.actor };
}

export interface Outcome<O> {
  body: O;
  /** RateLimit-* headers for an HTTP answer. */
  headers: Record<string, string>;
}
