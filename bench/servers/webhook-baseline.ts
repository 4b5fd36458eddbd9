/**
 * The baseline of bench/webhooks.ts: a plain undici loop in its own process that does what onair's delivery
 * worker does on the wire, and nothing else (no outbox, no storage, no records). Each delivery is a POST of
 * an event envelope of the same shape, signed with HMAC-SHA256 as onair signs (docs/webhooks.md), with the
 * same headers, timeout options and limits: an Agent of 8 connections per origin, at most 8 requests in
 * flight per target and 128 in all. Its rate against the receiver is the ceiling this machine allows.
 */
import crypto from 'node:crypto';
import { Agent, request } from 'undici';
import { newId } from '../../src/ids.js';
import { childConfig, LOCALHOST, ready, serveParent } from '../lib/child.js';
import { pace } from '../lib/pacer.js';

interface Config {
  ca: string;
  port: number;
}

export interface Target {
  path: string;
  secret: string;
}

const PER_TARGET = 8;
const OVERALL = 128;
const CONNECTIONS = 8;
const TIMEOUT_MS = 10_000;

const cfg = childConfig<Config>();
const agent = new Agent({ connections: CONNECTIONS, connect: { ca: cfg.ca } });
const origin = `https://${LOCALHOST}:${cfg.port}`;
const ORG = newId('org');
let frame = 0;

/** An envelope like onair's `channel.bind_updated` (src/webhooks/outbox-dispatcher.ts, envelope). */
function envelope(): Buffer {
  frame++;
  const actor = { type: 'key', id: 'key_bench', name: 'bench' };
  const data = { inputs: { scoreA: frame }, previous: { scoreA: frame - 1 }, frame, source: 'api', actor };
  const channelId = 'ch_01a2013fb0e2756d886c117e9c09be46';
  const createdAt = new Date(performance.timeOrigin + performance.now()).toISOString();
  return Buffer.from(
    JSON.stringify({ id: newId('evt'), type: 'channel.bind_updated', orgId: ORG, channelId, createdAt, data }),
  );
}

async function post(target: Target, body: Buffer): Promise<boolean> {
  const timestamp = Math.floor(Date.now() / 1000);
  const mac = crypto.createHmac('sha256', Buffer.from(target.secret, 'utf8')).update(`${timestamp}.`).update(body);
  try {
    const res = await request(origin + target.path, {
      method: 'POST',
      dispatcher: agent,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'baseline',
        'x-service-event': 'channel.bind_updated',
        'x-service-delivery': newId('evt'),
        'x-service-timestamp': String(timestamp),
        'x-service-signature': `v1=${mac.digest('hex')}`,
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await res.body.dump();
    return res.statusCode >= 200 && res.statusCode < 300;
  } catch {
    return false;
  }
}

/** Per-target queues under onair's limits: 8 in flight per target, 128 in all, targets taking turns. */
class Lanes {
  private readonly queues: Buffer[][];
  private readonly heads: number[];
  private readonly inflight: number[];
  private total = 0;
  private turn = 0;
  private idle: (() => void) | null = null;
  ok = 0;
  failed = 0;

  constructor(private readonly targets: Target[]) {
    this.queues = targets.map(() => []);
    this.heads = targets.map(() => 0);
    this.inflight = targets.map(() => 0);
  }

  /** One event: the same body to every target. */
  push(body: Buffer): void {
    for (const q of this.queues) q.push(body);
    this.fill();
  }

  drained(): Promise<void> {
    if (this.total === 0 && this.queues.every((q, t) => this.heads[t] === q.length)) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private fill(): void {
    const n = this.targets.length;
    for (let i = 0; i < n && this.total < OVERALL; i++) {
      const t = (this.turn + i) % n;
      const q = this.queues[t]!;
      while (this.inflight[t]! < PER_TARGET && this.total < OVERALL && this.heads[t]! < q.length) {
        this.send(t, q[this.heads[t]!++]!);
      }
    }
    this.turn = (this.turn + 1) % n;
    if (this.total === 0 && this.idle) {
      this.idle();
      this.idle = null;
    }
  }

  private send(t: number, body: Buffer): void {
    this.inflight[t]!++;
    this.total++;
    void post(this.targets[t]!, body).then((ok) => {
      if (ok) this.ok++;
      else this.failed++;
      this.inflight[t]!--;
      this.total--;
      this.fill();
    });
  }
}

async function burst(args: Record<string, unknown>) {
  const lanes = new Lanes(args.targets as Target[]);
  const t0 = performance.now();
  for (let i = 0; i < Number(args.events); i++) lanes.push(envelope());
  await lanes.drained();
  return { ok: lanes.ok, failed: lanes.failed, ms: performance.now() - t0 };
}

/** Events at a steady rate, each to every target, its createdAt stamped when it is queued. */
async function steady(args: Record<string, unknown>) {
  const lanes = new Lanes(args.targets as Target[]);
  const perSecond = Number(args.eventsPerSecond);
  await pace(perSecond, Math.round(perSecond * Number(args.seconds)), () => lanes.push(envelope()));
  await lanes.drained();
  return { ok: lanes.ok, failed: lanes.failed };
}

serveParent({ burst, steady, stats: () => ({ cpu: process.cpuUsage(), at: performance.now() }) }, () =>
  agent.destroy(),
);
ready();
