/**
 * The only module that loads uWebSockets.js. The npm build we use falls back silently to a slow pure-JS
 * implementation when its native binary does not load; we refuse to run on that fallback.
 */
import { createRequire } from 'node:module';
import uWS from 'uWebSockets.js';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket, WebSocket } from 'uWebSockets.js';
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
