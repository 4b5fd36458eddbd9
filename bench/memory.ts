/**
 * Target 4 — memory and idle cost: RSS per idle renderer connection (onair against raw uWebSockets.js,
 * `ws` and socket.io, each holding the same idle sockets), RSS of 10,000 idle channels in the real
 * server, and what 10,000 idle channels add to a tick (Engine on its real FrameClock).
 *
 *   npx tsx bench/memory.ts [--short]
 */
import { sleep, startChild } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { KIND_NAMES, type Kind } from './lib/endpoints.js';
import { startServerUnderTest } from './lib/servers.js';
import { boundRow, fmt, infoRow, ratioRow, type Row, type Table } from './lib/table.js';

const KB = 1024;
const MB = 1024 * 1024;
const IDLE_CHANNELS = 10_000;

/** Server RSS growth per idle renderer, all on 100 channels, measured after a full GC. */
async function perConnection(kind: Kind, count: number): Promise<number> {
  const server = await startServerUnderTest(kind, 100);
  try {
    const before = await server.memory();
    const clients = await startChild('bench/clients/renderers.ts', {
      config: {
        target: server.target,
        channels: server.channels,
        perChannel: count / 100,
        control: false,
        inFlight: 0,
        window: 0,
      },
      maxLifeMs: 120_000,
    });
    await sleep(1000);
    const after = await server.memory();
    await clients.stop();
    console.error(`memory ${kind}: ${fmt.kb((after.rss - before.rss) / count)} per connection`);
    return (after.rss - before.rss) / count;
  } finally {
    await server.stop();
  }
}

/** Real server RSS (after GC) with 10,000 idle channels loaded, minus with none. */
async function idleChannelsRss(): Promise<{ rss: number; heap: number }> {
  const read = async (channels: number) => {
    const s = await startServerUnderTest('onair', channels);
    await sleep(500);
    const m = await s.memory();
    await s.stop();
    return m;
  };
  const empty = await read(0);
  const full = await read(IDLE_CHANNELS);
  return { rss: full.rss - empty.rss, heap: full.heapUsed - empty.heapUsed };
}

interface Busy {
  cpuPerTick: number;
  p50: number;
  p99: number;
  ticks: number;
  late: number;
}

async function tickCost(idle: number, seconds: number) {
  const child = await startChild('bench/servers/idle-engine.ts', { config: { idle }, nodeFlags: ['--expose-gc'] });
  try {
    await child.request('busy', { seconds: 1 }); // warm-up
    const busy = await child.request<Busy>('busy', { seconds });
    const quiet = await child.request<{ usPerFrame: number }>('quiet', { seconds: 1 });
    return { busy, quiet };
  } finally {
    await child.stop();
  }
}
type Run = Awaited<ReturnType<typeof tickCost>>;

/** Process CPU per tick with the engine's clock driven frame by frame (ticks back to back). */
async function drivenTickCost(idle: number, ticks: number): Promise<number> {
  const child = await startChild('bench/servers/idle-engine.ts', {
    config: { idle, driven: true },
    nodeFlags: ['--expose-gc'],
  });
  try {
    await child.request('drive', { ticks: Math.ceil(ticks / 4) }); // warm-up
    return (await child.request<{ cpuPerTick: number }>('drive', { ticks })).cpuPerTick;
  } finally {
    await child.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Both arms `pairs` times, interleaved (A B A B …), so drift on a shared machine hits both alike. The cost
 * of the idle channels is the median of the pairwise differences: one slow run cannot decide it.
 */
async function interleaved<T>(pairs: number, measure: (idle: number) => Promise<T>) {
  const a: T[] = [];
  const b: T[] = [];
  for (let i = 0; i < pairs; i++) {
    a.push(await measure(0));
    b.push(await measure(IDLE_CHANNELS));
  }
  return { a, b };
}

function added(a: number[], b: number[]) {
  const diffs = a.map((x, i) => b[i]! - x);
  /** The pairwise differences, lowest to highest: the noise the median must be read against. */
  return { added: median(diffs), range: [Math.min(...diffs), Math.max(...diffs)] as const };
}

async function drivenCosts(ticks: number, pairs: number) {
  const { a, b } = await interleaved(pairs, (idle) => drivenTickCost(idle, ticks));
  return { one: median(a), many: median(b), pairs, ticks, ...added(a, b) };
}

async function clockCosts(seconds: number, pairs: number) {
  const { a, b } = await interleaved(pairs, (idle) => tickCost(idle, seconds));
  const arm = (runs: Run[]) => ({
    cpu: median(runs.map((r) => r.busy.cpuPerTick)),
    p50: median(runs.map((r) => r.busy.p50)),
    p99: median(runs.map((r) => r.busy.p99)),
    quiet: median(runs.map((r) => r.quiet.usPerFrame)),
  });
  return {
    one: arm(a),
    many: arm(b),
    pairs,
    late: [...a, ...b].map((r) => `${r.busy.late}/${r.busy.ticks}`).join(', '),
    ...added(
      a.map((r) => r.busy.cpuPerTick),
      b.map((r) => r.busy.cpuPerTick),
    ),
  };
}

export async function runMemory(o: BenchOptions): Promise<Table[]> {
  // 5,000 in both modes: with fewer sockets the server's one-off growth (about 12 MB, its heap and allocator
  // growing once as the first snapshots are serialised) dominates the per-socket figure.
  const count = 5000;
  const per = {} as Record<Kind, number>;
  for (const kind of ['uws', 'onair', 'ws', 'socketio'] as const) per[kind] = await perConnection(kind, count);
  const channels = await idleChannelsRss();
  const driven = await drivenCosts(o.short ? 20_000 : 60_000, o.short ? 5 : 9);
  const seconds = o.short ? 2 : 6;
  const ticks = await clockCosts(seconds, o.short ? 1 : 4);
  const { one, many } = ticks;
  const rows: Row[] = [
    boundRow(
      'RSS per idle renderer connection',
      `${KIND_NAMES.uws}: ${fmt.kb(per.uws)}`,
      per.onair,
      fmt.kb,
      { max: 6 * KB, text: '≤ 6 KB' },
      fmt.x(per.onair / per.uws),
    ),
    ratioRow('RSS per idle renderer connection', KIND_NAMES.ws, per.ws, per.onair, fmt.kb),
    ratioRow('RSS per idle renderer connection', KIND_NAMES.socketio, per.socketio, per.onair, fmt.kb),
    boundRow(
      `${IDLE_CHANNELS.toLocaleString('en')} idle channels: server RSS`,
      'same server, 0 channels',
      channels.rss,
      fmt.mb,
      { max: 50 * MB, text: '≤ 50 MB' },
    ),
    boundRow(
      `${IDLE_CHANNELS.toLocaleString('en')} idle channels: CPU added per tick`,
      `1 active channel: ${fmt.us(driven.one)}/tick`,
      driven.added,
      fmt.us,
      { max: 20, text: '≤ 20 µs' },
      `median of ${driven.pairs} interleaved pairs (pairs ranged ${fmt.us(driven.range[0])} to ${fmt.us(driven.range[1])})`,
    ),
    infoRow(
      'same, at real time (60 fps clock), CPU per tick including timer wake-ups',
      `${fmt.us(one.cpu)}/tick`,
      `${fmt.us(many.cpu)}/tick: ${fmt.us(ticks.added)} added` +
        (ticks.pairs > 1
          ? `, median of ${ticks.pairs} pairs (${fmt.us(ticks.range[0])} to ${fmt.us(ticks.range[1])})`
          : ', one pair'),
    ),
    infoRow(
      'tick duration (onTick) p50 / p99',
      `${fmt.us(one.p50)} / ${fmt.us(one.p99)}`,
      `${fmt.us(many.p50)} / ${fmt.us(many.p99)}`,
    ),
    infoRow('CPU per frame with nothing queued (clock stopped)', fmt.us(one.quiet), fmt.us(many.quiet)),
  ];
  const notes = [
    `Idle connections: ${count} renderers spread over 100 channels, held by one client process; server RSS after a full GC, before and after they connect. ` +
      'onair renderers connect with the channel output token and receive their snapshot; baselines hold plain subscribed sockets.',
    `Idle channels: the real server started on a data dir seeded with ${IDLE_CHANNELS} channels (each with a scoreboard scene), RSS after GC, minus the same server with none (heap: ${fmt.mb(channels.heap)}).`,
    `Tick cost: the Engine with 0 and ${IDLE_CHANNELS} idle channels loaded and one channel patched every frame, no-op committer; ` +
      `runs interleaved 0, ${IDLE_CHANNELS}, 0, ${IDLE_CHANNELS}, …, the added cost is the median of the pairwise differences. ` +
      `The target row drives the engine's FrameClock on a ManualTime, ${driven.ticks.toLocaleString('en')} ticks back to back per run (${driven.pairs} pairs): process CPU per tick (GC included) is then the tick's own work. ` +
      `At real time (60 fps on system time, ${seconds} s per run, ${ticks.pairs} pairs) each tick also pays the timer's wake-up, the same in both arms and most of the noise; ` +
      `durations are as the engine measures them (onTick). Late ticks at real time: ${ticks.late}. ` +
      'Idle channels are never visited by a tick: only channels with queued work are.',
  ];
  return [
    {
      title: 'Memory and idle cost (target 4)',
      command: `npx tsx bench/memory.ts${o.short ? ' --short' : ''}`,
      rows,
      notes,
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runMemory);
