/**
 * The address of the client a request comes from (docs/deploy.md, "Behind a reverse proxy"): the TCP peer,
 * unless the peer is one of the proxies the operator trusts (ONAIR_TRUSTED_PROXIES); then the nearest
 * address in X-Forwarded-For that is not a trusted proxy. Without trusted proxies no header is believed,
 * so a client cannot choose the address it is counted under.
 */
import { canonicalIp } from '../domain/ip-address.js';

/** The header the transport sets on every request to the client's address (whatever the client sent under it). */
export const CLIENT_ADDRESS_HEADER = 'x-onair-client';

export function clientAddress(peer: string, forwardedFor: string | null, trusted: ReadonlySet<string>): string {
  let address = canonicalIp(peer) ?? peer;
  if (!forwardedFor || !trusted.has(address)) return address;
  // Each proxy appends the address it received the request from: read from the right, skipping our own.
  const hops = forwardedFor.split(',').reverse();
  for (const hop of hops) {
    const next = canonicalIp(hop);
    if (!next) return address;
    address = next;
    if (!trusted.has(address)) return address;
  }
  return address;
}
