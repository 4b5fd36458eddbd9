/**
 * Why an outgoing webhook endpoint is refused. The reasons are deliberately coarse: the API answers with them,
 * and naming the range an address fell in (loopback, metadata, a private network) would turn subscription
 * saves into a scanner of the server's network.
 */

export const REFUSAL = {
  invalid: 'the URL is not valid',
  https: 'the URL must use https',
  httpOrHttps: 'the URL must use http or https',
  hostName: 'the host name is not public (.local, .internal, .localhost or no dot)',
  address: 'the address is not public',
  unresolved: 'the host name does not resolve',
} as const;

export type RefusalReason = (typeof REFUSAL)[keyof typeof REFUSAL];

export class EndpointRefused extends Error {
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'EndpointRefused';
    this.reason = reason;
  }
}

/** Whether `err`, or an error in its `cause` chain, is an EndpointRefused: undici may wrap connector errors. */
export function isEndpointRefused(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    if (e instanceof EndpointRefused) return true;
    seen.add(e);
  }
  return false;
}
