/** Small platform-neutral helpers (browsers, Node 20+, Deno, Bun): no Node imports. */

const encoder = new TextEncoder();

/** The UTF-8 bytes of a string, or a copy of the given bytes (always backed by a plain ArrayBuffer). */
export function toBytes(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof data === 'string') return encoder.encode(data);
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return copy;
}

/** A random UUID v4, from `crypto.randomUUID` when the platform has it (browsers only in secure contexts). */
export function randomUuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `process.env[name]` where a `process` exists (Node, Bun, Deno's compat), else undefined (browsers). */
export function envVar(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The server's root URL, from a base URL given with or without a trailing slash and with or without `/v1`:
 * `http://host:8080`, `http://host:8080/`, `http://host:8080/v1` and `http://host:8080/v1/` all give
 * `http://host:8080`. A path prefix before `/v1` (a reverse proxy's) is kept.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url = baseUrl.trim().replace(/\/+$/, '');
  if (/\/v1$/i.test(url)) url = url.slice(0, -3).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`onair: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`onair: baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return url;
}
