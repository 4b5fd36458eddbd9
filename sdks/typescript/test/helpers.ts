/** Shared by the SDK's integration tests: a real server per file, a cuttable TCP proxy, a scoreboard channel. */
import net from 'node:net';
import { startSdkServer, type SdkServer } from '../../../test/helpers/sdk-server.js';
import { OnairClient, type OnairClientOptions } from '../src/index.js';
import type { Channel, Scene } from '../src/index.js';

export type { SdkServer };

/** A fresh onair server for one test file (its own data dir, rate limits and creates budget). */
export async function startServer(): Promise<SdkServer> {
  return startSdkServer();
}

export function clientFor(sdk: SdkServer, options: OnairClientOptions = {}): OnairClient {
  const env = sdk.env;
  return new OnairClient({ baseUrl: env.ONAIR_TEST_URL, apiKey: env.ONAIR_TEST_KEY, ...options });
}

/** A channel with the `scoreboard` template on it (inputs home, away, scoreA, scoreB…, clock gameClock). */
export async function scoreboardChannel(
  client: OnairClient,
  name: string,
): Promise<{ channel: Channel; scene: Scene }> {
  const channel = await client.channels.create({ name });
  const scene = await client.scenes.create(channel.id, { name: 'Score', template: 'scoreboard' });
  return { channel, scene };
}

/**
 * A TCP proxy in front of the server, for the WebSocket tests: `cut()` kills every connection through it (the
 * client sees a dropped line), `refuse` turns new connections away, and `mute()` silently swallows one
 * direction of the connections open now (a half-dead line: nothing arrives, nothing says so).
 */
export class TcpProxy {
  refuse = false;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket; muted: Set<'up' | 'down'> }>();
  private server!: net.Server;
  port = 0;
  accepted = 0;

  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy();
    proxy.server = net.createServer((client) => proxy.accept(client, targetPort));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get open(): number {
    return this.pairs.size;
  }

  private accept(client: net.Socket, targetPort: number): void {
    if (this.refuse) {
      client.destroy();
      return;
    }
    this.accepted++;
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, muted: new Set<'up' | 'down'>() };
    this.pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (!pair.muted.has('up')) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!pair.muted.has('down')) client.write(chunk);
    });
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }

  /** Drops every connection through the proxy, without a close frame. */
  cut(): void {
    for (const pair of [...this.pairs]) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  /** Swallows what the client sends (`up`) or what the server sends (`down`) on the connections open now. */
  mute(direction: 'up' | 'down'): void {
    for (const pair of this.pairs) pair.muted.add(direction);
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns true (for things observed from outside the SDK). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'a condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(20);
  }
}
