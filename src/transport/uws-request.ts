/**
 * One HTTP request as uWebSockets.js hands it over, for both request paths (the bridge into the Hono app, and the fast
 * route): what is copied out of uWS before any await (uWS objects die with their callback), the checks every request
 * passes before its body is read (the server is accepting, the body's framing can be read one way only, it is not over
 * the limit), the body streamed in under the cap, and the answer written once. Every refusal closes the connection.
 */
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT_RULE } from '@onair/protocol';
import { AppError } from '../errors.js';
import { clientAddress } from '../http/client-address.js';
import { framingProblem } from '../http/framing.js';
import { requestIdFrom } from '../http/request-id.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export interface RequestOptions {
  maxBodyBytes: number;
  /** What a 413 past maxBodyBytes says; default: the JSON body limit's rule. */
  bodyLimitRule?: string | undefined;
  /** While false, every request is answered 503 and its connection closed. */
  accepting: () => boolean;
  /** Proxies whose X-Forwarded-For is believed (../http/client-address.ts). */
  trustedProxies: ReadonlySet<string>;
  /** The headers to copy (lower-case); all of them when absent. */
  headers?: ReadonlySet<string> | undefined;
  /** Whether the handler needs the client's address (reading it from uWS costs as much as the rest of the copy). */
  clientAddress?: boolean | undefined;
}

/** A request's data, copied out of uWS. */
export interface CopiedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  /** Lower-case name → value; a repeated header's values joined with ", " (Content-Length's too: then it is refused). */
  headers: Map<string, string>;
  header(name: string): string | undefined;
  requestId: string;
  /** The client's address (the peer, or what a trusted proxy says); '' when the options did not ask for it. */
  client: string;
  /** The first path parameter of the route (the fast route's channel id). */
  parameter: string;
}

/** Whether the request may still be answered: aborted, or answered already, means not. */
export interface ResponseState {
  done: boolean;
}

const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Set by the transport, never by the response being relayed. */
const SKIPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/** Copies what the request carries. A class, not a literal with closures: one is made per request. */
class Copied implements CopiedRequest {
  readonly headers = new Map<string, string>();
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly requestId: string;
  readonly client: string;
  readonly parameter: string;

  constructor(res: HttpResponse, req: HttpRequest, options: RequestOptions) {
    const { headers } = this;
    const wanted = options.headers;
    req.forEach((name, value) => {
      if (wanted && !wanted.has(name)) return;
      const seen = headers.get(name);
      headers.set(name, seen === undefined ? value : `${seen}, ${value}`);
    });
    this.method = req.getCaseSensitiveMethod().toUpperCase();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.requestId = requestIdFrom(headers.get('x-request-id'));
    this.client = options.clientAddress === false ? '' : addressOf(res, headers, options.trustedProxies);
    this.parameter = decodedPath(req.getParameter(0) ?? '');
  }

  header(name: string): string | undefined {
    return this.headers.get(name) || undefined;
  }
}

export function copyRequest(res: HttpResponse, req: HttpRequest, options: RequestOptions): CopiedRequest {
  return new Copied(res, req, options);
}

function addressOf(res: HttpResponse, headers: Map<string, string>, trusted: ReadonlySet<string>): string {
  const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
  return clientAddress(peer, headers.get('x-forwarded-for') ?? null, trusted);
}

/**
 * Runs the checks that come before the body, then reads it (under the cap) and hands it on; `refuse` answers a
 * refusal. The body is null for a method that has none.
 */
export function receive(
  res: HttpResponse,
  request: CopiedRequest,
  options: RequestOptions,
  refuse: (err: AppError) => void,
  handle: (body: Uint8Array | null) => void,
): void {
  if (!options.accepting()) {
    return refuse(new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 }));
  }
  const length = request.headers.get('content-length');
  const framing = framingProblem(length, request.headers.get('transfer-encoding'));
  if (framing) return refuse(new AppError('invalid_request', framing));
  const tooLarge = () => new AppError('payload_too_large', options.bodyLimitRule ?? BODY_LIMIT_RULE);
  if (Number(length ?? 0) > options.maxBodyBytes) return refuse(tooLarge());
  if (NO_BODY.has(request.method)) return handle(null);
  readBody(res, options.maxBodyBytes, () => refuse(tooLarge()), handle);
}

function readBody(res: HttpResponse, max: number, tooBig: () => void, done: (body: Uint8Array) => void): void {
  let chunks: Uint8Array[] | null = null;
  let total = 0;
  let refused = false;
  res.onData((chunk, isLast) => {
    if (refused) return;
    total += chunk.byteLength;
    if (total > max) {
      refused = true;
      return tooBig();
    }
    // The usual case, one chunk: copied once. uWS reuses the chunk's memory after this callback.
    if (isLast && chunks === null) return done(new Uint8Array(chunk.slice(0)));
    (chunks ??= []).push(new Uint8Array(chunk.slice(0)));
    if (isLast) done(Buffer.concat(chunks));
  });
}

/** Writes the answer, once; a response to an aborted request is dropped. */
export function respond(
  res: HttpResponse,
  state: ResponseState,
  status: number,
  headers: Iterable<[string, string]>,
  body: string | Uint8Array | null,
  close: boolean,
): void {
  if (state.done) return;
  state.done = true;
  res.cork(() => {
    res.writeStatus(statusLine(status));
    for (const [name, value] of headers) if (!SKIPPED_HEADERS.has(name.toLowerCase())) res.writeHeader(name, value);
    if (body !== null) res.end(body, close);
    else if (status === 204 || status === 304) res.endWithoutBody(0, close);
    else res.end(undefined, close);
  });
}

/**
 * Answers a refusal and closes the connection, on the next turn of the event loop. uWS first parses everything it
 * has already received: a request pipelined behind this one then finds a response pending, and uWS closes the
 * connection instead of reading it. Answered at once, the refused request would let it through, since uWS forgets
 * the pending close when the next request starts.
 */
export function respondLater(
  res: HttpResponse,
  state: ResponseState,
  answer: { status: number; headers: Record<string, string>; body: string },
): void {
  setImmediate(() => respond(res, state, answer.status, Object.entries(answer.headers), answer.body, true));
}

/** A path parameter as the Hono routes see it: percent-decoded, or as sent when it cannot be. */
function decodedPath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const STATUS_LINES = new Map<number, string>();
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status);
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
}
