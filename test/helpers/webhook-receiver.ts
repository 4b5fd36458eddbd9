/**
 * A real local HTTPS receiver for outgoing webhooks: a self-signed certificate for 127.0.0.1 and
 * `hooks.test` (the server under test is told to trust it), every request recorded with its raw body, and
 * answers chosen per request or per path (a status, a redirect, or never answering). It counts the requests
 * open at once (received, not yet answered, connection not closed), now and at most since `resetOpen`.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface Received {
  at: number;
  path: string;
  headers: Record<string, string>;
  raw: Buffer;
  json: {
    id: string;
    type: string;
    orgId: string;
    channelId: string | null;
    createdAt: string;
    data: Record<string, unknown>;
  };
}

/** What to answer: a status (with an optional Location), or 'hang' (never answer). */
export type Answer = number | 'hang' | { status: number; location: string };

let certificate: Promise<{ cert: string; key: string }> | null = null;

/** One certificate per test process: generating an RSA key takes a moment. */
export function testCertificate(): Promise<{ cert: string; key: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'hooks.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'hooks.test' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  }).then((p) => ({ cert: p.cert, key: p.private }));
  return certificate;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers for the next requests, in order; afterwards `fallback`. */
  answers: Answer[];
  fallback: Answer;
  /** Consulted first: an answer for this path, or undefined for the rules above. */
  route: (path: string) => Answer | undefined;
  /** Requests open now, and the most open at once since `resetOpen()` (`prefix`: only paths starting so). */
  open(prefix?: string): number;
  maxOpen: number;
  resetOpen(prefix?: string): void;
  close(): Promise<void>;
}

export async function startReceiver(fallback: Answer = 200): Promise<Receiver> {
  const { cert, key } = await testCertificate();
  const hanging = new Set<import('node:http').ServerResponse>();
  const opened = new Map<import('node:http').ServerResponse, string>();
  let watched = '';
  const openNow = (prefix = '') => [...opened.values()].filter((p) => p.startsWith(prefix)).length;
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answers: [],
    fallback,
    route: () => undefined,
    open: openNow,
    maxOpen: 0,
    resetOpen(prefix = '') {
      watched = prefix;
      receiver.maxOpen = openNow(prefix);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = https.createServer({ cert, key }, (req, res) => {
    opened.set(res, req.url ?? '');
    receiver.maxOpen = Math.max(receiver.maxOpen, openNow(watched));
    res.on('close', () => opened.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let json: Received['json'];
      try {
        json = JSON.parse(raw.toString('utf8')) as Received['json'];
      } catch {
        json = { id: '', type: '', orgId: '', channelId: null, createdAt: '', data: {} };
      }
      receiver.received.push({ at: Date.now(), path: req.url ?? '', headers, raw, json });
      const answer = receiver.route(req.url ?? '') ?? receiver.answers.shift() ?? receiver.fallback;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'number') {
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : `no ${answer}`);
      } else {
        res.writeHead(answer.status, { location: answer.location }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `https://127.0.0.1:${receiver.port}`;
  return receiver;
}

/**
 * Checks a delivery exactly as a receiver following docs/webhooks.md would: the signature over the raw body
 * with the secret's UTF-8 bytes, in constant time, and the timestamp within 300 s. The header may carry several
 * `v1=` signatures separated by spaces (a secret being rolled): one matching is enough. Answers what is wrong, or
 * null.
 */
export function verifyDelivery(r: Received, secret: string, now = Date.now()): string | null {
  const timestamp = r.headers['x-service-timestamp'];
  const header = r.headers['x-service-signature'];
  if (!timestamp || !/^\d+$/.test(timestamp)) return 'no X-Service-Timestamp in Unix seconds';
  const signatures = (header ?? '').split(' ').filter((s) => s.startsWith('v1='));
  if (signatures.length === 0) return 'no v1= X-Service-Signature';
  if (Math.abs(now / 1000 - Number(timestamp)) > 300) return 'timestamp outside 300 s';
  const expected = crypto
    .createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), r.raw]))
    .digest('hex');
  const want = Buffer.from(expected, 'utf8');
  // Compared byte for byte with the lowercase hex: an upper-case signature does not match.
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature.slice(3), 'utf8');
    return given.length === want.length && crypto.timingSafeEqual(given, want);
  });
  return matches ? null : 'signature mismatch';
}

/** The `v1=` signatures in a delivery's X-Service-Signature. */
export function signaturesOf(r: Received): string[] {
  return (r.headers['x-service-signature'] ?? '').split(' ');
}
