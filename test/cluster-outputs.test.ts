/**
 * Output pages with several nodes (docs/outputs.md, "Several nodes"), two real nodes on one Postgres and one Redis: a
 * page connected to the node that does not own its channel is listed by both nodes (each shares its outputs with the
 * others), shown in the `outputs` message of a key connected to the other node, and its events are recorded by the
 * owner, in the one event log every node reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import {
  api,
  expectStatus,
  tokenOf,
  type Api,
  type Channel,
  type Event,
  type Scene,
  type State,
} from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { RenderClient } from './helpers/ws-client.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip || redis.skip)(`output pages on several nodes${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster(['node-a', 'node-b']);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);

  it('are listed by every node, and their events recorded by the owner', async () => {
    const a = on(cluster.nodes[0]!);
    const channel = expectStatus(await a<Channel>('POST', '/v1/channels', { name: 'Two nodes' }), 201);
    const scene = expectStatus(
      await a<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Score', template: 'scoreboard' }),
      201,
    );
    expectStatus(await a('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
    await expect.poll(() => cluster.ownerOf(channel.id)).not.toBeNull();
    const owner = cluster.node((await cluster.ownerOf(channel.id))!);
    const follower = cluster.nodes.find((n) => n !== owner)!;

    const operator = await RenderClient.connect(owner.url, channel.id, { key: CLUSTER_KEY });
    const page = await RenderClient.connect(follower.url, channel.id, { token: tokenOf(channel.outputUrl) });
    const snapshot = await page.next((m) => m.type === 'snapshot');
    const state = expectStatus(await on(follower)<State>('GET', `/v1/channels/${channel.id}/state`), 200);
    expect(snapshot).toMatchObject({ frame: state.frame });
    page.send({
      op: 'painted',
      frame: state.frame,
      layers: [{ layer: state.program[0]!.layer, sceneId: scene.id, itemId: null, inDone: true }],
      fps: 50,
      width: 1280,
      height: 720,
      kind: 'vmix',
      bus: 'program',
    });
    const outputs = (node: ClusterNode) =>
      on(node)<{ data: { id: string; kind: string }[] }>('GET', `/v1/channels/${channel.id}/outputs`).then(
        (r) => expectStatus(r, 200).data,
      );
    await expect.poll(() => outputs(follower)).toHaveLength(1);
    const [listed] = await outputs(follower);
    expect(listed).toMatchObject({ kind: 'vmix' });
    await expect.poll(() => outputs(owner), { timeout: 15_000 }).toEqual([listed]);
    const shown = await operator.next((m) => m.type === 'outputs' && (m as { total: number }).total === 1, {
      timeoutMs: 15_000,
    });
    expect(shown).toMatchObject({ outputs: [{ id: listed!.id, kind: 'vmix' }] });

    const events = (type: string) =>
      on(owner)<{ data: Event[] }>('GET', `/v1/events?channelId=${channel.id}&type=${type}`).then(
        (r) => expectStatus(r, 200).data,
      );
    await expect.poll(() => events('output.connected')).toHaveLength(1);
    page.close();
    await expect.poll(() => events('output.lost')).toHaveLength(1);
    await expect.poll(() => outputs(owner), { timeout: 15_000 }).toEqual([]);
    operator.close();
    expect((await events('output.lost'))[0]!.data).toMatchObject({
      outputId: listed!.id,
      kind: 'vmix',
      source: 'output',
    });
  });
});
