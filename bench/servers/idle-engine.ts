/**
 * Target 4's idle-tick cost: the Engine with `idle` channels that never change and one channel patched
 * every frame. Two modes:
 * - `driven` (the target's measurement): the engine's own FrameClock on a ManualTime that this process
 *   moves one frame at a time, ticks back to back, so the process CPU per tick (garbage collection
 *   included) is the tick's own work, without the wake-ups of a real timer, which cost the same with or
 *   without idle channels and are most of the noise.
 * - real time: the FrameClock at 60 fps on system time, for the tick durations as the engine measures
 *   them (onTick), late ticks, and the CPU used when nothing at all is queued.
 * The committer does nothing: storage is the same in both arms and is not what is asked here.
 */
import {
  FrameEngine,
  ManualTime,
  MemoryBroker,
  systemTime,
  type ChannelRecord,
  type SceneRecord,
  type StoredChannel,
} from '../../src/engine/index.js';
import type { ClockState } from '@onair/protocol';
import { scoreboard } from '../../src/templates/scoreboard.js';
import { BENCH_BY } from '../lib/bench-origin.js';
import { childConfig, memorySnapshot, ready, serveParent, sleep } from '../lib/child.js';
import { summary } from '../lib/stats.js';

/** Shared, as the store's loader shares it among channels without clocks. */
const NO_CLOCKS = new Map<string, ClockState>();

function stored(i: number): StoredChannel {
  const now = new Date().toISOString();
  const id = `ch_${String(i).padStart(32, '0')}`;
  const channel: ChannelRecord = {
    id,
    orgId: 'org_bench',
    name: `idle ${i}`,
    fps: 60,
    width: 1920,
    height: 1080,
    outputToken: `token${i}`.padEnd(32, 'x'),
    createdAt: now,
    updatedAt: now,
  };
  const scene: SceneRecord = {
    id: `sc_${String(i).padStart(32, '0')}`,
    channelId: id,
    name: 'score',
    definition: scoreboard.definition,
    createdAt: now,
    updatedAt: now,
  };
  const live = {
    values: new Map(),
    clocks: NO_CLOCKS,
    program: [{ sceneId: scene.id, layer: 0, itemId: null, values: {}, since: now }],
    preview: [],
    rundowns: new Map(),
    schedule: [],
    history: [],
    frame: 0,
    updatedAt: now,
  };
  return { channel, scenes: [scene], live };
}

const { idle, driven } = childConfig<{ idle: number; driven?: boolean }>();
const FRAME_MS = 1000 / 60;
const manual = driven ? new ManualTime(Date.now()) : null;
const durations: number[] = [];
let events = 0;
const engine = new FrameEngine({
  time: manual ?? systemTime,
  committer: { commitTick: () => {} },
  broker: new MemoryBroker(),
  newEventId: () => `evt_${++events}`,
  onTick: ({ durationMs, changed }) => {
    if (changed > 0) durations.push(durationMs * 1000);
  },
});
const before = await memorySnapshot();
engine.load(Array.from({ length: idle + 1 }, (_, i) => stored(i)));
const after = await memorySnapshot();
engine.start();
const active = stored(0).channel.id;

/** Patches the active channel once per frame for `seconds`; returns tick durations in µs. */
async function busy(seconds: number) {
  durations.length = 0;
  const stats0 = engine.clockStats()[0];
  const cpu0 = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  for (let n = 1; performance.now() < until; n++) {
    await engine.submit(active, { kind: 'patch', values: new Map([['scoreA', n]]), by: BENCH_BY });
  }
  const cpu = process.cpuUsage(cpu0);
  const stats1 = engine.clockStats()[0];
  const ticks = (stats1?.ticks ?? 0) - (stats0?.ticks ?? 0);
  const late = (stats1?.lateTicks ?? 0) - (stats0?.lateTicks ?? 0);
  const s = summary(durations);
  const mean = durations.reduce((a, b) => a + b, 0) / Math.max(1, durations.length);
  return { ...s, mean, ticks, late, cpuPerTick: (cpu.user + cpu.system) / Math.max(1, ticks) };
}

/** Driven mode: `ticks` ticks back to back, each with its patch; process CPU per tick in µs. */
async function drive(ticks: number) {
  if (!manual) throw new Error('drive needs the driven mode');
  const cpu0 = process.cpuUsage();
  for (let n = 1; n <= ticks; n++) {
    const ack = engine.submit(active, { kind: 'patch', values: new Map([['scoreA', n]]), by: BENCH_BY });
    manual.advance(FRAME_MS);
    await ack;
  }
  const cpu = process.cpuUsage(cpu0);
  return { cpuPerTick: (cpu.user + cpu.system) / ticks };
}

/** CPU used with nothing queued at all, per 1/60 s. */
async function quiet(seconds: number) {
  const cpu0 = process.cpuUsage();
  await sleep(seconds * 1000);
  const cpu = process.cpuUsage(cpu0);
  return { usPerFrame: (cpu.user + cpu.system) / (seconds * 60) };
}

serveParent(
  {
    busy: (a) => busy(Number(a.seconds)),
    quiet: (a) => quiet(Number(a.seconds)),
    drive: (a) => drive(Number(a.ticks)),
  },
  () => engine.stop(),
);
ready({ heapBytes: after.heapUsed - before.heapUsed, rssBytes: after.rss - before.rss });
