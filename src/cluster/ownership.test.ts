/**
 * A takeover as one node lives it (ownership.ts), with the real parts of a node on Postgres and Redis: the load of a
 * channel just claimed is held back, so what reaches the node meanwhile is seen against what the load read.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { systemTime, type StoredChannel } from '../engine/index.js';
import { newId } from '../ids.js';
import { channelRecord, KEY_ACTOR, sceneRecord } from '../store/store.fixtures.js';
import { freshSchema, serviceGate, serviceUrl, uniqueName, type TestSchema } from '../../test/helpers/services.js';
import { createClusterEngine, type ClusterEngine } from './cluster-engine.js';
import { openCluster, type ClusterParts } from './cluster-node.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');
const by = { source: 'api' as const, actor: KEY_ACTOR };

describe.skipIf(postgres.skip || redis.skip)(`Ownership: taking a channel over${postgres.label || redis.label}`, () => {
  let schema: TestSchema | undefined;
  let parts: ClusterParts | undefined;
  let engine: ClusterEngine | undefined;

  afterEach(async () => {
    await engine?.stop();
    await parts?.close();
    await schema?.drop();
    engine = parts = schema = undefined;
  });

  it('applies nothing to the old copy while the load runs: an op acknowledged meanwhile is not undone by the install', async () => {
    schema = await freshSchema();
    const logger = pino({ level: 'silent' });
    const config = { databaseUrl: schema.url, redisUrl: serviceUrl('redis'), nodeId: 'node-a' };
    const node = await openCluster({ ...config, redisPrefix: `${uniqueName('onair_test')}:` }, logger);
    parts = node;
    const org = await node.store.defaultOrg();
    const channel = channelRecord(org.id, 'Takeover');
    const scene = sceneRecord(channel.id, 'Score');
    await node.store.insertChannel(channel);
    await node.store.insertScene(scene, KEY_ACTOR);

    // The takeover's load reads the channel now (nothing on air), then waits until the test lets it finish.
    let read!: () => void;
    const loadRead = new Promise<void>((resolve) => (read = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const loadChannel = async (id: string): Promise<StoredChannel | undefined> => {
      const stored = await node.store.loadChannel(id);
      read();
      await finished;
      return stored;
    };
    engine = createClusterEngine({
      ...node,
      time: systemTime,
      committer: node.store,
      newEventId: () => newId('evt'),
      loadChannel,
      logger,
    });
    engine.load(await node.store.loadChannels());
    const started = engine.start();
    await loadRead;

    // The lease is this node's, the load is under way: a cut arrives.
    const cut = engine.submit(channel.id, { kind: 'cut', sceneId: scene.id, by });
    // Time for a tick of the old copy (the bug this guards against applied and committed the cut in it).
    await Promise.race([cut, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    finish();
    await started;
    await cut;

    const program = (id: string) => engine!.onAir(id).program.map((e) => e.sceneId);
    expect(program(channel.id)).toEqual([scene.id]);
    expect((await node.store.loadChannel(channel.id))!.live.program.map((e) => e.sceneId)).toEqual([scene.id]);
  }, 30_000);
});
