/**
 * The webhook receiver of bench/webhooks.ts in its own process: a keep-alive HTTPS server that checks every
 * delivery's signature as docs/webhooks.md tells receivers to, answers 204, and records when each arrived
 * (on the same clock as onair's event `createdAt`: performance.timeOrigin + performance.now()). Paths under
 * `/hang` are never answered; so is everything on a second server (`hangPort`), another origin for a
 * receiver that never answers. `release` finally answers every request held.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { childConfig, LOCALHOST, ready, serveParent } from '../lib/child.js';
import type { Certificate } from '../lib/certificate.js';

/** What arrived since the last `take`, one entry per request, in order of arrival. */
export interface Arrivals {
  paths: string[];
  /** Index into `paths`. */
  path: number[];
  /** Arrival, ms since the epoch (fractional). */
  at: number[];
  /** The event's createdAt, ms since the epoch. */
  created: number[];
}

export interface ReceiverCounts {
  received: number;
  /** Requests whose signature or timestamp did not verify against the path's secret. */
  badSignatures: number;
  /** Requests with a (path, X-Service-Delivery) seen before. */
  duplicates: number;
  /** Requests held without an answer right now. */
  held: number;
}

const now = () => performance.timeOrigin + performance.now();
const secrets = new Map<string, string>();
const seen = new Set<string>();
const held = new Set<ServerResponse>();
const counts: ReceiverCounts = { received: 0, badSignatures: 0, duplicates: 0, held: 0 };
let arrivals: Arrivals = { paths: [], path: [], at: [], created: [] };
let pathIndex = new Map<string, number>();

function verified(path: string, headers: IncomingMessage['headers'], raw: Buffer): boolean {
  const secret = secrets.get(path);
  if (secret === undefined) return true;
  const timestamp = String(headers['x-service-timestamp'] ?? '');
  const signature = String(headers['x-service-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(raw);
  const want = Buffer.from(`v1=${mac.digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

function record(path: string, at: number, headers: IncomingMessage['headers'], raw: Buffer): void {
  counts.received++;
  if (!verified(path, headers, raw)) counts.badSignatures++;
  // A delivery sent twice is counted, not recorded again: arrivals hold each delivery once.
  const key = `${path} ${String(headers['x-service-delivery'])}`;
  if (seen.has(key)) return void counts.duplicates++;
  seen.add(key);
  let i = pathIndex.get(path);
  if (i === undefined) pathIndex.set(path, (i = arrivals.paths.push(path) - 1));
  arrivals.path.push(i);
  arrivals.at.push(at);
  arrivals.created.push(Date.parse((JSON.parse(raw.toString('utf8')) as { createdAt: string }).createdAt));
}

function handler(hangAll: boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const hang = hangAll || path.startsWith('/hang');
      if (hang) {
        counts.received++;
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      record(path, now(), req.headers, Buffer.concat(chunks));
      res.writeHead(204).end();
    });
  };
}

async function listen(cert: Certificate, hangAll: boolean): Promise<https.Server> {
  const server = https.createServer({ cert: cert.cert, key: cert.key, keepAliveTimeout: 60_000 }, handler(hangAll));
  await new Promise<void>((resolve) => server.listen(0, LOCALHOST, resolve));
  return server;
}

async function main(): Promise<void> {
  const cert = childConfig<Certificate>();
  const open = await listen(cert, false);
  const hang = await listen(cert, true);
  serveParent(
    {
      secrets: (args) => {
        for (const [path, secret] of Object.entries(args as Record<string, string>)) secrets.set(path, secret);
      },
      counts: (): ReceiverCounts => ({ ...counts, held: held.size }),
      take: (): Arrivals => {
        const out = arrivals;
        arrivals = { paths: [], path: [], at: [], created: [] };
        pathIndex = new Map();
        return out;
      },
      release: () => {
        for (const res of held) res.writeHead(204).end();
        held.clear();
      },
      stats: () => ({ cpu: process.cpuUsage(), at: performance.now() }),
    },
    () => {
      for (const s of [open, hang]) s.closeAllConnections();
    },
  );
  ready({ port: (open.address() as AddressInfo).port, hangPort: (hang.address() as AddressInfo).port });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
