/**
 * An HTTP proxy in front of a test server that passes plain requests and WebSocket upgrades through, until a test
 * shuts the gate: then the WebSockets through it are cut and new upgrades refused with 503, while REST requests
 * still go through (a client whose socket is down but whose server is reachable: what a REST fallback is for). It
 * records every plain request it passes (`GET /v1/…`), so a test can tell what a client asked over REST.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface UpgradeGate {
  port: number;
  /** Every plain (not upgrade) request passed, as `METHOD path`. */
  requests: string[];
  /** Cuts every WebSocket through the gate and refuses new ones (503); REST still passes. */
  shut(): void;
  open(): void;
  close(): Promise<void>;
}

export async function startUpgradeGate(targetPort: () => number): Promise<UpgradeGate> {
  let shut = false;
  const tunnels = new Set<net.Socket>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort(), method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if (shut) {
      client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const upstream = net.connect(targetPort(), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      tunnels.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        tunnels.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    shut() {
      shut = true;
      for (const socket of tunnels) socket.destroy();
    },
    open() {
      shut = false;
    },
    close() {
      for (const socket of tunnels) socket.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
