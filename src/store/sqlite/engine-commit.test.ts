/**
 * The engine on the real SqliteStore: a tick's events are written in the same transaction as its state, so
 * every acknowledged change has its events in the log, and a tick the store refuses leaves neither.
 */
import { afterEach, expect, it } from 'vitest';
import { MemoryBroker } from '../../engine/broker.js';
import { FrameEngine } from '../../engine/frame-engine.js';
import { channelRecord, definition, emptyLive, T0 } from '../../engine/engine.fixtures.js';
import type { EngineEvent } from '../../engine/events.js';
import type { ChannelRecord, SceneRecord } from '../../engine/model.js';
import { ManualTime } from '../../engine/time-source.js';
import { newId } from '../../ids.js';
import { SqliteStore } from './sqlite-store.js';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';
import type { Actor } from '@onair/protocol';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
const tempDir = tempDirs('onair-engine-store-');
const KEY: Actor = { type: 'key', id: 'key_1', name: 'scorekeeper' };
const API = { source: 'api', actor: KEY } as const;
const DASHBOARD = { source: 'dashboard', actor: { type: 'user', id: 'usr_1', name: 'op@example.com' } } as const;

async function setup() {
  const dataDir = tempDir();
  const store = new SqliteStore({ dataDir, synchronous: 'full' });
  stores.push(store);
  const orgId = (await store.defaultOrg()).id;
  const channels: ChannelRecord[] = [];
  for (const name of ['a', 'b']) {
    const channel = { ...channelRecord(newId('ch')), orgId, name };
    await store.insertChannel(channel);
    const scene: SceneRecord = {
      id: newId('sc'),
      channelId: channel.id,
      name: 'board',
      definition: definition([{ name: 'score', type: 'number', label: 'Score', default: 0 }]),
      createdAt: channel.createdAt,
      updatedAt: channel.createdAt,
    };
    await store.insertScene(scene, KEY);
    channels.push(channel);
  }
  const time = new ManualTime(T0);
  const delivered: EngineEvent[] = [];
  const engine = new FrameEngine({
    time,
    committer: store,
    broker: new MemoryBroker(),
    newEventId: () => newId('evt'),
    onEvents: (events) => delivered.push(...events),
  });
  engine.load(await store.loadChannels());
  engine.start();
  const tick = async () => {
    time.advance(17);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { store, orgId, engine, channels, delivered, tick };
}

it('an acknowledged change has its events in the log, in order, with the state it wrote', async () => {
  const { store, orgId, engine, channels, delivered, tick } = await setup();
  const [a, b] = channels.map((c) => c.id) as [string, string];
  const sceneA = engine.scenes(a)[0]!.id;
  const ops = [
    engine.submit(a, { kind: 'cut', sceneId: sceneA, by: API }),
    engine.submit(b, { kind: 'patch', values: new Map([['score', 3]]), by: DASHBOARD }),
  ];
  await tick();
  await Promise.all(ops);
  const logged = (await store.listEvents(orgId, { limit: 50 })).events;
  expect(logged).toEqual(delivered);
  expect(logged.map((e) => `${e.channelId === a ? 'a' : 'b'} ${e.type} ${e.data.source}`)).toEqual([
    'a channel.scene_loaded api',
    'a channel.played api',
    'b channel.bind_updated dashboard',
  ]);
  const loaded = await store.loadChannels();
  expect(loaded.find((s) => s.channel.id === a)!.live.program).toEqual(engine.state(a).program);
  expect(loaded.find((s) => s.channel.id === b)!.live.values).toEqual(new Map([['score', 3]]));
});

it('a tick the store refuses writes neither state nor events, for any of its channels', async () => {
  const { store, orgId, engine, channels, delivered, tick } = await setup();
  const [a, b] = channels.map((c) => c.id) as [string, string];
  // b's rows go behind the engine's back: its inputs can no longer be written, so the whole tick fails.
  await store.deleteChannel(b);
  const ops = [
    engine.submit(a, { kind: 'cut', sceneId: engine.scenes(a)[0]!.id, by: API }),
    engine.submit(a, { kind: 'patch', values: new Map([['score', 1]]), by: API }),
    engine.submit(b, { kind: 'patch', values: new Map([['score', 2]]), by: API }),
  ].map((p) =>
    p.then(
      () => 'ok',
      (err: { code?: string }) => err.code,
    ),
  );
  await tick();
  expect(await Promise.all(ops)).toEqual(['unavailable', 'unavailable', 'unavailable']);
  expect((await store.listEvents(orgId, { limit: 50 })).events).toEqual([]);
  expect(delivered).toEqual([]);
  const [stored] = await store.loadChannels();
  expect(stored!.live).toEqual({
    ...emptyLive(),
    rundowns: new Map(),
    schedule: [],
    history: [],
    updatedAt: stored!.channel.createdAt,
  });
  expect(engine.state(a)).toMatchObject({ program: [], inputs: { score: 0 } });
});

it("an operator's action is in the history the store loads and lists, with what it touched", async () => {
  const { store, engine, channels, tick } = await setup();
  const [a] = channels.map((c) => c.id) as [string];
  const cut = engine.submit(a, { kind: 'cut', sceneId: engine.scenes(a)[0]!.id, by: API });
  await tick();
  await cut;
  const history = (await store.loadChannels()).find((s) => s.channel.id === a)!.live.history;
  expect(history).toMatchObject([{ kind: 'cut', actor: KEY, before: { program: { 0: null } } }]);
  expect(history[0]!.after!.program[0]).toMatchObject({ sceneId: engine.scenes(a)[0]!.id, layer: 0 });
  const { data } = await store.listHistory(a, { limit: 10 });
  expect(data).toEqual([{ id: history[0]!.id, kind: 'cut', actor: KEY, frame: history[0]!.frame, at: history[0]!.at }]);
});
