/**
 * Data sources at scale: 1,000 JSON sources polled every second on one node (50 channels × 20, the default limit
 * per channel), against the same server and channels with no sources and with the 1,000 sources paused, in the
 * same run. The feeds run in a process of their own (bench/servers/feed-server.ts), one origin per channel on
 * 127.0.0.1: per channel one feed changes at every fetch, one answers the same body without validators (onair
 * compares its SHA-256), and 18 answer 304 to their ETag. A steady show keeps the 60 fps clock ticking at every
 * frame (300 patches a second over the channels, submitted in the server's process), so that the frame clock's
 * lateness can be compared.
 *
 *   npx tsx bench/sources.ts [--short] [--profile] [--tls]
 */
import { parseArgs } from 'node:util';
import { selfSignedCertificate, type Certificate } from './lib/certificate.js';
import { startChild, type Child } from './lib/child.js';
import { isMain, type BenchOptions } from './lib/cli.js';
import { settle } from './lib/machine.js';
import { startOnair, type Onair } from './lib/onair.js';
import { pace } from './lib/pacer.js';
import { fetchGaps, measureWindow, type Window } from './lib/sources-rig.js';
import { PLAN, sourcesTable, type SourcesRun } from './lib/sources-table.js';
import { renderTable, type Table } from './lib/table.js';
import { seedSources, type SeededSource } from './servers/seed-sources.js';

const {
  channels: CHANNELS,
  perChannel: PER_CHANNEL,
  intervalMs: INTERVAL_MS,
  showPatchesPerS: SHOW_PATCHES_PER_S,
} = PLAN;
const LIFE_MS = 15 * 60_000;

interface Timing {
  /** After start (and the show's first patches), before the first window. */
  warmMs: number;
  /** After the sources are resumed, before their window: their first fetches read whole bodies. */
  pollWarmMs: number;
  windowS: number;
}

const timing = (short: boolean): Timing =>
  short ? { warmMs: 5_000, pollWarmMs: 8_000, windowS: 15 } : { warmMs: 15_000, pollWarmMs: 20_000, windowS: 60 };

async function startServer(
  origins: string[] | undefined,
  paused: boolean,
  cert: Certificate | undefined,
): Promise<{ server: Onair; sources: SeededSource[] }> {
  let sources: SeededSource[] = [];
  const server = await startOnair({
    channels: CHANNELS,
    diagnose: true,
    // The resumes below are 1,000 changes in a second: above the workspace's `creates` on purpose.
    lift: ['creates'],
    env: { ONAIR_WEBHOOK_ALLOW_PRIVATE: 'true' },
    ca: cert?.cert,
    maxLifeMs: LIFE_MS,
    seed: async (dir, channels) => {
      sources = await seedSources(dir, channels, { perChannel: PER_CHANNEL, origins, intervalMs: INTERVAL_MS, paused });
    },
  });
  await server.child.request('paceStart', {
    channels: server.channels.map((c) => c.id),
    perSecond: SHOW_PATCHES_PER_S,
    maxMs: LIFE_MS,
  });
  return { server, sources };
}

/** The same server and channels (and scenes) without a source. */
async function measureQuiet(feed: Child, t: Timing, o: BenchOptions, cert?: Certificate): Promise<Window> {
  await settle(o.short);
  const { server } = await startServer(undefined, true, cert);
  try {
    await new Promise((r) => setTimeout(r, t.warmMs));
    const profile = o.profile ? 'bench/results/prof/sources-quiet.cpuprofile' : undefined;
    return await measureWindow(server, feed, t.windowS, profile);
  } finally {
    await server.stop();
  }
}

/** Every source resumed, spread over one interval, as sources saved over time are; returns the refusals. */
async function resumeAll(server: Onair, sources: SeededSource[]): Promise<number> {
  let refused = 0;
  const sent: Promise<void>[] = [];
  await pace((sources.length * 1000) / INTERVAL_MS, sources.length, (i) => {
    const s = sources[i]!;
    const request = fetch(`http://127.0.0.1:${server.port}/v1/channels/${s.channelId}/sources/${s.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: '{"paused":false}',
    });
    sent.push(request.then((res) => void (res.ok || refused++)));
  });
  await Promise.all(sent);
  return refused;
}

async function measureSources(
  feed: Child,
  origins: string[],
  o: BenchOptions,
  cert: Certificate | undefined,
): Promise<Pick<SourcesRun, 'paused' | 'polling' | 'gaps' | 'resumeRefused'>> {
  const t = timing(o.short);
  await settle(o.short);
  const { server, sources } = await startServer(origins, true, cert);
  try {
    await new Promise((r) => setTimeout(r, t.warmMs));
    const paused = await measureWindow(server, feed, t.windowS);
    const resumeRefused = await resumeAll(server, sources);
    await new Promise((r) => setTimeout(r, t.pollWarmMs));
    const since = Date.now();
    const profile = o.profile ? 'bench/results/prof/sources.cpuprofile' : undefined;
    const polling = await measureWindow(server, feed, t.windowS, profile);
    // Three sources of each channel, one of each kind: the time between two fetches of one source.
    const sampled = sources.filter((_, i) => i % PER_CHANNEL < 3);
    const gaps = await fetchGaps(server, sampled, since);
    return { paused, polling, gaps, resumeRefused };
  } finally {
    await server.stop();
  }
}

export async function runSources(o: BenchOptions, tls = false): Promise<Table[]> {
  const cert = tls ? await selfSignedCertificate() : undefined;
  const feed = await startChild('bench/servers/feed-server.ts', {
    config: { origins: CHANNELS, tls: cert },
    maxLifeMs: LIFE_MS,
  });
  try {
    const origins = (feed.info.ports as number[]).map((p) => `${tls ? 'https' : 'http'}://127.0.0.1:${p}`);
    const quiet = [await measureQuiet(feed, timing(o.short), o, cert)];
    const measured = await measureSources(feed, origins, o, cert);
    // Full runs: the no-sources window again, after, so that the two show the machine's drift.
    if (!o.short) quiet.push(await measureQuiet(feed, timing(o.short), o, cert));
    return [sourcesTable({ quiet, ...measured, tls, short: o.short })];
  } finally {
    await feed.stop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      short: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      tls: { type: 'boolean', default: false },
    },
  });
  runSources({ short: values.short ?? false, profile: values.profile ?? false }, values.tls).then(
    (tables) => {
      for (const t of tables) console.log(renderTable(t));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
