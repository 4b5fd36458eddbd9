/**
 * The processes of bench/webhooks.ts and the calls between them: the HTTPS receiver, onair (seeded with
 * channels, webhooks allowed to reach loopback), the plain-undici baseline sender, the PATCH load that makes
 * onair's events, and the webhook API calls (subscribe, unsubscribe).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { Arrivals, ReceiverCounts } from '../servers/webhook-receiver.js';
import { BENCH_KEY, seedChannels } from '../servers/seed.js';
import { selfSignedCertificate } from './certificate.js';
import { LOCALHOST, sleep, startChild, type Child } from './child.js';
import { PatchLoad } from './patch-load.js';
import { cpuShare } from './stats.js';

export interface Arrival {
  path: string;
  /** ms since the epoch */
  at: number;
  /** The event's createdAt, ms since the epoch. */
  created: number;
}

export interface Subscription {
  id: string;
  path: string;
  secret: string;
}

export interface Rig {
  receiver: Child;
  onair: Child;
  baseline: Child;
  load: PatchLoad;
  receiverUrl: string;
  hangUrl: string;
  subscribe(url: string): Promise<Subscription>;
  unsubscribe(id: string): Promise<void>;
  /** Drops what the receiver recorded so far. */
  clear(): Promise<void>;
  /** Collects arrivals until `expected` are in, or none came for `stallMs`. */
  arrivals(expected: number, stallMs?: number): Promise<Arrival[]>;
  counts(): Promise<ReceiverCounts>;
  close(): Promise<void>;
}

type Stats = { cpu: NodeJS.CpuUsage; at: number };

/** CPU a child used from now until the returned function is called, as a share of one core. */
export async function cpuMeter(child: Child): Promise<() => Promise<number>> {
  const a = await child.request<Stats>('stats');
  return async () => {
    const b = await child.request<Stats>('stats');
    return cpuShare(a.cpu, b.cpu, b.at - a.at);
  };
}

export interface RigOptions {
  channels: number;
  maxLifeMs: number;
  /** onair's ONAIR_DB_SYNC (default full, production's). */
  dbSync?: 'full' | 'normal';
}

export async function openRig({ channels, maxLifeMs, dbSync = 'full' }: RigOptions): Promise<Rig> {
  const cert = await selfSignedCertificate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-bench-webhooks-'));
  const seeded = await seedChannels(dir, BENCH_KEY, channels);
  const receiver = await startChild('bench/servers/webhook-receiver.ts', { config: cert, maxLifeMs });
  const port = receiver.info.port as number;
  const onair = await startChild('bench/servers/onair-webhooks.ts', {
    config: { dataDir: dir, ca: cert.cert, dbSync },
    maxLifeMs,
  });
  const baseline = await startChild('bench/servers/webhook-baseline.ts', {
    config: { ca: cert.cert, port },
    maxLifeMs,
  });
  const api = `http://${LOCALHOST}:${onair.info.port as number}/v1/webhooks`;
  const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  const take = async (into: Arrival[]) => {
    const a = await receiver.request<Arrivals>('take');
    for (let i = 0; i < a.at.length; i++)
      into.push({ path: a.paths[a.path[i]!]!, at: a.at[i]!, created: a.created[i]! });
  };
  const load = new PatchLoad(
    onair.info.port as number,
    BENCH_KEY,
    seeded.map((c) => c.id),
  );
  return {
    receiver,
    onair,
    baseline,
    load,
    receiverUrl: `https://${LOCALHOST}:${port}`,
    hangUrl: `https://${LOCALHOST}:${receiver.info.hangPort as number}`,
    async subscribe(url) {
      const body = JSON.stringify({ url, events: ['channel.bind_updated'] });
      const res = await request(api, { method: 'POST', headers, body });
      const json = (await res.body.json()) as { id: string; secret: string };
      if (res.statusCode !== 201) throw new Error(`POST /v1/webhooks: ${res.statusCode} ${JSON.stringify(json)}`);
      return { id: json.id, secret: json.secret, path: new URL(url).pathname };
    },
    async unsubscribe(id) {
      const res = await request(`${api}/${id}`, { method: 'DELETE', headers });
      await res.body.dump();
      if (res.statusCode !== 204) throw new Error(`DELETE /v1/webhooks/${id}: ${res.statusCode}`);
    },
    clear: () => take([]),
    async arrivals(expected, stallMs = 2_000) {
      const got: Arrival[] = [];
      let lastGrowth = performance.now();
      while (got.length < expected && performance.now() - lastGrowth < stallMs) {
        await sleep(50);
        const before = got.length;
        await take(got);
        if (got.length > before) lastGrowth = performance.now();
      }
      return got;
    },
    counts: () => receiver.request<ReceiverCounts>('counts'),
    async close() {
      await quietly(() => load.close());
      for (const c of [baseline, onair, receiver]) await quietly(() => c.stop());
    },
  };
}

async function quietly(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    console.error('webhooks: closing', err);
  }
}
