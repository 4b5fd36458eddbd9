/**
 * A real local feed for data sources: HTTP or HTTPS (the webhook receiver's self-signed certificate, for
 * 127.0.0.1, localhost and hooks.test) on 127.0.0.1, answering each path with a handler the test sets, and
 * recording every request's path and headers and every TCP connection.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCertificate } from './webhook-receiver.js';

export type FeedHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FeedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface FeedServer {
  /** `http(s)://127.0.0.1:port` */
  origin: string;
  port: number;
  requests: FeedRequest[];
  connections: number;
  /** Answers `path` (with its query) with `handler`; an unrouted path answers 404. */
  route(path: string, handler: FeedHandler): void;
  close(): Promise<void>;
}

/** A handler that answers `body` with `headers` (200 unless `status` says otherwise). */
export function answer(body: string | Buffer, headers: http.OutgoingHttpHeaders = {}, status = 200): FeedHandler {
  return (_req, res) => res.writeHead(status, headers).end(body);
}

/** A handler that redirects to `location`. */
export function redirectTo(location: string, status = 302): FeedHandler {
  return (_req, res) => res.writeHead(status, { location }).end();
}

export async function startFeedServer(options: { tls?: boolean } = {}): Promise<FeedServer> {
  const routes = new Map<string, FeedHandler>();
  const handle: FeedHandler = (req, res) => {
    const path = req.url ?? '';
    feed.requests.push({ path, headers: req.headers });
    const handler = routes.get(path) ?? answer('not here', { 'content-type': 'text/plain' }, 404);
    handler(req, res);
  };
  const server = options.tls ? https.createServer(await testCertificate(), handle) : http.createServer(handle);
  const feed: FeedServer = {
    origin: '',
    port: 0,
    requests: [],
    connections: 0,
    route: (path, handler) => routes.set(path, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => feed.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.port = (server.address() as AddressInfo).port;
  feed.origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${feed.port}`;
  return feed;
}
