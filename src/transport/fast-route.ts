/**
 * A route answered without building Fetch objects: headers, one path parameter and the body text are
 * handed to a plain function (built by the API layer) that returns status, headers and body. Used for
 * `PATCH /v1/channels/:id/inputs`, the hottest route; every other request goes through the bridge.
 */
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT_RULE } from '@onair/protocol';
import { AppError } from '../errors.js';
import { framingProblem } from '../http/framing.js';
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
  'transfer-encoding',
  'x-request-id',
] as const;
const HEADER_INDEX = new Map<string, number>(HEADERS.map((name, i) => [name, i]));
const CONTENT_LENGTH = HEADER_INDEX.get('content-length')!;
const TRANSFER_ENCODING = HEADER_INDEX.get('transfer-encoding')!;

/** The headers a fast route reads, copied out of uWS's request (its data dies with the callback). */
class CopiedRequest implements FastRouteRequest {
  body = '';
  readonly requestId: string;
  private readonly values: (string | undefined)[] = new Array<string | undefined>(HEADERS.length);

  constructor(
    req: HttpRequest,
    readonly channelId: string,
  ) {
    // One pass over every header, not getHeader per name: getHeader returns the first of a repeated header,
    // and a repeated Content-Length must be seen (http/framing.ts). Measured: under 1 µs more per request
    // with a script's six headers, about 3 µs with a browser's dozen.
    req.forEach((name, value) => {
      const i = HEADER_INDEX.get(name);
      if (i === undefined) return;
      const seen = this.values[i];
      if (seen === undefined) this.values[i] = value;
      else if (i === CONTENT_LENGTH || i === TRANSFER_ENCODING) this.values[i] = `${seen}, ${value}`;
    });
    this.requestId = requestIdFrom(this.values[HEADER_INDEX.get('x-request-id')!]);
  }

  header(name: string): string | undefined {
    const i = HEADER_INDEX.get(name);
    return i === undefined ? undefined : this.values[i] || undefined;
  }

  /** What is wrong with the body's framing, or null (an empty Content-Length counts: it is not a number). */
  framingProblem(): string | null {
    return framingProblem(this.values[CONTENT_LENGTH], this.values[TRANSFER_ENCODING]);
  }
}

interface ResponseState {
  /** Answered, or the connection is gone: nothing more may be written. */
  done: boolean;
  /** A refusal is on its way: the rest of the body is ignored. */
  refused: boolean;
}

/**
 * Answers with a problem and closes the connection, on the next turn of the event loop. uWS first parses
 * everything it has already received: a request pipelined behind this one then finds a response pending,
 * and uWS closes the connection instead of reading it. Answered at once, the refused request would let it
 * through, since uWS forgets the pending close when the next request starts.
 */
function refuse(
  res: HttpResponse,
  state: ResponseState,
  options: FastRouteOptions,
  request: CopiedRequest,
  err: AppError,
) {
  state.refused = true;
  const response = options.problem(err, request.requestId);
  setImmediate(() => void writeProblem(res, state, response));
}

export function createFastRoute(options: FastRouteOptions) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const state: ResponseState = { done: false, refused: false };
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
    const framing = request.framingProblem();
    if (framing) return refuse(res, state, options, request, new AppError('invalid_request', framing));
    if (Number(request.header('content-length') ?? 0) > options.maxBodyBytes)
      return refuse(res, state, options, request, tooLarge());

    let chunks: Uint8Array[] | null = null;
    let total = 0;
    res.onData((chunk, isLast) => {
      if (state.done || state.refused) return;
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

async function writeProblem(res: HttpResponse, state: ResponseState, response: Response): Promise<void> {
  const body = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  write(res, state, response.status, headers, body, true);
}

function write(
  res: HttpResponse,
  state: ResponseState,
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
  return new AppError('payload_too_large', BODY_LIMIT_RULE);
}
