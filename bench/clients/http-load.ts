/**
 * HTTP load generator (autocannon) in its own process. Connection i sends its requests to
 * paths[i % paths.length], so with one connection per channel each channel has one request in flight.
 * No pipelining: uWebSockets.js v20.30 aborts a request whose answer is still pending when the next
 * pipelined request arrives, so every server is measured without it.
 */
import autocannon from 'autocannon';
import { childConfig, LOCALHOST, ready, serveParent } from '../lib/child.js';

export interface HttpLoadConfig {
  port: number;
  method: string;
  paths: string[];
  headers: Record<string, string>;
  body: string;
}

export interface HttpLoadRun {
  connections: number;
  seconds: number;
}

export interface HttpLoadResult {
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  okPerSec: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  /** CPU the load generator used, as a share of one core. */
  cpu: number;
}

async function run(cfg: HttpLoadConfig, r: HttpLoadRun): Promise<HttpLoadResult> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await autocannon({
    url: `http://${LOCALHOST}:${cfg.port}`,
    connections: r.connections,
    duration: r.seconds,
    timeout: 10,
    method: cfg.method,
    headers: cfg.headers,
    body: cfg.body,
    setupClient: (client) => {
      const path = cfg.paths[next++ % cfg.paths.length]!;
      client.setRequests([{ method: cfg.method, path, headers: cfg.headers, body: cfg.body }]);
    },
  });
  const cpu = process.cpuUsage(cpu0);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count] as const),
  );
  return {
    seconds: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    okPerSec: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    cpu: (cpu.user + cpu.system) / 1000 / (performance.now() - t0),
  };
}

const cfg = childConfig<HttpLoadConfig>();
serveParent({ run: (args) => run(cfg, args as unknown as HttpLoadRun) });
ready();
