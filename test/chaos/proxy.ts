/**
 * A broken server, made without touching the real one: an HTTP proxy in front of it that answers every
 * PATCH …/inputs with a 200 at once, as if it were stored, and passes it on to the server only a moment later,
 * the way a store that acknowledged before its commit would behave. Everything else is passed on as is (and
 * answered with no answer when the server dies under it). The crash suite run through it must find lost writes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LyingProxy {
  url: string;
  /** Where requests go now (the server's port changes with each start). */
  upstream: string;
  close(): Promise<void>;
}

export async function startLyingProxy(commitDelayMs: () => number): Promise<LyingProxy> {
  const proxy: LyingProxy = {
    url: '',
    upstream: '',
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const target = `${proxy.upstream}${req.url ?? '/'}`;
      const forward = () =>
        fetch(target, { method: req.method, headers, body, signal: AbortSignal.timeout(5000) }).then(async (r) => ({
          status: r.status,
          type: r.headers.get('content-type') ?? 'text/plain',
          text: await r.text(),
        }));
      const channel = /^\/v1\/channels\/([^/]+)\/inputs$/.exec(req.url ?? '');
      if (req.method === 'PATCH' && channel && body) {
        const inputs = JSON.parse(body.toString('utf8')) as unknown;
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ channelId: channel[1], frame: 0, inputs }));
        setTimeout(() => void forward().catch(() => undefined), commitDelayMs());
        return;
      }
      forward().then(
        (r) => res.writeHead(r.status, { 'content-type': r.type }).end(r.text),
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
