/**
 * The server an SDK's own test suite runs against: a real onair server on 127.0.0.1 port 0 with a fresh SQLite
 * data dir, a `*` API key, and a TLS certificate the server trusts for webhook deliveries, so the suite can run its
 * own HTTPS receiver with it (webhooks to loopback are allowed on this test server only). The suite gets it all
 * through environment variables (sdks/README.md, "Running the SDK suites"):
 *
 *   ONAIR_TEST_URL       base URL, no trailing slash (http://127.0.0.1:PORT)
 *   ONAIR_TEST_KEY       an API key with every permission
 *   ONAIR_TEST_TLS_CERT  PEM certificate file for 127.0.0.1 / localhost (also the CA the server trusts)
 *   ONAIR_TEST_TLS_KEY   its PEM private key file
 */
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './server.js';
import { testCertificate } from './webhook-receiver.js';

export interface SdkServer {
  server: TestServer;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function startSdkServer(): Promise<SdkServer> {
  const { cert, key } = await testCertificate();
  const server = await startTestServer(
    { webhookCa: cert },
    // Retries come quickly so a suite that makes its receiver fail sees them within a test's time.
    { ONAIR_WEBHOOK_ALLOW_PRIVATE: 'true', ONAIR_WEBHOOK_RETRY_DELAYS_MS: '200,400' },
  );
  const certFile = path.join(server.dir, 'receiver-cert.pem');
  const keyFile = path.join(server.dir, 'receiver-key.pem');
  fs.writeFileSync(certFile, cert);
  fs.writeFileSync(keyFile, key, { mode: 0o600 });
  return {
    server,
    env: {
      ONAIR_TEST_URL: server.url,
      ONAIR_TEST_KEY: server.key,
      ONAIR_TEST_TLS_CERT: certFile,
      ONAIR_TEST_TLS_KEY: keyFile,
    },
    dispose: () => server.dispose(),
  };
}
