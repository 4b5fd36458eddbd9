/**
 * Three onair nodes as real processes on one Postgres and one Redis (docs/architecture/several-nodes.md): changes
 * made on any node reach renderers on every node, a killed owner's channels move to another node with nothing
 * acknowledged lost, a stale owner cannot commit, rate limits and revocations hold across nodes, and each webhook
 * event is delivered once whichever node ticked it, signed with a secret rolled on any node.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import { addScoreboard, api, expectStatus, tokenOf, type Api, type Channel, type State } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { RenderClient, isFrame, type FrameMessage } from './helpers/ws-client.js';
import { startReceiver, testCertificate, verifyDelivery, type Receiver } from './helpers/webhook-receiver.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip || redis.skip)(
  `three nodes on one Postgres and one Redis${postgres.label || redis.label}`,
  () => {
    let cluster: TestCluster;
    let receiver: Receiver;
    let caDir: string;
    const clients: RenderClient[] = [];

    beforeAll(async () => {
      receiver = await startReceiver();
      caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-cluster-ca-'));
      const caFile = path.join(caDir, 'ca.pem');
      fs.writeFileSync(caFile, (await testCertificate()).cert);
      cluster = await startCluster(['node-a', 'node-b', 'node-c'], {
        ONAIR_WEBHOOK_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: caFile,
      });
    }, 120_000);

    afterAll(async () => {
      for (const c of clients.splice(0)) c.close();
      await cluster?.stop();
      await receiver?.close();
      fs.rmSync(caDir, { recursive: true, force: true });
    });

    const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);
    const others = (id: string | null) => cluster.nodes.filter((n) => n.id !== id && n.process.exitCode === null);

    async function channelWithScore(node: ClusterNode, name: string) {
      const channel = expectStatus(await on(node)<Channel>('POST', '/v1/channels', { name }), 201);
      const scene = await addScoreboard(on(node), channel.id);
      expectStatus(await on(node)('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
      return { channelId: channel.id, token: tokenOf(channel.outputUrl), sceneId: scene.id };
    }

    async function renderer(node: ClusterNode, channelId: string, token: string): Promise<RenderClient> {
      const client = await RenderClient.connect(node.url, channelId, { token });
      clients.push(client);
      await client.next((m) => m.type === 'snapshot');
      return client;
    }

    async function stateOn(node: ClusterNode, channelId: string): Promise<State> {
      return expectStatus(await on(node)<State>('GET', `/v1/channels/${channelId}/state`), 200);
    }

    async function waitForOwner(channelId: string, not: string | null = null, timeoutMs = 15_000): Promise<string> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const owner = await cluster.ownerOf(channelId);
        if (owner !== null && owner !== not) return owner;
        if (Date.now() > end) throw new Error(`no owner other than ${not} for ${channelId}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('sends a change made on any node to renderers on every node, in the frame that applied it', async () => {
      const [a, b, c] = cluster.nodes;
      const { channelId, token } = await channelWithScore(a!, 'Court 1');
      const onB = await renderer(b!, channelId, token);
      const onC = await renderer(c!, channelId, token);
      for (const [i, via] of [a!, b!, c!].entries()) {
        const since = { b: onB.mark(), c: onC.mark() };
        const ack = expectStatus(
          await on(via)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i + 1 }),
          200,
        );
        for (const [client, mark] of [
          [onB, since.b],
          [onC, since.c],
        ] as const) {
          const frame = await client.next<FrameMessage>((m) => isFrame(m) && m.inputs?.scoreA === i + 1, {
            since: mark,
          });
          expect(frame.frame).toBe(ack.frame);
        }
        // Every node answers with the change once the PATCH is answered, whichever node took it.
        for (const node of cluster.nodes) expect((await stateOn(node, channelId)).inputs.scoreA).toBe(i + 1);
      }
      expect(onB.gaps + onC.gaps).toBe(0);
      expect(onB.mirror!.inputs.scoreA).toBe(3);
    }, 60_000);

    it('refuses a key revoked on one node on every other node within a second', async () => {
      const [a, , c] = cluster.nodes;
      const key = expectStatus(
        await on(a!)<{ id: string; secret: string }>('POST', '/v1/keys', {
          name: 'scorer',
          permissions: ['channels:read'],
        }),
        201,
      );
      // Used (and cached) on C first.
      expectStatus(await api(c!.url, key.secret)('GET', '/v1/channels'), 200);
      expectStatus(await on(a!)('DELETE', `/v1/keys/${key.id}`), 204);
      const revokedAt = Date.now();
      let refusedAfter = Infinity;
      while (Date.now() - revokedAt < 3_000) {
        const res = await api(c!.url, key.secret)('GET', '/v1/channels');
        if (res.status === 401) {
          refusedAfter = Date.now() - revokedAt;
          break;
        }
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(refusedAfter).toBeLessThan(1_000);
    }, 30_000);

    it('delivers each webhook event once, whichever node ticked it', async () => {
      const [a, b, c] = cluster.nodes;
      const sub = expectStatus(
        await on(a!)<{ id: string }>('POST', '/v1/webhooks', { url: receiver.url, events: ['channel.bind_updated'] }),
        201,
      );
      const channels = await Promise.all([a!, b!, c!].map((n, i) => channelWithScore(n, `Hooks ${i}`)));
      let n = 0;
      for (let round = 0; round < 5; round++) {
        for (const [i, ch] of channels.entries()) {
          const via = cluster.nodes[(round + i) % 3]!;
          expectStatus(await on(via)('PATCH', `/v1/channels/${ch.channelId}/inputs`, { scoreB: ++n }), 200);
        }
      }
      const ids = new Set(channels.map((ch) => ch.channelId));
      const ours = () => receiver.received.filter((r) => r.json.channelId !== null && ids.has(r.json.channelId));
      await expect.poll(() => ours().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n);
      // Time for any duplicate to arrive.
      await new Promise((r) => setTimeout(r, 1_500));
      const eventIds = ours().map((r) => r.json.id);
      expect(eventIds).toHaveLength(n);
      expect(new Set(eventIds).size).toBe(n);
      expectStatus(await on(b!)('DELETE', `/v1/webhooks/${sub.id}`), 204);
    }, 60_000);

    it('signs with a secret rolled on one node the deliveries every node makes', async () => {
      const [a, b, c] = cluster.nodes;
      const sub = expectStatus(
        await on(a!)<{ id: string; secret: string }>('POST', '/v1/webhooks', {
          url: `${receiver.url}/rolled`,
          events: ['channel.bind_updated'],
        }),
        201,
      );
      const channels = await Promise.all([a!, b!, c!].map((n, i) => channelWithScore(n, `Rolled ${i}`)));
      const rolled = expectStatus(
        await on(b!)<{ secret: string }>('POST', `/v1/webhooks/${sub.id}/secret`, { overlapSeconds: 600 }),
        200,
      );
      const mine = () => receiver.received.filter((r) => r.path === '/rolled');
      let n = 100;
      /** A round of events on every channel through every node; answers their deliveries. */
      const round = async () => {
        const before = mine().length;
        for (const [i, ch] of channels.entries()) {
          for (const via of [a!, b!, c!]) {
            expectStatus(await on(via)('PATCH', `/v1/channels/${ch.channelId}/inputs`, { scoreB: ++n + i }), 200);
          }
        }
        await expect.poll(() => mine().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 9);
        return mine().slice(before);
      };
      // Every node hears of the roll (a message over Redis) and reads the subscription again.
      await expect
        .poll(async () => (await round()).every((d) => verifyDelivery(d, rolled.secret) === null), { timeout: 20_000 })
        .toBe(true);
      for (const d of await round()) {
        expect(verifyDelivery(d, rolled.secret)).toBeNull();
        expect(verifyDelivery(d, sub.secret)).toBeNull();
      }
      expectStatus(await on(c!)('DELETE', `/v1/webhooks/${sub.id}`), 204);
    }, 60_000);

    it("refuses a stale owner's tick: an owner paused past its lease cannot commit when it wakes", async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[0]!, 'Paused');
      const ownerId = await waitForOwner(channelId);
      const owner = cluster.node(ownerId);
      const [next, watcher] = others(ownerId);
      const onWatcher = await renderer(watcher!, channelId, token);

      owner.process.kill('SIGSTOP');
      try {
        // Sent to the frozen owner: the kernel takes it, the process reads it only once it wakes.
        const stale = on(owner)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 111 });
        const newOwner = await waitForOwner(channelId, ownerId);
        expect(newOwner).not.toBe(ownerId);
        expectStatus(await on(next!)('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 222 }), 200);
        owner.process.kill('SIGCONT');
        const answer = await stale;
        // Either the woken node's own tick was refused (its fencing token is stale), or it learnt it had lost the
        // lease first and forwarded the op to the new owner, which applied it after 222.
        expect([200, 503]).toContain(answer.status);
        const expected = answer.status === 200 ? 111 : 222;
        for (const node of cluster.nodes) {
          await expect.poll(async () => (await stateOn(node, channelId)).inputs.scoreA).toBe(expected);
        }
        await expect.poll(() => onWatcher.mirror!.inputs.scoreA).toBe(expected);
        expect(onWatcher.gaps).toBe(0);
      } finally {
        owner.process.kill('SIGCONT');
      }
    }, 60_000);

    it("moves a killed owner's channel to another node within 5 s; nothing acknowledged is lost and renderers elsewhere keep drawing", async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[1]!, 'Failover');
      const ownerId = await waitForOwner(channelId);
      const owner = cluster.node(ownerId);
      const [writerNode, watcherNode] = others(ownerId);
      const watcher = await renderer(watcherNode!, channelId, token);
      const write = on(writerNode!);

      let value = 0;
      const acked: number[] = [];
      const writeOnce = async () => {
        const v = ++value;
        const res = await write('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: v });
        if (res.status === 200) acked.push(v);
        else expect(res.status).toBe(503);
      };
      for (let i = 0; i < 10; i++) await writeOnce();
      const killedAt = Date.now();
      await owner.kill('SIGKILL');
      const takenOverAfter = await (async () => {
        await waitForOwner(channelId, ownerId);
        return Date.now() - killedAt;
      })();
      // Writes go on through the failover; some are refused (503) while there is no owner, none is lost.
      while (acked.filter((v) => v > 10).length < 5) await writeOnce();
      expect(takenOverAfter).toBeLessThan(5_000);

      const last = acked.at(-1)!;
      for (const node of others(ownerId)) expect((await stateOn(node, channelId)).inputs.scoreA).toBe(last);
      await expect.poll(() => watcher.mirror!.inputs.scoreA).toBe(last);
      // The renderer's socket stayed open and it never drew an empty program.
      expect(watcher.readyState).toBe(1);
      expect(watcher.snapshots).toBeLessThanOrEqual(2);
      expect(watcher.mirror!.program).toHaveLength(1);

      // The node comes back, joins again, and answers for the channel from what the others committed.
      const back = await cluster.start(ownerId);
      expect((await stateOn(back, channelId)).inputs.scoreA).toBe(last);
      const onBack = await renderer(back, channelId, token);
      expect(onBack.mirror!.inputs.scoreA).toBe(last);
    }, 90_000);

    it('counts rate limits across nodes exactly: a burst spread over three nodes gets what one node would', async () => {
      const [a] = cluster.nodes;
      // The workspace's creates left in this minute, as a create answers them.
      const first = await on(a!)('POST', '/v1/channels', { name: 'Rate 0' });
      expect(first.status).toBe(201);
      const left = Number(first.headers.get('ratelimit-remaining'));
      expect(left).toBeGreaterThan(10);
      const burst = await Promise.all(
        Array.from({ length: left + 15 }, (_, i) =>
          on(cluster.nodes[i % 3]!)('POST', '/v1/channels', { name: `Rate ${i + 1}` }),
        ),
      );
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(left);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    }, 60_000);
  },
);
