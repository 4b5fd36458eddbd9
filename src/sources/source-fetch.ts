/**
 * One fetch of a data source: a conditional GET through the guarded agent (it checks and pins each address at
 * connect time, so a host that resolves or redirects to a private address is refused there), following at most
 * MAX_REDIRECTS redirects itself so that every hop's URL passes the form rules again, all within one deadline
 * that covers a slow trickle of a body as well as a slow answer. It never rejects for a network or HTTP problem:
 * the result carries a short error instead, worded like the webhooks' delivery log (no addresses, no body).
 */
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { endpointRefusal, parseEndpointUrl, REFUSAL } from '../webhooks/endpoint-guard/index.js';
import { networkError } from '../webhooks/send-attempt.js';
import { checkContentType, checkEncoding, checkLength, FetchProblem, readBody } from './fetch-answer.js';
import type { SourceType } from './source-url.js';

export const MAX_REDIRECTS = 3;
export const SOURCE_FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 1024 * 1024 } as const;

export interface FetchRequest {
  url: string;
  type: SourceType;
  /** From the last answer that had a body: sent back as If-None-Match / If-Modified-Since. */
  etag?: string | null | undefined;
  lastModified?: string | null | undefined;
}

export interface FetchOptions {
  /** The guarded agent (webhooks/endpoint-guard createGuardedAgent). */
  agent: Dispatcher;
  /** For the whole fetch: every hop's headers and the body. */
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

export interface FetchResult {
  /** The last answer's status; null when none came. */
  status: number | null;
  /** 304 to a conditional GET: nothing changed since `etag` / `lastModified`. */
  notModified: boolean;
  /** UTF-8, byte order mark removed; null unless a 2xx answer was read whole. */
  body: string | null;
  /** Of the body's bytes. */
  sha256: string | null;
  /** The answer's validators (a 304 without its own keeps the request's). */
  etag: string | null;
  lastModified: string | null;
  bytes: number;
  ms: number;
  /** The URL of the last hop. */
  finalUrl: string;
  /** Why the fetch failed, in a few words; null when it did not. */
  error: string | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a fetch has got to so far; a failure reports it as it stands. */
interface Progress {
  url: string;
  hop: number;
  status: number | null;
  bytes: number;
}

export async function fetchSource(req: FetchRequest, o: FetchOptions): Promise<FetchResult> {
  const started = performance.now();
  const progress: Progress = { url: req.url, hop: 0, status: null, bytes: 0 };
  const finish = (rest: Pick<FetchResult, 'notModified' | 'body' | 'sha256' | 'etag' | 'lastModified' | 'error'>) => ({
    status: progress.status,
    bytes: progress.bytes,
    ms: Math.round((performance.now() - started) * 100) / 100,
    finalUrl: progress.url,
    ...rest,
  });
  try {
    const res = await followRedirects(req, o, progress, AbortSignal.timeout(o.timeoutMs));
    return finish(await readAnswer(req, res, o, progress));
  } catch (err) {
    const none = { notModified: false, body: null, sha256: null, etag: null, lastModified: null };
    return finish({ ...none, error: describeFailure(err, progress, o.timeoutMs) });
  }
}

/** The first answer that is not a redirect; each hop's URL is checked before it is asked. */
async function followRedirects(
  req: FetchRequest,
  o: FetchOptions,
  progress: Progress,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  for (;;) {
    checkHopUrl(progress.url);
    const res = await request(progress.url, {
      method: 'GET',
      dispatcher: o.agent,
      headers: requestHeaders(req, o.userAgent),
      signal,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
    });
    progress.status = res.statusCode;
    if (!REDIRECTS.has(res.statusCode)) return res;
    discard(res.body);
    const location = headerText(res.headers.location);
    if (!location) throw new FetchProblem(`HTTP ${res.statusCode} without a Location`);
    if (progress.hop === MAX_REDIRECTS) throw new FetchProblem(`more than ${MAX_REDIRECTS} redirects`);
    progress.url = resolveLocation(location, progress.url);
    progress.hop++;
  }
}

/**
 * The validators go on every hop, not only the first: a published Google Sheet's link always redirects to a
 * cache host, and only that host's answer can be a 304.
 */
function requestHeaders(req: FetchRequest, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: req.type === 'json_url' ? 'application/json, text/plain;q=0.9, */*;q=0.1' : 'text/csv, */*;q=0.1',
  };
  if (req.etag) headers['if-none-match'] = req.etag;
  if (req.lastModified) headers['if-modified-since'] = req.lastModified;
  return headers;
}

/** The webhooks' form rules and http(s) for every URL asked; the host rules run in the guarded agent. */
function checkHopUrl(url: string): void {
  const parsed = parseEndpointUrl(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new FetchProblem(REFUSAL.httpOrHttps);
}

function resolveLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new FetchProblem(REFUSAL.invalid);
  }
}

async function readAnswer(
  req: FetchRequest,
  res: Dispatcher.ResponseData,
  o: FetchOptions,
  progress: Progress,
): Promise<Pick<FetchResult, 'notModified' | 'body' | 'sha256' | 'etag' | 'lastModified' | 'error'>> {
  const etag = headerText(res.headers.etag);
  const lastModified = headerText(res.headers['last-modified']);
  const conditional = Boolean(req.etag || req.lastModified);
  if (res.statusCode === 304 && conditional) {
    // A 304 has no body: reading its end is free, where closing it (discard) makes an abort error with its stack,
    // which was a tenth of the poller's time with a thousand sources answering 304 every second.
    await res.body.dump();
    const kept = { etag: etag ?? req.etag ?? null, lastModified: lastModified ?? req.lastModified ?? null };
    return { notModified: true, body: null, sha256: null, ...kept, error: null };
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    discard(res.body);
    throw new FetchProblem(`HTTP ${res.statusCode}`);
  }
  try {
    checkContentType(req.type, headerText(res.headers['content-type']));
    checkEncoding(headerText(res.headers['content-encoding']));
    checkLength(headerText(res.headers['content-length']), o.maxBytes);
  } catch (err) {
    discard(res.body);
    throw err;
  }
  const read = await readBody(res.body, o.maxBytes, (bytes) => (progress.bytes = bytes));
  return { notModified: false, body: read.text, sha256: read.sha256, etag, lastModified, error: null };
}

/**
 * Closes an answer's body unread (a redirect's, an error page, an HTML page): closing the connection is cheaper
 * than reading what is not wanted. Closing makes the body emit an abort error, which is expected here.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? null : text;
}

/** A failure in a few words: a refusal says whether a redirect led to it. */
function describeFailure(err: unknown, progress: Progress, timeoutMs: number): string {
  const refusal = endpointRefusal(err);
  const via = progress.hop > 0 ? 'redirect refused' : 'refused';
  if (refusal) return `${via}: ${refusal.reason}`;
  if (err instanceof FetchProblem) {
    const urlRule = (Object.values(REFUSAL) as string[]).includes(err.message);
    return urlRule ? `${via}: ${err.message}` : err.message;
  }
  return networkError(err, { timeoutMs, connectTimeoutMs: timeoutMs }).error;
}
