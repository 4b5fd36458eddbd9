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

export function createFastRoute(options: FastRouteOptions) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const state = { done: false };
    res.onAborted(() => (state.done = true));
    // Only the headers the route reads (uWS request data dies with this callback, so copy them now).
    const headers = new Map<string, string>();
    for (const name of HEADERS) {
      const value = req.getHeader(name);
      if (value) headers.set(name, value);
    }
    const requestId = requestIdFrom(headers.get('x-request-id'));
    const channelId = req.getParameter(0) ?? '';
    const refuse = (err: AppError) => void writeProblem(res, state, options.problem(err, requestId));
    if (!options.accepting())
      return refuse(new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 }));
    if (Number(headers.get('content-length') ?? 0) > options.maxBodyBytes) return refuse(tooLarge());

    const chunks: Uint8Array[] = [];
    let total = 0;
    res.onData((chunk, isLast) => {
      if (state.done) return;
      total += chunk.byteLength;
      if (total > options.maxBodyBytes) return refuse(tooLarge());
      chunks.push(new Uint8Array(chunk.slice(0)));
      if (!isLast) return;
      const body = chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(Buffer.concat(chunks));
      options
        .handler({ channelId, requestId, header: (name) => headers.get(name), body })
        .then((answer) => write(res, state, answer.status, answer.headers, answer.body, false))
        .catch((err: unknown) => {
          options.onError(err);
          refuse(new AppError('internal'));
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
    res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
    res.end(body, close);
  });
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', 'Request bodies are limited to 64 KiB.');
}
