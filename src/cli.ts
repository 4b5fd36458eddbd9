/**
 * `npm start`: read the environment, start the server, say what to do next, drain on SIGTERM/SIGINT.
 */
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './main.js';
import { printBanner } from './banner.js';
import { NativeUwsMissingError } from './transport/uws.js';

async function run(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  printBanner(server);
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    server.logger.info({ signal }, 'draining');
    const force = setTimeout(() => {
      server.logger.error('drain timed out; exiting');
      process.exit(1);
    }, config.drainTimeoutMs);
    force.unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.logger.error({ err }, 'drain failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

run().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof NativeUwsMissingError;
  process.stderr.write(
    `onair could not start: ${known ? err.message : String((err as Error | undefined)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
