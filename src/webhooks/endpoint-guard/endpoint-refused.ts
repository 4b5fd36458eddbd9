/**
 * Why an outgoing webhook endpoint is refused. Every refused host gets the one reason `host`, whether its name is
 * refused by rule, resolves to a private address, resolves to nothing or answers too slowly: the API answers with
 * these reasons and the delivery log records them, and telling those cases apart (or naming the range an address
 * fell in) would turn subscription saves into a scanner of the server's network and its internal host names.
 * The other reasons are about the URL as written, which the caller already knows.
 */
export const REFUSAL = {
  invalid: 'the URL is not valid',
  credentials: 'the URL must not contain a user name or password',
  https: 'the URL must use https',
  httpOrHttps: 'the URL must use http or https',
  host: 'the host is not public or does not resolve',
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
  return endpointRefusal(err) !== null;
}

/** The EndpointRefused in `err`'s `cause` chain, or null. */
export function endpointRefusal(err: unknown): EndpointRefused | null {
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    if (e instanceof EndpointRefused) return e;
    seen.add(e);
  }
  return null;
}
