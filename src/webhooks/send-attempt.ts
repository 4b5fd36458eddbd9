/**
 * One delivery attempt: a signed POST of the exact body bytes, through the guarded agent (the address is
 * checked and pinned at connection time), with a timeout, redirects not followed, and at most a small part
 * of the answer read. Errors are described coarsely: the delivery log must not turn into a network scanner.
 */
import { request, type Dispatcher } from 'undici';
import { endpointRefusal, parseEndpointUrl, REFUSAL } from './endpoint-guard/index.js';
import { signatureHeader } from '../crypto/signature.js';

/** Bytes of an answer's body read at most (kept in the log for a failed attempt). */
const BODY_CAP = 1024;
const ERROR_BODY_CHARS = 200;

export interface AttemptTarget {
  url: string;
  secret: string;
  /** The secret a roll replaced: it signs too, after the current one, until `expiresAtMs`. */
  previousSecret?: { secret: string; expiresAtMs: number } | null;
}

export interface AttemptInput {
  eventId: string;
  type: string;
  body: Buffer;
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** No answer came in time (the connection or the response): the worker slows such an endpoint down. */
  timedOut: boolean;
}

export interface SendOptions {
  agent: Dispatcher;
  timeoutMs: number;
  /** The agent's connect deadline, for the log line (the agent enforces it). */
  connectTimeoutMs: number;
  userAgent: string;
  now?: () => number;
}

export async function sendAttempt(target: AttemptTarget, input: AttemptInput, o: SendOptions): Promise<AttemptResult> {
  const now = o.now ?? Date.now;
  const timestamp = Math.floor(now() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    // A URL saved before a form rule existed is refused here; the host rules run again at connect time.
    parseEndpointUrl(target.url);
    const res = await request(target.url, {
      method: 'POST',
      dispatcher: o.agent,
      body: input.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': o.userAgent,
        'x-service-event': input.type,
        'x-service-delivery': input.eventId,
        'x-service-timestamp': String(timestamp),
        'x-service-signature': signatureHeader(secretsOf(target, now()), timestamp, input.body),
      },
      signal: AbortSignal.timeout(o.timeoutMs),
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
    });
    const text = await readCapped(res.body);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const error = ok ? null : statusError(res.statusCode, text);
    return { ok, status: res.statusCode, error, durationMs: elapsed(), timedOut: false };
  } catch (err) {
    const failure = networkError(err, o);
    return { ok: false, status: null, error: failure.error, durationMs: elapsed(), timedOut: failure.timedOut };
  }
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
function secretsOf(target: AttemptTarget, at: number): string[] {
  const previous = target.previousSecret;
  return previous && previous.expiresAtMs > at ? [target.secret, previous.secret] : [target.secret];
}

/** Up to BODY_CAP bytes of the answer as text; the rest is not read (the connection is then closed). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= BODY_CAP) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, BODY_CAP).toString('utf8');
}

function statusError(status: number, text: string): string {
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
  return `HTTP ${status}${redirect}${excerpt ? `: ${excerpt}` : ''}`;
}

/**
 * A network failure in a few words, never the address or the system's message. Every refused or unresolvable
 * host reads the same (endpoint-refused.ts). Data sources describe their fetches' failures with it too.
 */
export function networkError(
  err: unknown,
  o: Pick<SendOptions, 'timeoutMs' | 'connectTimeoutMs'>,
): { error: string; timedOut: boolean } {
  const refusal = endpointRefusal(err);
  if (refusal) return { error: `endpoint refused: ${refusal.reason}`, timedOut: false };
  const code = errorCode(err);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return {
      error: `connection timed out after ${seconds(Math.min(o.connectTimeoutMs, o.timeoutMs))}`,
      timedOut: true,
    };
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || isAbort(err)) {
    return { error: `timed out after ${seconds(o.timeoutMs)}`, timedOut: true };
  }
  return { error: failureOf(code), timedOut: false };
}

function failureOf(code: string | undefined): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `endpoint refused: ${REFUSAL.host}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed by the endpoint';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code?.startsWith('ERR_SSL')) {
    return 'TLS handshake failed (certificate not trusted or not for this host)';
  }
  return 'connection failed';
}

const seconds = (ms: number) => `${ms / 1000} s`;

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
  }
  return undefined;
}

function isAbort(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
  }
  return false;
}
