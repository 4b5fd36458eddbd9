/**
 * A TCP proxy in front of a service the tests share (Redis, Postgres), so one test can take the service away from the
 * code under test — cut() closes every connection through it and refuses new ones, as a dead server would — and give
 * it back (restore()), without stopping the service for the other tests running at once.
 */
import net from 'node:net';

export interface TcpProxy {
  /** The proxy's own URL: `target` with the proxy's port. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Proxies to the host and port of `target` (a URL such as redis://127.0.0.1:6379) on a free port of 127.0.0.1. */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const to = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(to.port), to.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const url = new URL(target);
  url.port = String(port);
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    url: url.toString(),
    cut,
    restore: async () => void (await listen(port)),
    close: () => (server.listening ? cut() : Promise.resolve()),
  };
}
