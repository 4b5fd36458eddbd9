/**
 * The undici Agent deliveries go through. Its connector resolves the host itself, checks every address, and
 * connects to exactly the address it checked, so there is no window between the check and the connection for
 * DNS rebinding. A `lookup` hook would not do: Node skips it for IP literals, and it checks one answer while
 * the socket may use another. TLS still verifies the certificate against the host name (SNI + servername).
 */
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { bareHost, checkHost, checkScheme } from './endpoint-syntax.js';
import { requirePublic, RESOLVE_TIMEOUT_MS, resolveWithin, systemResolve, type Resolve } from './resolve.js';

export interface GuardedAgentOptions {
  /** Let http and private or loopback targets through (tests, ONAIR_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate: boolean;
  /** Default: the system resolver. */
  resolve?: Resolve | undefined;
  /** Connections per origin. */
  connections?: number | undefined;
  /** TCP + TLS handshake deadline per address tried (undici's default: 10 s). */
  connectTimeoutMs?: number | undefined;
  /** Lookup deadline (default RESOLVE_TIMEOUT_MS). */
  resolveTimeoutMs?: number | undefined;
  tls?: { ca?: string | Buffer | (string | Buffer)[]; rejectUnauthorized?: boolean } | undefined;
}

interface Policy {
  allowPrivate: boolean;
  resolve: Resolve;
  resolveTimeoutMs: number;
}

/** Errors after which the next address of a name is worth trying: this one was not reachable. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function createGuardedAgent(opts: GuardedAgentOptions): Agent {
  const connectPinned = buildConnector({ ...opts.tls, timeout: opts.connectTimeoutMs });
  const policy: Policy = {
    allowPrivate: opts.allowPrivate,
    resolve: opts.resolve ?? systemResolve,
    resolveTimeoutMs: opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS,
  };
  return new Agent({
    connect: guardedConnector(connectPinned, policy),
    ...(opts.connections !== undefined ? { connections: opts.connections } : {}),
  });
}

/** A connector that checks first and then hands `connectPinned` an IP address instead of the name. */
function guardedConnector(connectPinned: buildConnector.connector, policy: Policy): buildConnector.connector {
  return (options, callback) => {
    // The catch also takes a synchronous throw from connectFirst, which has not called back yet then; after
    // that, the socket's events call back, outside this chain, so the callback runs exactly once.
    checkedAddresses(options, policy)
      .then((addresses) => connectFirst(connectPinned, pinnedOptions(options), addresses, callback))
      .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null));
  };
}

/** The addresses this connection may use. The rules run again here: DNS, or the rules, may have changed since save. */
async function checkedAddresses(options: buildConnector.Options, policy: Policy): Promise<string[]> {
  const host = bareHost(options.hostname);
  if (!policy.allowPrivate) {
    checkScheme(options.protocol, false);
    checkHost(host);
  }
  const addresses = isIP(host) !== 0 ? [host] : await resolveWithin(policy.resolve, host, policy.resolveTimeoutMs);
  if (!policy.allowPrivate) requirePublic(addresses);
  return addresses;
}

/**
 * The TLS server name stays the host name (SNI, certificate check) while the socket goes to an address.
 * An IP literal gets no server name: SNI may not carry one, and TLS then checks the certificate's IP entries.
 */
function pinnedOptions(options: buildConnector.Options): buildConnector.Options {
  const host = bareHost(options.hostname);
  if (isIP(host) !== 0) return options;
  return { ...options, servername: options.servername || host.replace(/\.$/, '') };
}

/** Tries the checked addresses in the resolver's order; only an unreachable address moves on to the next. */
function connectFirst(
  connectPinned: buildConnector.connector,
  options: buildConnector.Options,
  addresses: string[],
  callback: buildConnector.Callback,
): void {
  const [address, ...rest] = addresses;
  if (address === undefined) throw new Error('connectFirst needs at least one address');
  connectPinned({ ...options, hostname: address }, (...result) => {
    const [err] = result;
    if (err && rest.length > 0 && UNREACHABLE.has((err as { code?: string }).code ?? '')) {
      connectFirst(connectPinned, options, rest, callback);
      return;
    }
    callback(...result);
  });
}
