/**
 * Rundown operations on a node that does not own the channel (docs/architecture/several-nodes.md, "Routing: any node
 * answers"): three real nodes on one Postgres and one Redis. A rundown built, played and undone through a follower
 * acts exactly as on the owner, every node reads the same rundown, focus and buses, and the follower's dashboard
 * socket hears the changes; a stale edit gets the same 409 on every node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import { addScoreboard, api, expectStatus, type Api, type Channel, type State } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { RenderClient } from './helpers/ws-client.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

interface Rundown {
  id: string;
  focus: string | null;
  version: number;
  items: { id: string; state: string; version: number }[];
}

describe.skipIf(postgres.skip || redis.skip)(`rundowns on a follower${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;
  const clients: RenderClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster(['node-a', 'node-b', 'node-c']);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients.splice(0)) c.close();
    await cluster?.stop();
  });

  const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);

  async function follower(channelId: string): Promise<{ owner: ClusterNode; follower: ClusterNode }> {
    const end = Date.now() + 15_000;
    for (;;) {
      const ownerId = await cluster.ownerOf(channelId);
      if (ownerId !== null) {
        return { owner: cluster.node(ownerId), follower: cluster.nodes.find((n) => n.id !== ownerId)! };
      }
      if (Date.now() > end) throw new Error(`no owner for ${channelId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('builds, plays, undoes and edits a rundown through a follower, as on the owner', async () => {
    const first = cluster.nodes[0]!;
    const channel = expectStatus(await on(first)<Channel>('POST', '/v1/channels', { name: 'Rundown' }), 201);
    const scene = await addScoreboard(on(first), channel.id);
    const { owner, follower: node } = await follower(channel.id);
    const via = on(node);
    const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;

    const dashboard = await RenderClient.connect(node.url, channel.id, { key: CLUSTER_KEY, scenes: 'all' });
    clients.push(dashboard);
    await dashboard.next((m) => m.type === 'snapshot', { timeoutMs: 15_000 });

    const rundown = expectStatus(await via<Rundown>('POST', path('rundowns'), { name: 'Show' }), 201);
    const item = expectStatus(
      await via<{ id: string; version: number }>('POST', path(`rundowns/${rundown.id}/items`), { sceneId: scene.id }),
      201,
    );
    const played = expectStatus(await via<State>('POST', path(`rundowns/${rundown.id}/play-next`)), 200);
    expect(played.program.map((e) => [e.sceneId, e.itemId])).toEqual([[scene.id, item.id]]);

    // Every node reads the same rundown and buses.
    for (const n of cluster.nodes) {
      await expect
        .poll(async () => (await on(n)<Rundown>('GET', path(`rundowns/${rundown.id}`))).body.items?.[0]?.state, {
          timeout: 15_000,
        })
        .toBe('program');
    }
    // The follower's dashboard socket heard the item go on air.
    await dashboard.next(
      (m) =>
        m.type === 'frame' &&
        ((m as { rundowns?: Rundown[] }).rundowns ?? []).some((r) => r.items.some((i) => i.state === 'program')),
      { timeoutMs: 15_000 },
    );

    // Undo through the follower's socket; the owner's state has it.
    dashboard.send({ op: 'undo', id: 'u1' });
    expect(await dashboard.reply('u1', 15_000)).toMatchObject({ type: 'ack' });
    await expect
      .poll(async () => (await on(owner)<State>('GET', path('state'))).body.program, { timeout: 15_000 })
      .toEqual([]);

    // A stale edit: the same 409 on the follower as on the owner.
    expectStatus(await via('PATCH', path(`rundowns/${rundown.id}/items/${item.id}`), { label: 'A', version: 1 }), 200);
    for (const n of [node, owner]) {
      const stale = await on(n)<{ code: string; version: number }>(
        'PATCH',
        path(`rundowns/${rundown.id}/items/${item.id}`),
        { label: 'B', version: 1 },
      );
      expect([stale.status, stale.body.code, stale.body.version]).toEqual([409, 'version_conflict', 2]);
    }
  }, 120_000);
});
