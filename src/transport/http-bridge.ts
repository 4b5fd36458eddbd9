/**
 * Bridges uWebSockets.js HTTP requests into a Fetch handler (the Hono app): the request is read by uws-request.ts
 * (copied before any await, checked, its body capped while it streams in), handed over as a light Fetch request,
 * and the answer written back.
 */
import { AppError } from '../errors.js';
import { keepResponseText, lightRequest, responseText } from '../http/buffered-body.js';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address.js';
import { internalError, problemParts } from '../http/problem-parts.js';
import { copyRequest, receive, respond, respondLater, type RequestOptions, type ResponseState } from './uws-request.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export type FetchHandler = (request: Request) => Promise<Response> | Response;

export interface BridgeOptions extends Omit<RequestOptions, 'headers'> {
  fetch: FetchHandler;
  onError: (err: unknown) => void;
}

export function createHttpBridge(options: BridgeOptions) {
  keepResponseText();
  return (res: HttpResponse, req: HttpRequest): void => {
    const state: ResponseState = { done: false };
    res.onAborted(() => (state.done = true));
    // Nothing a client sends may throw out of this callback: uWS would take the process down with it.
    let request;
    try {
      request = copyRequest(res, req, options);
    } catch (err) {
      options.onError(err);
      return respondLater(res, state, problemParts(unreadable()));
    }
    const refuse = (err: AppError) => respondLater(res, state, problemParts(err, request.requestId));
    receive(res, request, options, refuse, (body) => {
      // Built inside the chain: a header or URL the client made unreadable is an answer, never a throw.
      Promise.resolve()
        .then(() => options.fetch(fetchRequest(request, body)))
        .then((response) => send(res, state, response))
        .catch((err: unknown) => {
          if (err instanceof AppError) return refuse(err);
          options.onError(err);
          return refuse(internalError());
        });
    });
  };
}

/** The Fetch request the app sees: every header as sent, the request id settled, the client's address set. */
function fetchRequest(request: ReturnType<typeof copyRequest>, body: Uint8Array | null): Request {
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    try {
      headers.append(name, value);
    } catch {
      // uWS hands bytes that are not UTF-8 over as U+FFFD, which a Fetch header cannot hold.
      throw badHeader(name);
    }
  }
  headers.set('x-request-id', request.requestId);
  // Whatever the client sent under this name is overwritten.
  headers.set(CLIENT_ADDRESS_HEADER, request.client);
  const query = request.query ? `?${request.query}` : '';
  const url = `http://${hostOf(headers)}${request.path}${query}`;
  return lightRequest(url, request.method, headers, body as Uint8Array<ArrayBuffer> | null);
}

async function send(res: HttpResponse, state: ResponseState, response: Response): Promise<void> {
  const text = responseText(response);
  const body = text ?? (response.body ? new Uint8Array(await response.arrayBuffer()) : null);
  respond(res, state, response.status, response.headers, body, false);
}

/** A request names one host (RFC 9112, 3.2): two Host lines, or one that is not a host, is refused, never guessed. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function hostOf(headers: Headers): string {
  const host = headers.get('host');
  if (host === null) return 'localhost';
  if (HOST.test(host)) return host;
  throw new AppError('invalid_request', 'The request must carry one Host header naming one host.', {
    errors: [{ path: 'header host', message: 'one host, once' }],
  });
}

function badHeader(name: string): AppError {
  return new AppError('invalid_request', `Header ${name}: its value must be ASCII (or Latin-1) text.`, {
    errors: [{ path: `header ${name}`, message: 'not ASCII or Latin-1 text' }],
  });
}

function unreadable(): AppError {
  return new AppError('invalid_request', 'The request could not be read.');
}
