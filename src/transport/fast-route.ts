/**
 * A route answered without building Fetch objects: the request is read by uws-request.ts like every other (copied,
 * checked, body capped), and a plain function (built by the API layer: api/inputs/fast-patch.ts) gets the headers it
 * reads, the path parameter and the body text, and returns status, headers and body. Used for
 * `PATCH /v1/channels/:id/inputs`, the hottest route; every other request goes through the bridge.
 */
import { AppError } from '../errors.js';
import { internalError, problemParts } from '../http/problem-parts.js';
import {
  copyRequest,
  receive,
  respond,
  respondLater,
  type CopiedRequest,
  type RequestOptions,
  type ResponseState,
} from './uws-request.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export interface FastRouteRequest {
  channelId: string;
  requestId: string;
  /** One of the headers a fast route reads (see HEADERS); lower-case name. */
  header(name: string): string | undefined;
  body: string;
}

/** What the handler gets: the copied request, with the route's parameter and the body's text. */
class FastRequest implements FastRouteRequest {
  constructor(
    private readonly request: CopiedRequest,
    readonly body: string,
  ) {}

  get channelId(): string {
    return this.request.parameter;
  }

  get requestId(): string {
    return this.request.requestId;
  }

  header(name: string): string | undefined {
    return this.request.header(name);
  }
}

export type FastRouteHandler = (
  req: FastRouteRequest,
) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

export interface FastRouteOptions extends Omit<RequestOptions, 'headers'> {
  handler: FastRouteHandler;
  onError: (err: unknown) => void;
}

/** The headers a fast route reads: credentials, CSRF, body framing and type, the request id. */
const HEADERS: ReadonlySet<string> = new Set([
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
]);
const decoder = new TextDecoder();

export function createFastRoute(options: FastRouteOptions) {
  // The fast route reads no client address: PATCH …/inputs has no per-address limit.
  const requestOptions: RequestOptions = { ...options, headers: HEADERS, clientAddress: false };
  return (res: HttpResponse, req: HttpRequest): void => {
    const state: ResponseState = { done: false };
    res.onAborted(() => (state.done = true));
    const request = copyRequest(res, req, requestOptions);
    const refuse = (err: AppError) => respondLater(res, state, problemParts(err, request.requestId));
    receive(res, request, requestOptions, refuse, (body) => {
      options
        .handler(new FastRequest(request, body ? decoder.decode(body) : ''))
        .then((answer) => respond(res, state, answer.status, Object.entries(answer.headers), answer.body, false))
        .catch((err: unknown) => {
          options.onError(err);
          refuse(err instanceof AppError ? err : internalError());
        });
    });
  };
}
