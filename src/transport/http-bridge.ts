/**
 * Bridges uWebSockets.js HTTP requests into a Fetch handler (the Hono app). Request data is copied before
 * any await (uWS objects die with their callback); bodies are capped while they stream in, so an oversized
 * upload is refused without being buffered; a request whose framing could be read two ways is refused
 * (http/framing.ts). Every refusal closes the connection.
 */
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT_RULE } from '@onair/protocol';
import { AppError } from '../errors.js';
import { keepResponseText, lightRequest, responseText } from '../http/buffered-body.js';
import { framingProblem } from '../http/framing.js';
import { clientAddress } from '../http/client-address.js';
import { requestIdFrom } from '../http/request-id.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export type FetchHandler = (request: Request) => Promise<Response> | Response;

export interface BridgeOptions {
  fetch: FetchHandler;
  maxBodyBytes: number;
  /** Proxies whose X-Forwarded-For is believed (../http/client-address.ts). */
  trustedProxies: ReadonlySet<string>;
  /** Builds the problem+json response for errors raised here (400, 413, 503), with the request id. */
  problem: (error: AppError, requestId: string) => Response;
  /** While false, every request is answered 503 and its connection closed. */
  accepting: () => boolean;
  onError: (err: unknown) => void;
}

const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
const SKIPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

export function createHttpBridge(options: BridgeOptions) {
  keepResponseText();
  return (res: HttpResponse, req: HttpRequest): void => {
    const state = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    // Nothing a client sends may throw out of this callback: uWS would take the process down with it.
    try {
      bridge(res, req, state);
    } catch (err) {
      const refusal = err instanceof AppError ? err : new AppError('invalid_request', 'The request could not be read.');
      if (!(err instanceof AppError)) options.onError(err);
      refuse(res, state, options.problem(refusal, requestIdFrom(null)));
    }
  };

  function bridge(res: HttpResponse, req: HttpRequest, state: { aborted: boolean }): void {
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const query = req.getQuery();
    const headers = new Headers();
    req.forEach((key, value) => {
      try {
        headers.append(key, value);
      } catch {
        // uWS hands bytes that are not UTF-8 over as U+FFFD, which a Fetch header cannot hold.
        throw new AppError('invalid_request', `Header ${key}: its value must be ASCII (or Latin-1) text.`, {
          errors: [{ path: `header ${key}`, message: 'not ASCII or Latin-1 text' }],
        });
      }
    });
    const url = `http://${headers.get('host') ?? 'localhost'}${req.getUrl()}${query ? `?${query}` : ''}`;
    // Settled here so that answers made outside the app (413, 503) carry the same id the app would use.
    const requestId = requestIdFrom(headers.get('x-request-id'));
    headers.set('x-request-id', requestId);
    // The client's address for per-client limits; whatever the client sent under this name is overwritten.
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    headers.set('x-onair-client', clientAddress(peer, headers.get('x-forwarded-for'), options.trustedProxies));
    const problem = (err: AppError) => options.problem(err, requestId);

    if (!options.accepting()) {
      return refuse(
        res,
        state,
        problem(new AppError('unavailable', 'The server is shutting down.', { retryAfter: 1 })),
      );
    }
    const length = headers.get('content-length') ?? undefined;
    const framing = framingProblem(length, headers.get('transfer-encoding') ?? undefined);
    if (framing) return refuse(res, state, problem(new AppError('invalid_request', framing)));
    if (Number(length ?? 0) > options.maxBodyBytes) return refuse(res, state, problem(tooLarge()));

    const dispatch = (body: Uint8Array<ArrayBuffer> | null) => {
      // Built inside the chain: a URL the client made unreadable (its Host) is an answer, never a throw.
      Promise.resolve()
        .then(() => options.fetch(lightRequest(url, method, headers, body)))
        .then((response) => send(res, state, response, false))
        .catch((err: unknown) => {
          options.onError(err);
          return send(res, state, problem(new AppError('internal')), true);
        });
    };
    if (NO_BODY.has(method)) dispatch(null);
    else readBody(res, state, options.maxBodyBytes, () => problem(tooLarge()), dispatch);
  }
}

function readBody(
  res: HttpResponse,
  state: { aborted: boolean },
  maxBodyBytes: number,
  refusal: () => Response,
  done: (body: Uint8Array<ArrayBuffer>) => void,
): void {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let refused = false;
  res.onData((chunk, isLast) => {
    if (refused) return;
    total += chunk.byteLength;
    if (total > maxBodyBytes) {
      refused = true;
      refuse(res, state, refusal());
      return;
    }
    // The chunk's memory is reused by uWS after this callback: copy it.
    chunks.push(new Uint8Array(chunk.slice(0)));
    if (isLast) done(concat(chunks, total));
  });
}

/**
 * Answers and closes the connection on the next turn of the event loop. uWS first parses everything it has
 * already received: a request pipelined behind this one then finds a response pending, and uWS closes the
 * connection instead of reading it. Answered at once, the refused request would let it through, since uWS
 * forgets the pending close when the next request starts.
 */
function refuse(res: HttpResponse, state: { aborted: boolean }, response: Response): void {
  setImmediate(() => void send(res, state, response, true));
}

async function send(
  res: HttpResponse,
  state: { aborted: boolean },
  response: Response,
  closeConnection: boolean,
): Promise<void> {
  const text = responseText(response);
  const body = text ?? (response.body ? new Uint8Array(await response.arrayBuffer()) : null);
  if (state.aborted) return;
  state.aborted = true; // a response may be sent only once
  res.cork(() => {
    res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? ''}`);
    response.headers.forEach((value, key) => {
      if (!SKIPPED_HEADERS.has(key)) res.writeHeader(key, value);
    });
    if (body) res.end(body, closeConnection);
    else if (response.status === 204 || response.status === 304) res.endWithoutBody(0, closeConnection);
    else res.end(undefined, closeConnection);
  });
}

function concat(chunks: Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', BODY_LIMIT_RULE);
}
