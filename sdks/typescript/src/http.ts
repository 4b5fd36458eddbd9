/**
 * The HTTP layer every resource goes through: builds the request (auth, JSON, Idempotency-Key), times it out,
 * turns error answers into OnairApiError, and waits out 429 (and 503 with Retry-After) as the server asks.
 */
import { OnairApiError, OnairTransportError, type FieldError, type ProblemDocument } from './errors.js';
import { randomUuid, sleep } from './util.js';
import { VERSION } from './version.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Per-call options every method takes as its last argument. */
export interface RequestOptions {
  /** For creates: the Idempotency-Key to send (default: a random UUID made once per call, reused on its retries). */
  idempotencyKey?: string;
  /** Cancels the call (and any wait before a retry); the call rejects with OnairTransportError `aborted`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Extra request headers (e.g. your own `X-Request-Id`, 1–128 of `A-Z a-z 0-9 . _ : -`). */
  headers?: Record<string, string>;
}

export interface HttpConfig {
  /** Root URL of the server, without `/v1` (see normalizeBaseUrl). */
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  fetch: FetchLike | undefined;
}

export type Query = Record<string, string | number | boolean | Date | null | undefined>;

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path under `/v1` (`/channels/ch_…`), or an absolute URL (an incoming hook's). */
  path: string;
  query?: Query | undefined;
  /** Serialised as JSON. Leave undefined to send no body. */
  body?: unknown;
  /** Sent exactly as given, with `Content-Type: application/json` (signed incoming-hook posts). */
  rawBody?: string | Uint8Array | undefined;
  /** The Content-Type of `rawBody` (default `application/json`). */
  rawType?: string | undefined;
  /** A create: send an Idempotency-Key. */
  idempotent?: boolean;
  /** The answer is text (CSV), returned as it is rather than parsed as JSON. */
  text?: boolean;
  /** Send the API key (default true; false for incoming-hook posts, whose URL is the credential). */
  auth?: boolean;
  headers?: Record<string, string> | undefined;
  options?: RequestOptions | undefined;
}

export const USER_AGENT = `onair-typescript/${VERSION}`;

export class HttpClient {
  constructor(readonly config: HttpConfig) {}

  /** Absolute URL of a path under /v1 (or the absolute URL itself). */
  url(path: string, query?: Query): string {
    const url = new URL(/^https?:\/\//i.test(path) ? path : `${this.config.baseUrl}/v1${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    return url.toString();
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const options = req.options ?? {};
    const url = this.url(req.path, req.query);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
      ...req.headers,
      ...options.headers,
    };
    if (req.auth !== false && this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (req.rawBody !== undefined) {
      body = typeof req.rawBody === 'string' ? req.rawBody : new Uint8Array(req.rawBody);
      headers['Content-Type'] = req.rawType ?? 'application/json';
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['Content-Type'] = 'application/json';
    }
    // Made once per call: every retry of this call carries the same key, so the server answers it once.
    if (req.idempotent) headers['Idempotency-Key'] = options.idempotencyKey ?? randomUuid();

    for (let attempt = 0; ; attempt++) {
      const { response, text } = await this.send(url, req.method, headers, body, options);
      if (response.ok) return req.text ? (text as T) : parseSuccess<T>(response, text);
      const error = toApiError(response, text);
      const retryable = response.status === 429 || (response.status === 503 && error.retryAfter !== undefined);
      if (!retryable || attempt >= this.config.maxRetries) throw error;
      const waitMs = Math.max(1, error.retryAfter ?? 1) * 1000;
      // A wait longer than the caller allows is not worth starting: fail now, the caller decides.
      if (waitMs > this.config.maxRetryWaitMs) throw error;
      try {
        await sleep(waitMs, options.signal);
      } catch (cause) {
        throw new OnairTransportError('aborted', `${req.method} ${req.path} aborted while waiting to retry`, { cause });
      }
    }
  }

  private async send(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array<ArrayBuffer> | undefined,
    options: RequestOptions,
  ): Promise<{ response: Response; text: string }> {
    const fetchImpl = this.config.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw new TypeError('onair: no fetch on this platform; pass one as the `fetch` option');
    }
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (body !== undefined) init.body = body;
      const response = await fetchImpl(url, init);
      // The body is read under the same timeout: a server that stalls mid-answer is no answer.
      const text = await response.text();
      return { response, text };
    } catch (cause) {
      if (timedOut) {
        throw new OnairTransportError('timeout', `${method} ${url} got no answer within ${timeoutMs} ms`, { cause });
      }
      if (options.signal?.aborted) throw new OnairTransportError('aborted', `${method} ${url} aborted`, { cause });
      const reason = cause instanceof Error ? describeCause(cause) : String(cause);
      throw new OnairTransportError('network', `${method} ${url} failed: ${reason}`, { cause });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function describeCause(err: Error): string {
  // Node's fetch reports "fetch failed" and puts the reason (ECONNREFUSED…) in `cause`.
  const inner = (err as { cause?: unknown }).cause;
  return inner instanceof Error ? `${err.message} (${inner.message})` : err.message;
}

function parseSuccess<T>(response: Response, text: string): T {
  if (response.status === 204 || text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new OnairApiError({
      status: response.status,
      code: 'invalid_response',
      title: 'Invalid response',
      detail: `The server answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      requestId: response.headers.get('x-request-id') ?? undefined,
    });
  }
}

/** The OnairApiError for an error answer: its problem document, or `http_<status>` for any other body. */
export function toApiError(response: Response, text: string): OnairApiError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  let problem: ProblemDocument | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) problem = parsed as ProblemDocument;
  } catch {
    problem = undefined;
  }
  if (problem && typeof problem.code === 'string') {
    return new OnairApiError({
      status: response.status,
      code: problem.code,
      title: typeof problem.title === 'string' ? problem.title : response.statusText,
      detail: typeof problem.detail === 'string' ? problem.detail : (problem.title ?? ''),
      errors: Array.isArray(problem.errors) ? problem.errors.filter(isFieldError) : [],
      requestId,
      retryAfter,
      problem,
    });
  }
  const title = response.statusText || `HTTP ${response.status}`;
  return new OnairApiError({
    status: response.status,
    code: `http_${response.status}`,
    title,
    detail: text.trim().slice(0, 500) || title,
    requestId,
    retryAfter,
    problem: problem ?? {},
  });
}

function isFieldError(value: unknown): value is FieldError {
  const v = value as FieldError | null;
  return typeof v === 'object' && v !== null && typeof v.path === 'string' && typeof v.message === 'string';
}

/** `Retry-After` in whole seconds (at least 1): delta-seconds, or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.max(1, Number(trimmed));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(1, Math.ceil((date - now) / 1000));
}
