/**
 * Host-name resolution for the guard: every address of a name, within a deadline, each one checked. A name
 * is only as safe as its worst address, so one private answer among public ones refuses the whole name.
 */
import { promises as dns } from 'node:dns';
import { EndpointRefused, REFUSAL } from './endpoint-refused.js';
import { isPublicAddress } from './public-address.js';

/** Every address a host name resolves to (an empty list or a rejection both mean it does not resolve). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), in the order it answered. */
export const systemResolve: Resolve = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** How long a lookup may take before the name counts as not resolving. */
export const RESOLVE_TIMEOUT_MS = 3_000;

/** The addresses of `hostname`; throws EndpointRefused (the one host reason) on failure, no answer or timeout. */
export async function resolveWithin(resolve: Resolve, hostname: string, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EndpointRefused(REFUSAL.host)), timeoutMs);
  });
  try {
    const answers = await Promise.race([resolve(hostname), deadline]);
    if (answers.length === 0) throw new EndpointRefused(REFUSAL.host);
    return answers.map((answer) => answer.address);
  } catch (err) {
    if (err instanceof EndpointRefused) throw err;
    throw new EndpointRefused(REFUSAL.host, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/** Refuses the lot unless every address is public. */
export function requirePublic(addresses: string[]): void {
  if (!addresses.every(isPublicAddress)) throw new EndpointRefused(REFUSAL.host);
}
