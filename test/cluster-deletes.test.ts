/**
 * A channel deleted on a node that does not own it while its owner is ticking it (docs/architecture/several-nodes.md,
 * "Ownership"), over and over, with two real nodes on one Postgres and one Redis. The owner's tick and the deletion
 * meet in Postgres: the tick holds the channel's lease row (its fence) and writes the channel's row, and the
 * deletion removes the channel's row and, through the foreign key, its lease row. Taken in opposite orders, the two
 * deadlock, and Postgres kills one of them: a deletion answered 500, or a tick refused. The nodes' error log lines
 * are collected and must stay empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import { api, expectStatus, type Api, type Channel, type Problem } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

/** Rounds: a channel created and deleted per round, two creates each, under the 60 creates a minute per workspace. */
const ROUNDS = 30;

describe.skipIf(postgres.skip || redis.skip)(
  `channels deleted on a follower while their owner ticks them${postgres.label || redis.label}`,
  () => {
    let cluster: TestCluster;
    const errors: string[] = [];

    beforeAll(async () => {
      cluster = await startCluster(['node-a', 'node-b']);
      for (const node of cluster.nodes)
        node.process.stdout?.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString('utf8').split('\n'))
            if (/"level":(50|60)/.test(line)) errors.push(`${node.id} ${line.slice(0, 1_500)}`);
        });
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
    });

    const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);

    async function ownerOf(channelId: string): Promise<ClusterNode> {
      const end = Date.now() + 15_000;
      for (;;) {
        const owner = await cluster.ownerOf(channelId);
        if (owner !== null) return cluster.node(owner);
        if (Date.now() > end) throw new Error(`no owner for ${channelId}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }

    it(`answers 204 to every deletion, ${ROUNDS} rounds, and no node logs an error`, async () => {
      const refused: { round: number; status: number; code: string; detail: string }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const created = expectStatus(
          await on(cluster.nodes[round % 2]!)<Channel>('POST', '/v1/channels', { name: `Churn ${round}` }),
          201,
        );
        const owner = await ownerOf(created.id);
        const follower = cluster.nodes.find((n) => n !== owner)!;
        // A tick in flight on the owner when the deletion arrives: each `clear` is committed in a tick of its own.
        let ticking = true;
        const ticks = (async () => {
          while (ticking) {
            const res = await on(owner)('POST', `/v1/channels/${created.id}/clear`);
            if (res.status !== 200) return;
          }
        })();
        await new Promise((r) => setTimeout(r, 20 + (round % 4) * 10));
        const res = await on(follower)<Problem>('DELETE', `/v1/channels/${created.id}`);
        ticking = false;
        await ticks;
        if (res.status !== 204)
          refused.push({ round, status: res.status, code: res.body.code, detail: res.body.detail });
      }
      expect(refused).toEqual([]);
      expect(errors).toEqual([]);
    }, 120_000);
  },
);
