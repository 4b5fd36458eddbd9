/**
 * Several channels on one WebSocket with several nodes (docs/api.md, "Several channels on one connection"), two real
 * nodes on one Postgres and one Redis: a `channels=*` connection to one node follows channels owned by either node,
 * its ops on a channel owned by the other node are answered, and channels created or deleted through the other node
 * join and leave it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRemovedMessage } from '@onair/protocol';
import { serviceGate } from './helpers/services.js';
import { api, expectStatus, type Api, type Channel, type Scene, type State } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { isFrame, isSnapshot, RenderClient } from './helpers/ws-client.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip || redis.skip)(
  `several channels on one socket, on several nodes${postgres.label || redis.label}`,
  () => {
    let cluster: TestCluster;
    const clients: RenderClient[] = [];
    beforeAll(async () => {
      cluster = await startCluster(['node-a', 'node-b']);
    }, 120_000);
    afterAll(async () => {
      for (const c of clients) c.close();
      await cluster?.stop();
    });

    const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);
    const createOn = async (node: ClusterNode, name: string) => {
      const channel = expectStatus(await on(node)<Channel>('POST', '/v1/channels', { name }), 201);
      const path = `/v1/channels/${channel.id}/scenes`;
      const scene = expectStatus(await on(node)<Scene>('POST', path, { name: 'Score', template: 'scoreboard' }), 201);
      expectStatus(await on(node)('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
      await expect.poll(() => cluster.ownerOf(channel.id), { timeout: 15_000 }).not.toBeNull();
      return channel.id;
    };

    it('follows channels owned by either node; ops, frames, joins and removals reach the one connection', async () => {
      const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
      const first = await createOn(a, 'First');
      const second = await createOn(b, 'Second');
      const client = await RenderClient.connect(a.url, '', { key: CLUSTER_KEY, channels: '*' });
      clients.push(client);
      await client.next((m) => isSnapshot(m) && m.channelId === first);
      await client.next((m) => isSnapshot(m) && m.channelId === second);

      for (const channelId of [first, second]) {
        const owner = cluster.node((await cluster.ownerOf(channelId))!);
        const elsewhere = owner === a ? b : a;
        const since = client.mark();
        const patched = await on(elsewhere)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, {
          scoreA: 3,
        });
        const { frame } = expectStatus(patched, 200);
        await client.next((m) => isFrame(m) && m.channelId === channelId && m.frame === frame, { since });
        client.send({ op: 'patch', id: `p-${channelId}`, channelId, inputs: { scoreB: 4 } });
        expect(await client.reply(`p-${channelId}`)).toMatchObject({ type: 'ack', channelId });
        const state = expectStatus(await on(owner)<State>('GET', `/v1/channels/${channelId}/state`), 200);
        expect(state.inputs).toMatchObject({ scoreA: 3, scoreB: 4 });
      }

      const third = expectStatus(await on(b)<Channel>('POST', '/v1/channels', { name: 'Third' }), 201).id;
      await client.next((m) => isSnapshot(m) && m.channelId === third);
      expectStatus(await on(b)('DELETE', `/v1/channels/${first}`), 204);
      await client.next(
        (m) => (m.type as string) === 'channel_removed' && (m as unknown as ChannelRemovedMessage).channelId === first,
      );
      expect(client.readyState).toBe(1);
    });
  },
);
