/**
 * Starts the real onair server for a benchmark: seeds a fresh data dir with channels (outside the
 * server's process, so the seeding leaves nothing in its memory), then runs bench/servers/onair.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, seedChannels, type SeededChannel, type SeededUser } from '../servers/seed.js';
import { startChild, type Child } from './child.js';

export interface OnairOptions {
  channels?: number;
  dbSync?: 'full' | 'normal';
  lift?: ('updates' | 'reads' | 'creates')[];
  warp?: number;
  /** Frames per event-loop turn on a driven ManualTime (bench/servers/driver.ts driveEngineFrames). */
  framesPerTurn?: number;
  diagnose?: boolean;
  /** Log every request at info, as `npm start` does by default (to a file in the data dir); else warn. */
  accessLog?: boolean;
  nodeFlags?: string[];
  maxLifeMs?: number;
  /** false: the server runs without metrics (bench/metrics.ts measures their cost). */
  metrics?: boolean;
  /** A dashboard account to seed, owner of the workspace. */
  user?: SeededUser;
  /** More ONAIR_* settings for the server (they win over the benchmark's own). */
  env?: Record<string, string>;
  /** PEM of a certificate the server's outgoing requests trust (a local HTTPS receiver or feed). */
  ca?: string;
  /** More setup in the seeded data dir, before the server starts. */
  seed?: (dataDir: string, channels: SeededChannel[]) => Promise<void>;
}

export interface Onair {
  child: Child;
  port: number;
  key: string;
  channels: SeededChannel[];
  stop(): Promise<void>;
}

export interface ClockStats {
  fps: number;
  ticks: number;
  lateTicks: number;
  skippedFrames: number;
}

export interface OnairStats {
  clock: ClockStats[];
  cpu: { user: number; system: number };
  at: number;
  /** Resident set size when read (no GC first). */
  rss: number;
  limiter: { present: boolean; checks: Record<string, number>; refusals: Record<string, number> };
}

export async function startOnair(options: OnairOptions = {}): Promise<Onair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-bench-'));
  const channels = await seedChannels(dir, BENCH_KEY, options.channels ?? 0, options.user);
  await options.seed?.(dir, channels);
  const child = await startChild('bench/servers/onair.ts', {
    config: {
      dataDir: dir,
      dbSync: options.dbSync,
      lift: options.lift,
      warp: options.warp,
      framesPerTurn: options.framesPerTurn,
      diagnose: options.diagnose,
      accessLog: options.accessLog,
      metrics: options.metrics,
      env: options.env,
      ca: options.ca,
    },
    nodeFlags: ['--expose-gc', ...(options.nodeFlags ?? [])],
    maxLifeMs: options.maxLifeMs,
  });
  return {
    child,
    port: child.info.port as number,
    key: BENCH_KEY,
    channels,
    async stop() {
      await child.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ticks and late ticks between two stats readings of the 60 fps clock. */
export function tickDelta(before: OnairStats, after: OnairStats): { ticks: number; late: number } {
  const pick = (s: OnairStats) => s.clock.find((c) => c.fps === 60) ?? { ticks: 0, lateTicks: 0 };
  return { ticks: pick(after).ticks - pick(before).ticks, late: pick(after).lateTicks - pick(before).lateTicks };
}
