/**
 * onair nodes for bench/cluster.ts: N real `src/cli.ts` processes on one Postgres schema and one Redis prefix of
 * their own (docs/architecture/several-nodes.md), so two arms of one run never meet. The node count is the only
 * thing that differs between arms: one node is started with the very same settings (Postgres + Redis) as three.
 *
 * Nodes log at warn (as the other benchmarks do: logging every request would be measured too); what they log is kept
 * and summarised, since a warning under load is a finding. The port is chosen here and readiness is `/healthz` 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freshSchema, serviceUrl, uniqueName, type TestSchema } from '../../test/helpers/services.js';
import { LOCALHOST, ROOT, sleep } from './child.js';

export const CLUSTER_BENCH_KEY = 'onair_sk_ClusterBench0123456789abcdefghij';
const SECRET_KEY = 'cluster-bench-secret-key-0123456789abcdef';

/** Node processes alive: killed when this process exits however it exits (a crash, Ctrl-C), so none is left running. */
const alive = new Set<ChildProcess>();
let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const child of alive) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
}

export interface BenchNode {
  id: string;
  port: number;
  url: string;
  process: ChildProcess;
}

/** What a node wrote to its logs (warn and above, and stderr beyond the start-up banner). */
export interface NodeLog {
  node: string;
  /** Log lines by level name and message, with how often each came. */
  lines: Map<string, number>;
  /** The first line of each kind, as written. */
  examples: Map<string, string>;
}

export interface BenchChannel {
  id: string;
  token: string;
}

export interface BenchCluster {
  nodes: BenchNode[];
  schema: TestSchema;
  prefix: string;
  logs: NodeLog[];
  /** From now on, anything a node writes to stderr is kept (before: the start-up banner). */
  watchStderr(): void;
  /** channel id → node id holding its live lease (the owner: the node that ticks it). */
  owners(channelIds: readonly string[]): Promise<Map<string, string | null>>;
  /**
   * Creates `count` channels with a scoreboard on air, through the REST API, taking the nodes in turn; resolves once
   * every channel has an owner and the owners have not changed for `stableMs`.
   */
  createChannels(count: number, stableMs?: number): Promise<BenchChannel[]>;
  /**
   * The Postgres processes working for this arm: its nodes' connections (by application_name) and Postgres's own
   * background processes (WAL writer, checkpointer…), not other clients' backends.
   */
  postgresPids(): Promise<number[]>;
  /** Prometheus text of a node's /metrics. */
  metrics(node: BenchNode): Promise<string>;
  /** Kills every node (SIGKILL), drops the schema, deletes the prefix's Redis keys, removes the data directories. */
  stop(): Promise<void>;
}

/** The settings every arm's nodes share. Connection limits are per client address, and every client here is loopback. */
function nodeEnv(
  databaseUrl: string,
  prefix: string,
  id: string,
  port: number,
  dataDir: string,
): Record<string, string> {
  return {
    ONAIR_DATABASE_URL: databaseUrl,
    ONAIR_REDIS_URL: serviceUrl('redis'),
    ONAIR_REDIS_PREFIX: prefix,
    ONAIR_NODE_ID: id,
    ONAIR_SECRET_KEY: SECRET_KEY,
    ONAIR_BOOTSTRAP_KEY: CLUSTER_BENCH_KEY,
    ONAIR_HOST: LOCALHOST,
    ONAIR_PORT: String(port),
    ONAIR_DATA_DIR: dataDir,
    ONAIR_LOG_LEVEL: 'warn',
    // Hundreds of renderers from one address, connected at once: the per-address limits would refuse them.
    ONAIR_WS_MAX_PER_ADDRESS: '0',
    ONAIR_WS_UPGRADES_PER_ADDRESS: '0',
  };
}

export async function startBenchCluster(count: number, label: string): Promise<BenchCluster> {
  const schema = await freshSchema();
  const name = uniqueName(`onair_bench_${label}`);
  const prefix = `${name}:`;
  const databaseUrl = new URL(schema.url);
  databaseUrl.searchParams.set('application_name', name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-bench-cluster-'));
  const admin = new pg.Client({ connectionString: schema.url });
  await admin.connect();
  const nodes: BenchNode[] = [];
  const logs: NodeLog[] = [];
  const watching: { on: boolean }[] = [];
  const cluster: BenchCluster = {
    nodes,
    schema,
    prefix,
    logs,
    watchStderr: () => {
      for (const w of watching) w.on = true;
    },
    async owners(channelIds) {
      const { rows } = await admin.query<{ channel_id: string; node_id: string }>(
        'SELECT channel_id, node_id FROM channel_leases WHERE channel_id = ANY($1) AND node_id IS NOT NULL AND expires_at > now()',
        [channelIds],
      );
      const out = new Map<string, string | null>(channelIds.map((id) => [id, null]));
      for (const r of rows) out.set(r.channel_id, r.node_id);
      return out;
    },
    createChannels: (n, stableMs = 1_500) => createChannels(cluster, n, stableMs),
    async postgresPids() {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 OR backend_type <> 'client backend'",
        [name],
      );
      return rows.map((r) => r.pid);
    },
    async metrics(node) {
      const res = await fetch(`${node.url}/metrics`);
      return res.text();
    },
    async stop() {
      await Promise.all(nodes.map((n) => killNode(n.process)));
      await admin.end().catch(() => {});
      await schema.drop().catch((err: unknown) => console.error(`cluster bench: schema not dropped: ${String(err)}`));
      await deleteRedisKeys(prefix).catch((err: unknown) =>
        console.error(`cluster bench: Redis keys not deleted: ${String(err)}`),
      );
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    // One after the other, as an operator would: the first migrates the schema, each joins the ones before.
    for (let i = 0; i < count; i++) {
      const id = `${label}-${String.fromCharCode(97 + i)}`;
      const port = await freePort();
      const log: NodeLog = { node: id, lines: new Map(), examples: new Map() };
      logs.push(log);
      const watch = { on: false };
      watching.push(watch);
      nodes.push(
        await spawnNode(
          id,
          port,
          nodeEnv(databaseUrl.toString(), prefix, id, port, path.join(dataDir, id)),
          log,
          watch,
        ),
      );
    }
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

async function spawnNode(
  id: string,
  port: number,
  env: Record<string, string>,
  log: NodeLog,
  watch: { on: boolean },
): Promise<BenchNode> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  hookExit();
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  const record = (kind: string, line: string) => {
    log.lines.set(kind, (log.lines.get(kind) ?? 0) + 1);
    if (!log.examples.has(kind)) log.examples.set(kind, line.slice(0, 600));
  };
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const entry = parseJson(line);
    if (!entry) return record('stdout', line);
    const level = typeof entry.level === 'number' ? entry.level : 0;
    if (level >= 40) record(`${level >= 50 ? 'error' : 'warn'}: ${String(entry.msg)}`, line);
  });
  let stderr = '';
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    stderr += `${line}\n`;
    // The start-up text goes to stderr; anything once the load runs is worth reading.
    if (watch.on && line.trim() !== '') record('stderr', line);
  });
  const url = `http://${LOCALHOST}:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`node ${id} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node ${id} not ready in 30 s:\n${stderr}`);
    }
    const status = await fetch(`${url}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(100);
  }
  return { id, port, url, process: child };
}

async function createChannels(cluster: BenchCluster, count: number, stableMs: number): Promise<BenchChannel[]> {
  const channels: BenchChannel[] = [];
  for (let i = 0; i < count; i++) {
    const node = cluster.nodes[i % cluster.nodes.length]!;
    const call = async <T>(method: string, route: string, body: unknown): Promise<T> => {
      const res = await fetch(`${node.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${CLUSTER_BENCH_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${route} on ${node.id}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    };
    const channel = await call<{ id: string; outputUrl: string }>('POST', '/v1/channels', { name: `bench ${i}` });
    const scene = await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, {
      name: 'score',
      template: 'scoreboard',
    });
    await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id });
    const token = new URL(channel.outputUrl).searchParams.get('token');
    if (!token) throw new Error(`no output token in ${channel.outputUrl}`);
    channels.push({ id: channel.id, token });
  }
  // Every channel owned, and nothing moving: a lease that changes hands mid-run would blur the owner/other split.
  const ids = channels.map((c) => c.id);
  const deadline = Date.now() + 20_000;
  let last = '';
  let since = Date.now();
  for (;;) {
    const owners = await cluster.owners(ids);
    const now = [...owners.values()].join(',');
    if (now !== last) {
      last = now;
      since = Date.now();
    }
    if (![...owners.values()].includes(null) && Date.now() - since >= stableMs) return channels;
    if (Date.now() > deadline) throw new Error(`channel leases did not settle in 20 s: ${now}`);
    await sleep(100);
  }
}

function killNode(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(serviceUrl('redis'), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, LOCALHOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function parseJson(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** A counter or a histogram's _sum/_count from Prometheus text, summed over its label sets. */
export function metricValue(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const key = line.slice(0, space);
    if (key === name || key.startsWith(`${name}{`)) total += Number(line.slice(space + 1));
  }
  return total;
}

/** CPU time (ms) used so far by each process, from /proc/<pid>/stat (utime + stime, clock ticks of 10 ms). */
export function processCpuMs(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name may hold spaces: fields are counted after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // Gone since it was listed.
    }
  }
  return out;
}

/** CPU (ms) used between two readings by the processes of the second (one that started since counts from 0). */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}

/** CPU time (ms) the whole machine's processes and kernel used so far (all CPUs, /proc/stat; not idle, iowait, steal). */
export function machineBusyMs(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const busy = (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0);
  return busy * 10;
}

/** Every process whose command is `name` (postgres: the postmaster and its backends). */
export function pidsNamed(name: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) out.push(Number(entry));
    } catch {
      // Gone.
    }
  }
  return out;
}
