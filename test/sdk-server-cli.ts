/**
 * `npm run sdk:server`: starts the server an SDK suite runs against and prints the environment to export, for
 * running one SDK's tests by hand (sdks/README.md). Stops on Ctrl-C.
 */
import { startSdkServer } from './helpers/sdk-server.js';

const sdk = await startSdkServer();
process.stdout.write(
  '# onair test server is up; in another shell:\n' +
    Object.entries(sdk.env)
      .map(([name, value]) => `export ${name}=${value}\n`)
      .join('') +
    '# Ctrl-C stops it and deletes its data.\n',
);
const stop = () => void sdk.dispose().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
