/**
 * The data sources benchmark's feeds (bench/sources.ts), in a process of their own so that their CPU is not
 * counted as the server's: JSON game feeds of about 1.5 KB on `origins` ports of 127.0.0.1 (one origin per
 * channel, as a league's feed host would be), plain HTTP or HTTPS (bench/lib/certificate.ts). Three kinds, by path:
 *
 * - `/live/<n>.json`: a new score at every request (every fetch applies a value);
 * - `/etag/<n>.json`: the same body with an ETag, and `304` to a request that sends it back;
 * - `/plain/<n>.json`: the same body, no validators (onair compares its SHA-256).
 *
 * It counts the answers by kind and status and the connections opened, and reports its own CPU time.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Certificate } from '../lib/certificate.js';
import { childConfig, ready, serveParent } from '../lib/child.js';

export const FEED_KINDS = ['live', 'etag', 'plain'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

interface Config {
  origins: number;
  /** HTTPS with this certificate (onair is told to trust it); plain HTTP without. */
  tls?: Certificate | undefined;
}

const TEAMS = ['Harbor City Hawks', 'Northfield Miners', 'Riverside Rovers', 'Eastgate Eagles', 'Summit Pioneers'];

/** A game as a league's feed publishes it: the score, the clock, and a box score nobody maps. */
export function gameBody(n: number, score: number): string {
  const players = (team: string) =>
    Array.from({ length: 6 }, (_, i) => ({ number: 4 + i * 3, name: `${team.split(' ')[1]} player ${i + 1}`, pts: i }));
  const home = TEAMS[n % TEAMS.length]!;
  const away = TEAMS[(n + 1) % TEAMS.length]!;
  return JSON.stringify({
    game: { id: `g-${n}`, status: 'live', venue: 'Arena', startsAt: '2026-11-23T19:00:00Z' },
    home: { name: home, score, fouls: 3, timeouts: 2, players: players(home) },
    away: { name: away, score: 40, fouls: 5, timeouts: 1, players: players(away) },
    period: 3,
    clock: { remainingMs: 312_000, running: true },
    updatedAt: '2026-11-23T20:14:05Z',
  });
}

const counts: Record<string, number> = {};
const bodies = new Map<string, string>();

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const match = /^\/(live|etag|plain)\/(\d+)\.json$/.exec(req.url ?? '');
  if (!match) return void res.writeHead(404).end();
  const kind = match[1] as FeedKind;
  const n = Number(match[2]);
  const count = (status: number) => (counts[`${kind} ${status}`] = (counts[`${kind} ${status}`] ?? 0) + 1);
  const json = { 'content-type': 'application/json' };
  if (kind === 'live') {
    count(200);
    return void res.writeHead(200, json).end(gameBody(n, 40 + (counts['live 200'] ?? 0)));
  }
  let body = bodies.get(req.url!);
  if (body === undefined) bodies.set(req.url!, (body = gameBody(n, 41)));
  if (kind === 'etag') {
    const etag = `"g-${n}-v1"`;
    if (req.headers['if-none-match'] === etag) {
      count(304);
      return void res.writeHead(304, { etag }).end();
    }
    count(200);
    return void res.writeHead(200, { ...json, etag }).end(body);
  }
  count(200);
  res.writeHead(200, json).end(body);
}

async function listen(tls: Certificate | undefined): Promise<number> {
  const server = tls ? https.createServer(tls, answer) : http.createServer(answer);
  // TLS servers count secure connections (handshakes), plain ones TCP connections.
  server.on(tls ? 'secureConnection' : 'connection', () => (counts.connections = (counts.connections ?? 0) + 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
  const cfg = childConfig<Config>();
  const ports: number[] = [];
  for (let i = 0; i < cfg.origins; i++) ports.push(await listen(cfg.tls));
  serveParent({ stats: () => ({ counts: { ...counts }, cpu: process.cpuUsage(), at: performance.now() }) });
  ready({ ports });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
