/**
 * A route answered without building Fetch objects: headers, one path parameter and the body text are
 * handed to a plain function (built by the API layer) that returns status, headers and body. Used for
 * `PATCH /v1/channels/:id/inputs`, the hottest route; every other request goes through the bridge.
 */
import { STATUS_CODES } from 'node:http';
import { AppError } from '../errors.js';
import { requestIdFrom } from '../http/request-id.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export interface FastRouteRequest {
  channelId: string;
  requestId: string;
  /** One of the headers a fast route reads (see HEADERS); lower-case name. */
  header(name: string): string | undefined;
  body: string;
}

export type FastRouteHandler = (
  req: FastRouteRequest,
) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

export interface FastRouteOptions {
  handler: FastRouteHandler;
  maxBodyBytes: number;
  problem: (error: AppError, requestId: string) => Response;
  accepting: () => boolean;
  onError: (err: unknown) => void;
}

const decoder = new TextDecoder();
const HEADERS = [
  'authorization',
  'cookie',
  'x-workspace',
  'origin',
  'sec-fetch-site',
  'host',
  'content-type',
  'content-length',
  'x-request-id',
] as const;

/** The headers a fast route reads, copied out of uWS's request (its data dies with the callback). */
class CopiedRequest implements FastRouteRequest {
  body = '';
  private readonly values: (string | undefined)[];

  constructor(
    req: HttpRequest,
    readonly channelId: string,
  ) {
    this.values = HEADERS.map((name) => req.getHeader(name) || undefined);
    this.requestId = requestIdFrom(this.values[HEADER_INDEX['x-request-id']]);
  }

  readonly requestId: string;

  header(name: string): string | undefined {
    const i = HEADER_INDEX[name as (typeof HEADERS)[number]];
    return i === undefined ? undefined : this.values[i];
  }
}

const HEADER_INDEX = Object.fromEntries(HEADERS.map((name, i) => [name, i])) as Record<
  (typeof HEADERS)[number],
  number
>;

function refuse(
  res: HttpResponse,
  state: { done: boolean },
  options: FastRouteOptions,
  request: CopiedRequest,
  err: AppError,
) {
  void writeProblem(res, state, options.problem(err, request.requestId));
}

export function createFastRoute(options: FastRouteOptions) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const state = { done: false };
    res.onAborted(() => (state.done = true));
    const request = new CopiedRequest(req, req.getParameter(0) ?? '');
    if (!options.accepting())
      return refuse(
        res,
        state,
        options,
        request,
        new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 }),
      );
    if (Number(request.header('content-length') ?? 0) > options.maxBodyBytes)
      return refuse(res, state, options, request, tooLarge());

    let chunks: Uint8Array[] | null = null;
    let total = 0;
    res.onData((chunk, isLast) => {
      if (state.done) return;
      total += chunk.byteLength;
      if (total > options.maxBodyBytes) return refuse(res, state, options, request, tooLarge());
      if (isLast && chunks === null) {
        // The usual case, one chunk: decode it in place (decoding copies it out of uWS's buffer).
        request.body = decoder.decode(chunk);
      } else {
        (chunks ??= []).push(new Uint8Array(chunk.slice(0)));
        if (!isLast) return;
        request.body = decoder.decode(Buffer.concat(chunks));
      }
      options
        .handler(request)
        .then((answer) => write(res, state, answer.status, answer.headers, answer.body, false))
        .catch((err: unknown) => {
          options.onError(err);
          refuse(res, state, options, request, new AppError('internal'));
        });
    });
  };
}

async function writeProblem(res: HttpResponse, state: { done: boolean }, response: Response): Promise<void> {
  const body = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  write(res, state, response.status, headers, body, true);
}

function write(
  res: HttpResponse,
  state: { done: boolean },
  status: number,
  headers: Record<string, string>,
  body: string,
  close: boolean,
): void {
  if (state.done) return;
  state.done = true;
  res.cork(() => {
    res.writeStatus(statusLine(status));
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
    res.end(body, close);
  });
}

const STATUS_LINES = new Map<number, string>();
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status);
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', 'Request bodies are limited to 64 KiB.');
}
