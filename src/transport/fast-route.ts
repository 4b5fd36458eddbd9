/**
 * A route answered without building Fetch objects: the request is read by uws-request.ts like every other (copied,
 * checked, body capped), and a plain function (built by the API layer: api/inputs/fast-patch.ts) gets the headers it
 * reads, the path parameter and the body text, and returns status, headers and body. Used for
 * `PATCH /v1/channels/:id/inputs`, the hottest route; every other request goes through the bridge.
 */
import { AppError } from '../errors.js';
import { internalError, problemParts } from '../http/problem-parts.js';
import { copyRequest, receive, respond, respondLater, type RequestOptions, type ResponseState } from './uws-request.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export interface FastRouteRequest {
  channelId: string;
  requestId: string;
  /** One of the headers a fast route reads (see HEADERS); lower-case name. */
  header: (name: string) => string | undefined;
  body: string;
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
  const requestOptions: RequestOptions = { ...options, headers: HEADERS };
  return (res: HttpResponse, req: HttpRequest): void => {
    const state: ResponseState = { done: false };
    res.onAborted(() => (state.done = true));
    const request = copyRequest(res, req, requestOptions);
    const refuse = (err: AppError) => respondLater(res, state, problemParts(err, request.requestId));
    receive(res, request, requestOptions, refuse, (body) => {
      const fast: FastRouteRequest = {
        channelId: request.parameter,
        requestId: request.requestId,
        header: request.header,
        body: body ? decoder.decode(body) : '',
      };
      options
        .handler(fast)
        .then((answer) => respond(res, state, answer.status, Object.entries(answer.headers), answer.body, false))
        .catch((err: unknown) => {
          options.onError(err);
          refuse(err instanceof AppError ? err : internalError());
        });
    });
  };
}
