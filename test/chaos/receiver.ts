/**
 * The outgoing-webhook endpoint of the crash suite: a local HTTPS server (the certificate of
 * test/helpers/webhook-receiver.ts, which the child server trusts through NODE_EXTRA_CA_CERTS) that lives in the
 * test process, so it sees every attempt across every kill of the server. It records each request with the
 * answer it gave, and fails the first attempt of about one event in ten (500), so retries happen too; every
 * later attempt of that event succeeds. It never fails two attempts in a row for one event, and at most one
 * event in ten on a first attempt: the subscription can never collect 20 consecutive failures by chance
 * alone (that needs 20 distinct unlucky first attempts with no success in between).
 */
import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCertificate } from '../helpers/webhook-receiver.js';

export interface Arrival {
  at: number;
  /** X-Service-Delivery */
  deliveryId: string;
  headers: Record<string, string>;
  raw: Buffer;
  /** The body parsed, or null when it is not JSON. */
  json: Record<string, unknown> | null;
  /** What this receiver answered. */
  status: number;
}

export interface ChaosReceiver {
  url: string;
  arrivals: Arrival[];
  /** Event ids answered with a 2xx at least once. */
  accepted: Set<string>;
  close(): Promise<void>;
}

/** The events whose first attempt is refused: decided by the id, so the same every time. */
export function failsFirstAttempt(eventId: string): boolean {
  return crypto.createHash('sha256').update(eventId).digest()[0]! < 26; // about 10 %
}

export async function startChaosReceiver(): Promise<ChaosReceiver> {
  const { cert, key } = await testCertificate();
  const seen = new Set<string>();
  const receiver: ChaosReceiver = {
    url: '',
    arrivals: [],
    accepted: new Set(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        json = null;
      }
      const deliveryId = headers['x-service-delivery'] ?? '';
      const first = !seen.has(deliveryId);
      seen.add(deliveryId);
      const status = first && failsFirstAttempt(deliveryId) ? 500 : 204;
      receiver.arrivals.push({ at: Date.now(), deliveryId, headers, raw, json, status });
      if (status < 300) receiver.accepted.add(deliveryId);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
