/**
 * Confirmations and the server's own lines (./as-run-log.ts) on real parts: a FrameEngine on a manual clock that
 * commits to a SqliteStore in a temporary directory, its onAsRun wired to the log as main.ts wires it. Confirmations
 * are called here directly, as output reports will call them.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameEngine, frameRate, frameStart, ManualTime, MemoryBroker, type Op } from '../engine/index.js';
import { newId } from '../ids.js';
import { channelRecord } from '../store/store.fixtures.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { SceneRecord } from '../engine/index.js';
import { tempDirs } from '../../test/helpers/temp-dirs.js';
import { createAsRunLog, type AsRunLog } from './as-run-log.js';
import type { Confirmation } from './confirmations.js';

const BY = { source: 'api' as const, actor: { type: 'key' as const, id: 'key_1', name: 'test key' } };
const T0 = 1_700_000_000_000;
const tempDir = tempDirs('onair-as-run-');
const open: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  for (const o of open.splice(0)) await o.stop();
});

const SILENT = pino({ level: 'silent' });

function engineDeps(time: ManualTime, store: SqliteStore) {
  return { time, committer: store, broker: new MemoryBroker(), newEventId: () => newId('evt') };
}

function scene(channelId: string, name: string, layer: number): SceneRecord {
  const at = new Date(T0).toISOString();
  const definition = {
    version: 1 as const,
    layer,
    inputs: [{ name: 'name', type: 'text' as const, label: 'Name', default: '', scope: 'item' as const }],
    elements: [],
    transitions: { in: { type: 'cut' as const, durationMs: 0 }, out: { type: 'cut' as const, durationMs: 0 } },
    triggers: [],
  };
  return { id: newId('sc'), channelId, name, definition, createdAt: at, updatedAt: at };
}

/** A channel at 25 fps with two scenes on layer 2, an engine ticking it into SQLite, and the log wired to it. */
async function setup(dataDir = tempDir()) {
  const store = new SqliteStore({ dataDir, synchronous: 'normal' });
  const org = await store.defaultOrg();
  const channel = channelRecord(org.id, 'as-run', 25);
  await store.insertChannel(channel);
  const [a, b] = [scene(channel.id, 'A', 2), scene(channel.id, 'B', 2)] as [SceneRecord, SceneRecord];
  for (const s of [a, b]) await store.insertScene(s, BY.actor);
  const time = new ManualTime(T0);
  // Wired as main.ts wires it: the log reads the engine, the engine's onAsRun feeds the log.
  const engine: FrameEngine = new FrameEngine({
    ...engineDeps(time, store),
    onAsRun: (channelId, change) => log.committed(channelId, change),
  });
  const log: AsRunLog = createAsRunLog({ store: store.asRun, engine, logger: SILENT, now: () => time.now() });
  engine.load(await store.loadChannels());
  engine.start();
  const h = {
    store,
    channel,
    a,
    b,
    log,
    async run(op: Omit<Extract<Op, { kind: 'cut' | 'clear' }>, 'by'>): Promise<number> {
      const done = engine.submit(channel.id, { ...op, by: BY } as Op);
      time.advance(40);
      return (await done).frame;
    },
    lines: async () => (await store.asRun.list(channel.id, { limit: 10 })).records,
    painted: (sceneId: string, frame: number, outputId: string, at: number | string = T0): Confirmation => ({
      channelId: channel.id,
      outputId,
      layer: 2,
      sceneId,
      itemId: null,
      frame,
      at,
    }),
    async stop() {
      await engine.stop();
      await store.close();
    },
  };
  open.push(h);
  return h;
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('confirmations', () => {
  it('record the first time each output painted an interval, a late one for an interval just ended too', async () => {
    const h = await setup();
    const tookA = await h.run({ kind: 'cut', sceneId: h.a.id });
    await h.log.confirm(h.painted(h.a.id, tookA + 1, 'out_1', T0 + 900));
    await h.log.confirm(h.painted(h.a.id, tookA + 3, 'out_1', T0 + 950));
    await h.log.confirm(h.painted(h.a.id, tookA + 2, 'out_2', iso(T0 + 800)));
    const tookB = await h.run({ kind: 'cut', sceneId: h.b.id });
    // out_3 reports A's last frame after B went on air: it belongs to A all the same.
    await h.log.confirm(h.painted(h.a.id, tookB - 1, 'out_3', T0 + 2000));
    await h.log.confirm(h.painted(h.b.id, tookB, 'out_1', T0 + 3000));
    const [a, b] = await h.lines();
    expect(a).toMatchObject({ confirmedAt: iso(T0 + 800), confirmedBy: ['out_1', 'out_2', 'out_3'] });
    expect(b).toMatchObject({ confirmedAt: iso(T0 + 3000), confirmedBy: ['out_1'] });
  });

  it('ignore frames outside any interval, another scene, and malformed reports', async () => {
    const h = await setup();
    const tookA = await h.run({ kind: 'cut', sceneId: h.a.id });
    await h.log.confirm(h.painted(h.a.id, tookA - 1, 'out_early'));
    await h.log.confirm(h.painted(h.b.id, tookA + 1, 'out_other_scene'));
    await h.log.confirm({ ...h.painted(h.a.id, tookA + 1, 'out_item'), itemId: 'it_x' });
    await h.log.confirm(h.painted(h.a.id, Number.NaN, 'out_nan'));
    await h.log.confirm(h.painted(h.a.id, tookA + 1, 'out_bad_time', 'yesterday'));
    expect((await h.lines())[0]).toMatchObject({ confirmedAt: null, confirmedBy: [] });
  });

  it('reach an interval this log has not seen begin through the store (another node’s, a restart’s)', async () => {
    const h = await setup();
    const tookA = await h.run({ kind: 'cut', sceneId: h.a.id });
    // Another node's view of the channel: it holds it but does not tick it.
    const other = new FrameEngine({ ...engineDeps(new ManualTime(T0), h.store), placement: { ticks: () => false } });
    other.load(await h.store.loadChannels());
    const elsewhere = createAsRunLog({ store: h.store.asRun, engine: other, logger: SILENT, now: () => T0 });
    await elsewhere.confirm(h.painted(h.a.id, tookA + 5, 'out_far', T0 + 100));
    expect((await h.lines())[0]).toMatchObject({ confirmedAt: iso(T0 + 100), confirmedBy: ['out_far'] });
  });
});

describe('the server’s own lines', () => {
  it('stop ends every open interval at the stop’s frame; resume begins the restored program again', async () => {
    const dir = tempDir();
    const first = await setup(dir);
    const tookA = await first.run({ kind: 'cut', sceneId: first.a.id });
    await first.log.stop();
    const [ended] = await first.lines();
    expect(ended).toMatchObject({ endFrame: tookA, endInferred: false, clearedBy: null });
    expect(ended!.endAt).toBe(iso(Math.round(frameStart(frameRate(25), tookA))));
    await first.stop();
    open.splice(open.indexOf(first), 1);

    const store = new SqliteStore({ dataDir: dir, synchronous: 'normal' });
    open.push({ stop: () => store.close() });
    const later = T0 + 60_000;
    const engine = new FrameEngine(engineDeps(new ManualTime(later), store));
    const stored = await store.loadChannels();
    engine.load(stored);
    const log = createAsRunLog({ store: store.asRun, engine, logger: SILENT, now: () => later });
    await log.resume(stored);
    const lines = (await store.asRun.list(first.channel.id, { limit: 10 })).records;
    expect(lines.map((l) => [l.sceneId, l.endAt === null, l.takenBy.id])).toEqual([
      [first.a.id, false, 'key_1'],
      [first.a.id, true, 'restart'],
    ]);
    expect(lines[1]!.startAt).toBe(iso(later));
    // The log knows the interval it began: an output confirms it at once.
    await log.confirm(first.painted(first.a.id, lines[1]!.startFrame, 'out_1', later));
    expect((await store.asRun.list(first.channel.id, { limit: 10 })).records[1]!.confirmedBy).toEqual(['out_1']);
  });
});
