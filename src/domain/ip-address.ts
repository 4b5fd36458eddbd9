/**
 * IP address text as it reaches onair, in one canonical form: IPv4 dotted (`192.0.2.1`, also for an
 * IPv4-mapped IPv6 peer, which uWebSockets.js reports as `0000:…:ffff:c000:0201`), IPv6 as eight
 * lower-case groups without leading zeros (`2001:db8:0:0:0:0:0:1`). Used wherever addresses are compared
 * or counted, so one client cannot appear under several spellings.
 */

/** The canonical form of an IP address, or null when `text` is not one. */
export function canonicalIp(text: string): string | null {
  const value = text.trim();
  if (isIpv4(value)) return value.split('.').map(Number).join('.');
  const groups = ipv6Groups(value);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return groups.map((g) => g.toString(16)).join(':');
}

/** The /64 network of a canonical IPv6 address (`2001:db8:0:1::/64`); an IPv4 address as it is. */
export function networkOf(canonical: string): string {
  if (!canonical.includes(':')) return canonical;
  return `${canonical.split(':').slice(0, 4).join(':')}::/64`;
}

function isIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4), or null. */
function ipv6Groups(value: string): number[] | null {
  const address = value.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!address.includes(':')) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string | undefined) => (half ? half.split(':').flatMap(groupsOf) : []);
  const left = parse(halves[0]);
  const right = parse(halves[1]);
  if (left.includes(NaN) || right.includes(NaN)) return null;
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...left, ...Array<number>(Math.max(0, missing)).fill(0), ...right];
}

function groupsOf(part: string): number[] {
  if (isIpv4(part)) {
    const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  }
  return /^[0-9a-f]{1,4}$/i.test(part) ? [parseInt(part, 16)] : [NaN];
}
