/**
 * Target 3 — REST: a full `PATCH /v1/channels/:id/inputs` (auth, validation, rate-limit check, durable
 * group commit, answer after the tick) across 1,000 channels, against raw uWebSockets.js HTTP answering
 * the same request without doing anything, bare Hono on @hono/node-server checking the key (the targets'
 * "small authenticated PATCH", docs/performance.md), and bare node:http.
 *
 *   npx tsx bench/rest.ts [--short] [--profile]
 */
import { sleep, startChild, type Child } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { settle } from './lib/machine.js';
import { startOnair } from './lib/onair.js';
import { cpuShare } from './lib/stats.js';
import { fmt, infoRow, ratioRow, type Row, type Table } from './lib/table.js';
import type { HttpLoadResult } from './clients/http-load.js';

const CHANNELS = 1000;
type Kind = 'uws' | 'hono' | 'hono-open' | 'node' | 'onair' | 'onair-logged';
const NAMES: Record<Kind, string> = {
  uws: 'raw uWS HTTP (no-op)',
  hono: 'Hono on @hono/node-server, checking the key',
  'hono-open': 'Hono on @hono/node-server, no key check',
  node: 'node:http (no-op)',
  onair: 'onair',
  'onair-logged': 'onair logging every request (info, the default)',
};

interface Measured extends HttpLoadResult {
  serverCpu: number;
  busy: number;
  /** Lowest and highest rate of the rounds (set on the median round that stands for them). */
  range?: [number, number];
}

interface Server {
  port: number;
  key: string;
  paths: string[];
  stats(): Promise<{ cpu: NodeJS.CpuUsage; at: number }>;
  profile?: (on: boolean, file: string) => Promise<unknown>;
  stop(): Promise<void>;
}

async function startServer(kind: Kind): Promise<Server> {
  if (kind === 'onair' || kind === 'onair-logged') {
    const o = await startOnair({ channels: CHANNELS, accessLog: kind === 'onair-logged' });
    return {
      port: o.port,
      key: o.key,
      paths: o.channels.map((c) => `/v1/channels/${c.id}/inputs`),
      stats: () => o.child.request('stats'),
      profile: (on, file) => o.child.request(on ? 'profileStart' : 'profileStop', { file }),
      stop: () => o.stop(),
    };
  }
  const key = 'onair_sk_CheckedByHonoOnly0123456789abcdefgh';
  const child = await startChild('bench/servers/http-baselines.ts', { config: { kind, key } });
  return {
    port: child.info.port as number,
    key,
    paths: Array.from({ length: CHANNELS }, (_, i) => `/v1/channels/ch_${String(i).padStart(32, '0')}/inputs`),
    stats: () => child.request('stats'),
    stop: () => child.stop(),
  };
}

/** A server under test with its own load generator, started once and measured in several rounds. */
interface Subject {
  kind: Kind;
  server: Server;
  load: Child;
  busy: number;
}

async function open(kind: Kind, o: BenchOptions): Promise<Subject> {
  const busy = await settle(o.short);
  const server = await startServer(kind);
  const load = await startChild('bench/clients/http-load.ts', {
    config: {
      port: server.port,
      method: 'PATCH',
      paths: server.paths,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: '{"scoreA":3}',
    },
  });
  await load.request('run', { connections: CHANNELS, seconds: 1 }); // warm-up
  return { kind, server, load, busy };
}

async function round(x: Subject, seconds: number, profileFile?: string): Promise<Measured> {
  await sleep(200);
  if (profileFile) await x.server.profile?.(true, '');
  const s0 = await x.server.stats();
  const r = await x.load.request<HttpLoadResult>('run', { connections: CHANNELS, seconds });
  const s1 = await x.server.stats();
  if (profileFile) await x.server.profile?.(false, profileFile);
  return { ...r, serverCpu: cpuShare(s0.cpu, s1.cpu, s1.at - s0.at), busy: x.busy };
}

/**
 * Every server is started once, then measured in rounds that take turns (uWS, onair, Hono, … then again),
 * so a slow minute on this shared machine hits every server alike; each server's figure is its median round.
 */
async function measureAll(kinds: readonly Kind[], o: BenchOptions): Promise<Record<Kind, Measured>> {
  const subjects: Subject[] = [];
  const rounds = new Map<Kind, Measured[]>(kinds.map((k) => [k, []]));
  try {
    for (const kind of kinds) subjects.push(await open(kind, o));
    for (let i = 0; i < ROUNDS; i++) {
      for (const x of subjects) {
        const profile = o.profile && x.kind === 'onair' && i === 0 ? 'bench/results/prof/rest.cpuprofile' : undefined;
        const m = await round(x, o.short ? 2 : 5, profile);
        rounds.get(x.kind)!.push(m);
        console.error(`rest ${x.kind} round ${i + 1}: ${fmt.rate(m.okPerSec)} (p50 ${m.p50} ms, p99 ${m.p99} ms)`);
      }
    }
  } finally {
    for (const x of subjects) {
      await x.load.stop();
      await x.server.stop();
    }
  }
  const median = (ms: Measured[]) => [...ms].sort((a, b) => a.okPerSec - b.okPerSec)[Math.floor(ms.length / 2)]!;
  return Object.fromEntries(
    kinds.map((k) => [k, { ...median(rounds.get(k)!), range: rangeOf(rounds.get(k)!) }]),
  ) as Record<Kind, Measured>;
}

const ROUNDS = 3;

function rangeOf(ms: Measured[]): [number, number] {
  const rates = ms.map((m) => m.okPerSec);
  return [Math.min(...rates), Math.max(...rates)];
}

function rows(m: Record<Kind, Measured>): Row[] {
  const lat = (k: Kind) => `p50 ${m[k].p50} ms, p99 ${m[k].p99} ms`;
  const span = (k: Kind) => (m[k].range ? `${fmt.rate(m[k].range[0])}–${fmt.rate(m[k].range[1])}` : '—');
  const perCpu = (k: Kind) => m[k].okPerSec / Math.max(0.01, m[k].serverCpu);
  return [
    ratioRow('PATCH answered 2xx per second', NAMES.uws, m.uws.okPerSec, m.onair.okPerSec, fmt.rate, { min: 0.5 }),
    ratioRow('PATCH answered 2xx per second', NAMES.hono, m.hono.okPerSec, m.onair.okPerSec, fmt.rate, { min: 1 }),
    infoRow(
      'PATCH answered 2xx per second',
      `${NAMES['hono-open']}: ${fmt.rate(m['hono-open'].okPerSec)}`,
      fmt.rate(m.onair.okPerSec),
      fmt.x(m.onair.okPerSec / m['hono-open'].okPerSec),
    ),
    infoRow(
      'PATCH answered 2xx per second',
      `${NAMES.node}: ${fmt.rate(m.node.okPerSec)}`,
      fmt.rate(m.onair.okPerSec),
      fmt.x(m.onair.okPerSec / m.node.okPerSec),
    ),
    infoRow(
      `PATCH 2xx per second, lowest–highest of ${ROUNDS} rounds`,
      `uWS ${span('uws')}; Hono ${span('hono')}; open Hono ${span('hono-open')}`,
      span('onair'),
    ),
    infoRow(
      'PATCH answered 2xx per second, onair logging every request (info, the default of npm start)',
      'onair at warn (the rows above)',
      fmt.rate(m['onair-logged'].okPerSec),
      `${fmt.x(m['onair-logged'].okPerSec / m.onair.okPerSec)}; ${fmt.rate(perCpu('onair-logged'))} per CPU-second`,
    ),
    infoRow('latency', `uWS ${lat('uws')}; Hono ${lat('hono')}`, lat('onair')),
    infoRow(
      'server CPU (one core = 100 %)',
      `uWS ${fmt.pct(m.uws.serverCpu)}; Hono ${fmt.pct(m.hono.serverCpu)}`,
      fmt.pct(m.onair.serverCpu),
    ),
    infoRow(
      '2xx per server CPU-second',
      `uWS ${fmt.rate(perCpu('uws'))}; Hono ${fmt.rate(perCpu('hono'))}`,
      fmt.rate(perCpu('onair')),
      fmt.x(perCpu('onair') / perCpu('hono')) + ' of Hono',
    ),
    infoRow(
      'answers other than 2xx (429 from the updates limit, 30/s per channel)',
      '—',
      `${fmt.rate(m.onair.non2xx / m.onair.seconds)}`,
    ),
  ];
}

export async function runRest(o: BenchOptions): Promise<Table[]> {
  const m = await measureAll(['uws', 'onair', 'hono', 'hono-open', 'node', 'onair-logged'], o);
  const notes = [
    'Baselines: raw uWS answers without reading anything; bare Hono checks the bearer key (SHA-256 looked up in a Map), parses the JSON body and answers with JSON, ' +
      'the "small authenticated PATCH" of the targets\' reference figures; node:http reads the body and answers.',
    `Each server is started once and measured in ${ROUNDS} rounds that take turns with the other servers; a row shows its median round. ` +
      `autocannon in its own process, ${CHANNELS} connections, connection i patching channel i with {"scoreA":3} and an API key; ` +
      'no HTTP pipelining (uWebSockets.js v20.30 aborts a request whose answer is pending when the next pipelined request arrives, so onair cannot be pipelined).',
    'onair: the real server, ONAIR_DB_SYNC=full (the WAL is flushed with fdatasync off the event loop, one flush for the ticks written meanwhile), its answer sent once the tick that applied the patch is on disk. ' +
      'The updates limit (30/s per channel) is enforced as in production: 1,000 channels × 30/s admits up to 30 k/s, above what one core answers, ' +
      'and a 429 does not count as 2xx. ' +
      'Logging: onair runs at ONAIR_LOG_LEVEL=warn, since the baselines log nothing; `npm start` logs one JSON line per request at info, and the ' +
      '"logging every request" row measures that, through the same asynchronous pino destination as stdout, into /dev/null (the cost of building and writing each line, not of a log collector).',
    `Load generator CPU: ${(['uws', 'onair', 'hono'] as const).map((k) => `${k} ${fmt.pct(m[k].cpu)}`).join(', ')} (near 100 % means the baseline is client-bound and its ratio flatters onair).`,
  ];
  const busiest = Math.max(...Object.values(m).map((x) => x.busy));
  if (busiest > 0.15) notes.push(`The machine was up to ${fmt.pct(busiest)} busy before a run.`);
  return [
    {
      title: 'REST PATCH (target 3)',
      command: `npx tsx bench/rest.ts${o.short ? ' --short' : ''}`,
      rows: rows(m),
      notes,
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runRest);
