/**
 * Which literal IP addresses an outgoing webhook may reach: public unicast only. Two independent nets catch
 * an address: ipaddr.js's special ranges (anything it does not call `unicast`), and our own list below, which
 * names every range the product refuses so the rule does not hinge on one library's categories.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const REFUSED_V4 = [
  '0.0.0.0/8', // unspecified, "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (also Oracle Cloud's metadata, 192.0.0.192)
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 broadcast
  // Cloud metadata services, named even where a range above covers them: they are the usual SSRF prize.
  '169.254.169.254/32', // AWS, GCP, Azure instance metadata
  '100.100.100.200/32', // Alibaba Cloud metadata
  '168.63.129.16/32', // Azure platform endpoint (a public-looking address only reachable from inside Azure)
];

const REFUSED_V6 = [
  '::/96', // unspecified, loopback and IPv4-compatible (ipaddr.js calls ::7f00:1 unicast)
  '::ffff:0:0/96', // IPv4-mapped
  '64:ff9b::/96', // NAT64, well-known prefix
  '64:ff9b:1::/48', // NAT64, local-use prefix
  '2001::/32', // Teredo
  '2001:2::/48', // benchmarking
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: embeds an IPv4 address that a relay will reach
  '3fff::/20', // documentation
  'fc00::/7', // unique-local
  'fe80::/10', // link-local
  'ff00::/8', // multicast
  'fd00:ec2::254/128', // AWS instance metadata over IPv6
];

const refusedV4 = REFUSED_V4.map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
const refusedV6 = REFUSED_V6.map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** Global unicast (2000::/3): the only IPv6 space IANA hands out for the public internet. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether `ip`, one address in standard notation (`192.0.2.1`, `2001:db8::1`, no brackets), is public
 * unicast. Anything else — a zone id, an unusual spelling such as `0177.0.0.1`, a host name — is not.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0 || ip.includes('%')) return false;
  const address = ipaddr.parse(ip);
  if (address.range() !== 'unicast') return false;
  if (address.kind() === 'ipv4') return !refusedV4.some((cidr) => address.match(cidr));
  return address.match(GLOBAL_UNICAST_V6) && !refusedV6.some((cidr) => address.match(cidr));
}
