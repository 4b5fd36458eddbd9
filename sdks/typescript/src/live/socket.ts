/**
 * Which WebSocket to use: the one passed in, else the platform's (browsers, Node 22+, Deno, Bun), else the `ws`
 * package (Node 20, which has no global WebSocket: `npm install ws`).
 */

/** What the live client needs of a WebSocket instance: the browser API, which `ws` also implements. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly protocol: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

/**
 * A WebSocket constructor: the standard `(url, protocols)`, or the `ws` package's, which also takes
 * `{ headers }` as a third argument.
 */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

/** 1 in every implementation; read from the instance's class when it has it. */
export const OPEN = 1;

export interface ResolvedWebSocket {
  WebSocket: WebSocketConstructor;
  /** True for the `ws` package (or alike): it can send an Authorization header and report refused upgrades. */
  nodeStyle: boolean;
}

export async function resolveWebSocket(given: WebSocketConstructor | undefined): Promise<ResolvedWebSocket> {
  if (given) return { WebSocket: given, nodeStyle: isNodeStyle(given) };
  const platform = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof platform === 'function') return { WebSocket: platform, nodeStyle: isNodeStyle(platform) };
  // A non-literal specifier: bundlers for the browser must not try to pack `ws` (the global is used there).
  const specifier = 'ws';
  let mod: { default?: unknown; WebSocket?: unknown };
  try {
    mod = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as typeof mod;
  } catch (cause) {
    throw new Error(
      'onair: this platform has no global WebSocket (Node 20): install the `ws` package (npm install ws), or pass a WebSocket constructor as the `WebSocket` option',
      { cause },
    );
  }
  const ctor = (typeof mod.default === 'function' ? mod.default : mod.WebSocket) as WebSocketConstructor | undefined;
  if (typeof ctor !== 'function') throw new Error('onair: the `ws` package did not export a WebSocket constructor');
  return { WebSocket: ctor, nodeStyle: true };
}

/** The `ws` package's sockets are Node EventEmitters with `terminate()`. */
function isNodeStyle(ctor: WebSocketConstructor): boolean {
  const proto = (ctor as unknown as { prototype?: Record<string, unknown> }).prototype;
  return typeof proto?.terminate === 'function' && typeof proto.on === 'function';
}

/** The `ws` package's extra surface, used when present. */
export interface NodeStyleSocket {
  on(event: 'unexpected-response', listener: (req: unknown, res: NodeStyleResponse) => void): void;
  terminate(): void;
}

export interface NodeStyleResponse {
  statusCode?: number;
  statusMessage?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): void;
  on(event: 'end' | 'error', listener: () => void): void;
}

export function asNodeStyle(socket: WebSocketLike): NodeStyleSocket | null {
  const s = socket as unknown as Partial<NodeStyleSocket>;
  return typeof s.on === 'function' && typeof s.terminate === 'function' ? (s as NodeStyleSocket) : null;
}
