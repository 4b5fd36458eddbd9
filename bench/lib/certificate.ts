/**
 * A self-signed certificate for 127.0.0.1, made once per run: the webhook receiver serves it, and onair and
 * the baseline sender are told to trust it (onair through startServer's `webhookCa`).
 */
import { generate } from 'selfsigned';

export interface Certificate {
  cert: string;
  key: string;
}

export async function selfSignedCertificate(): Promise<Certificate> {
  const pems = await generate([{ name: 'commonName', value: 'onair-bench' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
