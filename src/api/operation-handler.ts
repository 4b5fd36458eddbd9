/**
 * Runs a channel operation for a Hono request: the caller is the authenticated principal, the input what the
 * route passes (the body as sent, with path parameters), and the answer carries the RateLimit-* headers.
 */
import type { Context } from 'hono';
import { perform, sourceOf, type ChannelOperation } from '../operations/index.js';
import type { ApiDeps, ApiEnv } from './env.js';

export async function runOperation<I, O>(
  deps: Pick<ApiDeps, 'engine' | 'limiter'>,
  c: Context<ApiEnv>,
  op: ChannelOperation<I, O>,
  channelId: string,
  input: unknown,
): Promise<O> {
  const principal = c.get('principal');
  const outcome = await perform(op, deps, { principal, source: sourceOf(principal) }, channelId, input);
  for (const [name, value] of Object.entries(outcome.headers)) c.header(name, value);
  return outcome.body;
}

/** The body as sent: a route that takes one gets `{}` when none came (docs/api.md, "Conventions"). */
export function bodyOf(c: Context<ApiEnv>): unknown {
  return c.get('body') ?? {};
}
