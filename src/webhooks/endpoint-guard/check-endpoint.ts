/**
 * The full check run when a subscription is saved: the syntax rules, then, for a host name, every address it
 * resolves to must be public. Deliveries repeat the address check at connect time (guarded-agent.ts), so a
 * name that later rebinds to a private address is still refused.
 */
import { isIP } from 'node:net';
import { bareHost, checkEndpointSyntax } from './endpoint-syntax.js';
import { requirePublic, RESOLVE_TIMEOUT_MS, resolveWithin, systemResolve, type Resolve } from './resolve.js';

export interface CheckEndpointOptions {
  allowPrivate: boolean;
  /** Default: the system resolver. */
  resolve?: Resolve | undefined;
  /** Default: RESOLVE_TIMEOUT_MS. */
  resolveTimeoutMs?: number | undefined;
}

/**
 * Throws EndpointRefused, or returns the parsed URL. With `allowPrivate` no lookup is made: nothing it could
 * find would be refused, and a test receiver need not be up (or resolvable) when it is registered.
 */
export async function checkEndpoint(raw: string, opts: CheckEndpointOptions): Promise<URL> {
  const url = checkEndpointSyntax(raw, opts);
  const host = bareHost(url.hostname);
  // An IP literal has already been classified by the syntax rules.
  if (opts.allowPrivate || isIP(host) !== 0) return url;
  const addresses = await resolveWithin(
    opts.resolve ?? systemResolve,
    host,
    opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS,
  );
  requirePublic(addresses);
  return url;
}
