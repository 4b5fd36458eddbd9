/**
 * The as-run log on Postgres with several nodes (docs/as-run.md, "Several nodes"): the node that ticks the channel
 * writes the lines in its ticks, ops sent through another node included, and every node reads the same log; a
 * node's clean stop hands the channel over without ending what is on air.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import { api, expectStatus, type Api, type Channel, type Scene, type State } from './helpers/api.js';
import type { AsRunPage } from './helpers/as-run.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip || redis.skip)(`the as-run log on several nodes${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startCluster(['node-a', 'node-b']);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);

  async function owner(channelId: string): Promise<ClusterNode> {
    const end = Date.now() + 15_000;
    for (;;) {
      const id = await cluster.ownerOf(channelId);
      if (id !== null) return cluster.node(id);
      if (Date.now() > end) throw new Error(`no owner for ${channelId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('take A through a follower, update, take B, clear: the same lines on every node; a handover ends nothing', async () => {
    const first = cluster.nodes[0]!;
    const channel = expectStatus(await on(first)<Channel>('POST', '/v1/channels', { name: 'Log', fps: 25 }), 201);
    const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
    const strap = expectStatus(
      await on(first)<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }),
      201,
    );
    const ticking = await owner(channel.id);
    const via = on(cluster.nodes.find((n) => n !== ticking)!);
    const frame = async (rest: string, body?: unknown) =>
      expectStatus(await via<State>('POST', path(rest), body), 200).frame;
    const tookA = await frame('program', { sceneId: strap.id, values: { name: 'Ada' } });
    await frame('update', { values: { title: 'Coach' } });
    const tookB = await frame('program', { sceneId: strap.id, values: { name: 'Bo' } });
    const cleared = await frame('clear');
    const tookC = await frame('program', { sceneId: strap.id, values: { name: 'Cy' } });

    const logs = await Promise.all(
      cluster.nodes.map(async (n) => expectStatus(await on(n)<AsRunPage>('GET', path('as-run')), 200).data),
    );
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[0]!.map((l) => [l.values.name, l.startFrame, l.endFrame])).toEqual([
      ['Ada', tookA, tookB],
      ['Bo', tookB, cleared],
      ['Cy', tookC, null],
    ]);
    expect(logs[0]![0]!.updatedValues).toEqual({ name: 'Ada', title: 'Coach' });

    // The owner stops cleanly: the other node takes the channel over, and Cy's interval goes on.
    await ticking.kill('SIGTERM');
    const remaining = cluster.nodes.find((n) => n !== ticking)!;
    await expect.poll(() => cluster.ownerOf(channel.id), { timeout: 15_000 }).toBe(remaining.id);
    const after = expectStatus(await on(remaining)<AsRunPage>('GET', path('as-run')), 200).data;
    expect(after.map((l) => [l.values.name, l.endAt === null, l.endInferred])).toEqual([
      ['Ada', false, false],
      ['Bo', false, false],
      ['Cy', true, false],
    ]);
  });
});
