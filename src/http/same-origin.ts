import { AppError } from '../errors.js';

/**
 * CSRF defence for cookie-authenticated writes: a browser always sends Origin (or Sec-Fetch-Site) on a
 * cross-site POST, so a request that carries one must come from this server's own origin.
 */
export function assertSameOrigin(
  origin: string | undefined,
  fetchSite: string | undefined,
  host: string | undefined,
): void {
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw csrf();
  if (origin !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (!host || originHost !== host) throw csrf();
  }
}

function csrf(): AppError {
  return new AppError(
    'forbidden',
    "Cross-site request refused: cookie-authenticated writes must come from this server's own pages.",
  );
}
