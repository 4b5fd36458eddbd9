/**
 * `onair start` (the default command, what `npm start` runs): start the server, say what to do next, and
 * drain on SIGTERM or SIGINT (README, Configuration: stop accepting, finish the tick, flush, close sockets
 * with 1001), then exit 0; exit 1 if the drain fails or outlasts ONAIR_DRAIN_TIMEOUT_MS.
 */
import { printBanner } from '../banner.js';
import { ConfigError, loadConfig } from '../config.js';
import { startServer, type ServerHandle } from '../main.js';
import { DataDirInUseError } from '../store/sqlite/data-dir-lock.js';
import { ListenError } from '../transport/server.js';
import { NativeUwsMissingError } from '../transport/uws.js';
import { explained } from './command-error.js';

export async function runStart(): Promise<void> {
  const config = await explained([ConfigError], () => loadConfig());
  // Listening before the server starts: a process manager may stop it while it is still starting, and the
  // default action would kill it without a drain.
  const signalled = firstSignal();
  const server = await explained([NativeUwsMissingError, DataDirInUseError, ListenError], () =>
    startServer(config).catch((err: unknown) => {
      throw withPortHint(err, config.port);
    }),
  );
  printBanner(server);
  void signalled.then((signal) => drain(server, signal, config.drainTimeoutMs));
}

/** A port in use is fixed by choosing another: the error says which setting does it. */
function withPortHint(err: unknown, port: number): unknown {
  if (!(err instanceof ListenError) || err.code !== 'EADDRINUSE') return err;
  const other = port < 65_535 ? port + 1 : port - 1;
  return new ListenError(`${err.message} Set ONAIR_PORT to another port (ONAIR_PORT=${other} npm start).`, err.code);
}

/**
 * Resolves with the first SIGTERM or SIGINT; later ones change nothing (a terminal's Ctrl-C reaches npm and
 * the server both, and npm passes it on too).
 */
function firstSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.on('SIGTERM', resolve);
    process.on('SIGINT', resolve);
  });
}

function drain(server: ServerHandle, signal: NodeJS.Signals, timeoutMs: number): void {
  server.logger.info({ signal }, 'draining');
  const force = setTimeout(() => {
    server.logger.error('drain timed out; exiting');
    process.exit(1);
  }, timeoutMs);
  force.unref();
  server.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      server.logger.error({ err }, 'drain failed');
      process.exit(1);
    },
  );
}
