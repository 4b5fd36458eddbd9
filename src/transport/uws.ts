/**
 * The only module that loads uWebSockets.js. The npm build we use falls back silently to a slow pure-JS
 * implementation when its native binary does not load; we refuse to run on that fallback.
 */
import { createRequire } from 'node:module';
import uWS from 'uWebSockets.js';

import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

export type {
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  us_listen_socket,
  us_socket_context_t,
  WebSocket,
} from 'uWebSockets.js';
export { uWS };

const require = createRequire(import.meta.url);

export class NativeUwsMissingError extends Error {}

/** Throws unless the native uWebSockets.js binary is the one loaded. */
export function assertNativeUws(): void {
  const binary = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  const loaded = Object.keys(require.cache).some((p) => p.endsWith(binary));
  if (!loaded || typeof (uWS as { getParts?: unknown }).getParts !== 'function') {
    throw new NativeUwsMissingError(
      `uWebSockets.js did not load its native binary ${binary} (Node ${process.version}, ${process.platform}/${process.arch}); ` +
        'it would fall back to a slow JavaScript mode, so onair refuses to start. Reinstall with `npm ci` on a supported platform.',
    );
  }
}

/** Exported by the binary (uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT) but missing from its typings. */
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

type ListenWithOptions = (
  host: string,
  port: number,
  options: number,
  cb: (socket: us_listen_socket | false) => void,
) => TemplatedApp;

/**
 * Listens without SO_REUSEPORT. uWS shares ports by default, so a second server started on a busy port
 * would bind too and the kernel would split connections between the two. The binary takes
 * (host, port, options, cb); its typings only declare the options without a host.
 */
export function listenExclusive(
  app: TemplatedApp,
  host: string,
  port: number,
  cb: (socket: us_listen_socket | false) => void,
): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, EXCLUSIVE_PORT, cb);
}

/**
 * Closes every connection the app still holds, HTTP keep-alive ones included (the binary has `close()`; its typings
 * do not declare it). Without it an idle keep-alive connection outlives a stopped server inside the same process.
 */
export function closeApp(app: TemplatedApp): void {
  (app as unknown as { close(): void }).close();
}
