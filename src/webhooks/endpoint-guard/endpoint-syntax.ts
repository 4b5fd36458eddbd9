/**
 * The rules an endpoint URL must meet before any DNS lookup. Hosts are decided on the WHATWG-parsed URL, never
 * the raw string: the parser has already turned `127.1`, `0x7f000001`, `0177.0.0.1` and fullwidth dots into
 * `127.0.0.1` and converted IDNA names to punycode, so the host we classify is the host a client would connect to.
 * What the parser would quietly repair or reinterpret is refused on the raw string first: control characters
 * (tabs and newlines are dropped), backslashes (read as slashes), and userinfo (`https://127.0.0.1@1.1.1.1/`
 * reads to a person as one host and connects to another; a webhook has no use for it).
 */
import { isIP } from 'node:net';
import { EndpointRefused, REFUSAL } from './endpoint-refused.js';
import { isPublicAddress } from './public-address.js';

/** Names that only mean something on the local machine or network (RFC 6762, RFC 6761, ICANN's .internal). */
const PRIVATE_SUFFIXES = ['.local', '.internal', '.localhost'];

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;

/** What comes between `scheme://` and the path, as written. */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/**
 * Syntax, scheme and host rules only (no DNS): https, and a host that is a public name or a public IP
 * literal. With `allowPrivate` any http(s) URL passes the scheme and host rules; the form rules
 * (parseEndpointUrl) apply always. Throws EndpointRefused; returns the parsed URL.
 */
export function checkEndpointSyntax(raw: string, opts: { allowPrivate: boolean }): URL {
  const url = parseEndpointUrl(raw);
  checkScheme(url.protocol, opts.allowPrivate);
  if (!opts.allowPrivate) checkHost(bareHost(url.hostname));
  return url;
}

/**
 * The URL, parsed, if its form is one a webhook may have: it parses, has no control character, backslash, user
 * name or password, and no port 0. Deliveries check this again before sending (a URL saved before a rule existed).
 */
export function parseEndpointUrl(raw: string): URL {
  if (CONTROL_OR_BACKSLASH.test(raw)) throw new EndpointRefused(REFUSAL.invalid);
  const url = parseUrl(raw);
  if (url.username || url.password || AUTHORITY.exec(raw.trim())?.[1]?.includes('@')) {
    throw new EndpointRefused(REFUSAL.credentials);
  }
  if (url.port === '0') throw new EndpointRefused(REFUSAL.invalid);
  return url;
}

/** A URL's hostname as a resolver or socket takes it: an IPv6 literal without its brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** A public IP literal, or a name that passes the host-name rules. */
export function checkHost(host: string): void {
  const allowed = isIP(host) !== 0 ? isPublicAddress(host) : isPublicName(host);
  if (!allowed) throw new EndpointRefused(REFUSAL.host);
}

/** The scheme rule; undici's connector reports `https:` or `http:` the same way URL does. */
export function checkScheme(protocol: string, allowPrivate: boolean): void {
  if (protocol === 'https:') return;
  if (!allowPrivate) throw new EndpointRefused(REFUSAL.https);
  if (protocol !== 'http:') throw new EndpointRefused(REFUSAL.httpOrHttps);
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch (err) {
    // Zone ids (`[fe80::1%25eth0]`) land here too: the WHATWG parser has no syntax for them.
    throw new EndpointRefused(REFUSAL.invalid, { cause: err });
  }
}

/**
 * A name that could be on the public internet: at least two labels, none empty, and not under a suffix that
 * is local by definition. One trailing dot (the DNS root) is allowed and ignored; `localhost.` is `localhost`.
 */
function isPublicName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  const labels = name.split('.');
  if (labels.length < 2 || labels.includes('')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix));
}
