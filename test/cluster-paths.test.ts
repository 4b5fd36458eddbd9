/**
 * Every entry point of a node that does NOT own the channel (docs/architecture/several-nodes.md, "Routing: any node
 * answers"), with three real nodes on one Postgres and one Redis: what a follower receives (an output-token rotation,
 * a channel deletion, scene edits and deletes, WebSocket ops with a key or a dashboard session, an incoming-hook
 * post, an idempotent replay) must act exactly as on the owner, and be seen by renderers and reads on every node.
 * Each test finds the channel's owner in the lease table first and sends its request to another node. The last tests
 * send the same requests in the situations that stress them: a frame-rate change, an op in flight while the channel
 * is deleted (the owner paused for a moment), a rotation and a scene edit while the owner is dead (it is killed, then
 * started again).
 */
import { createHmac, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceGate } from './helpers/services.js';
import {
  addScoreboard,
  api,
  expectStatus,
  tokenOf,
  type Api,
  type ApiResponse,
  type Channel,
  type Problem,
  type Scene,
  type State,
} from './helpers/api.js';
import { CLUSTER_KEY, issueSetupToken, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import {
  ackedFrame,
  isFrame,
  RenderClient,
  UpgradeRefused,
  type AckMessage,
  type FrameMessage,
  type ServerMessage,
} from './helpers/ws-client.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

/** A renderer's wait for a frame: generous, the machine may be busy with something else. */
const FRAME_WAIT_MS = 10_000;

describe.skipIf(postgres.skip || redis.skip)(
  `entry points on a node that does not own the channel${postgres.label || redis.label}`,
  () => {
    let cluster: TestCluster;
    let db: pg.Client;
    const clients: RenderClient[] = [];
    /** The nodes' error log lines (level 50 and up), printed at the end: a 500 says why only there. */
    const errors: string[] = [];
    const collectErrors = (node: ClusterNode) =>
      node.process.stdout?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n'))
          if (/"level":(50|60)/.test(line)) errors.push(`${node.id} ${line.slice(0, 3_000)}`);
      });

    beforeAll(async () => {
      cluster = await startCluster(['node-a', 'node-b', 'node-c']);
      cluster.nodes.forEach(collectErrors);
      db = new pg.Client({ connectionString: cluster.schema.url });
      await db.connect();
    }, 120_000);

    afterAll(async () => {
      for (const c of clients.splice(0)) c.close();
      await db?.end();
      await cluster?.stop();
      if (errors.length > 0) console.warn(`errors logged by the nodes:\n${errors.join('\n')}`);
    });

    const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);
    /** `{ 'node-a': value, … }` for the given nodes (every node by default): what a per-node result should be. */
    const each = <T>(value: T, nodes: ClusterNode[] = cluster.nodes) =>
      Object.fromEntries(nodes.map((n) => [n.id, value])) as Record<string, T>;

    /** Runs `fn` on each node at once; a failure becomes its message, so an assertion shows every node's outcome. */
    async function perNode<T>(
      nodes: ClusterNode[],
      fn: (node: ClusterNode) => Promise<T>,
    ): Promise<Record<string, T | string>> {
      const results = await Promise.all(
        nodes.map(async (n) => {
          try {
            return [n.id, await fn(n)] as const;
          } catch (err) {
            return [n.id, `failed: ${(err as Error).message.slice(0, 300)}`] as const;
          }
        }),
      );
      return Object.fromEntries(results) as Record<string, T | string>;
    }

    async function waitForOwner(channelId: string, timeoutMs = 15_000): Promise<string> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const owner = await cluster.ownerOf(channelId);
        if (owner !== null) return owner;
        if (Date.now() > end) throw new Error(`no owner for ${channelId}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** The channel's owner now, and the two nodes that only follow it. */
    async function roles(channelId: string) {
      const ownerId = await waitForOwner(channelId);
      const [follower, other] = cluster.nodes.filter((n) => n.id !== ownerId);
      return { owner: cluster.node(ownerId), follower: follower!, other: other! };
    }

    async function channelWithScore(node: ClusterNode, name: string) {
      const channel = expectStatus(await on(node)<Channel>('POST', '/v1/channels', { name }), 201);
      const scene = await addScoreboard(on(node), channel.id);
      expectStatus(await on(node)('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
      return { channelId: channel.id, token: tokenOf(channel.outputUrl), sceneId: scene.id };
    }

    async function connected(client: RenderClient): Promise<RenderClient> {
      clients.push(client);
      await client.next((m) => m.type === 'snapshot', { timeoutMs: FRAME_WAIT_MS });
      return client;
    }

    /** An output page on `node`, with its snapshot. */
    const renderer = async (node: ClusterNode, channelId: string, token: string) =>
      connected(await RenderClient.connect(node.url, channelId, { token }));

    /** A controller with the cluster's key on `node`; with `scenes = 'all'` it gets every scene and every edit. */
    const keySocket = async (node: ClusterNode, channelId: string, scenes?: string) =>
      connected(await RenderClient.connect(node.url, channelId, { key: CLUSTER_KEY, ...(scenes ? { scenes } : {}) }));

    /** 'open' once a connection with the token got its snapshot, or the upgrade's refusal status. */
    async function tokenOutcome(node: ClusterNode, channelId: string, token: string): Promise<'open' | number> {
      let client: RenderClient;
      try {
        client = await RenderClient.connect(node.url, channelId, { token });
      } catch (err) {
        if (err instanceof UpgradeRefused) return err.status;
        throw err;
      }
      try {
        const first = await Promise.race([
          client.next((m) => m.type === 'snapshot', { timeoutMs: FRAME_WAIT_MS }).then(() => 'open' as const),
          client.closed.then((c) => c.code),
        ]);
        return first;
      } finally {
        client.close();
      }
    }

    /** How each connection ended within `ms`: its close code, or 'still open'. */
    async function closeCodes(byNode: Record<string, RenderClient>, ms = FRAME_WAIT_MS) {
      const entries = await Promise.all(
        Object.entries(byNode).map(async ([id, client]) => {
          const code = await Promise.race([
            client.closed.then((c) => c.code),
            new Promise<string>((r) => setTimeout(() => r('still open'), ms)),
          ]);
          return [id, code] as const;
        }),
      );
      return Object.fromEntries(entries);
    }

    /** The frame number of the first frame since `mark` matching `pred` on each client (or why there was none). */
    async function framesSeen(
      byNode: Record<string, { client: RenderClient; mark: number }>,
      pred: (m: FrameMessage) => boolean,
    ): Promise<Record<string, number | string>> {
      const entries = await Promise.all(
        Object.entries(byNode).map(async ([id, { client, mark }]) => {
          try {
            const frame = await client.next<FrameMessage>((m) => isFrame(m) && pred(m), {
              since: mark,
              timeoutMs: FRAME_WAIT_MS,
            });
            return [id, frame.frame] as const;
          } catch (err) {
            return [id, `no such frame: ${(err as Error).message.slice(0, 400)}`] as const;
          }
        }),
      );
      return Object.fromEntries(entries) as Record<string, number | string>;
    }

    const marks = (byNode: Record<string, RenderClient>) =>
      Object.fromEntries(Object.entries(byNode).map(([id, client]) => [id, { client, mark: client.mark() }]));

    async function renderersEverywhere(channelId: string, token: string, nodes = cluster.nodes) {
      const entries = await Promise.all(nodes.map(async (n) => [n.id, await renderer(n, channelId, token)] as const));
      return Object.fromEntries(entries) as Record<string, RenderClient>;
    }

    async function stateOn(node: ClusterNode, channelId: string): Promise<State> {
      return expectStatus(await on(node)<State>('GET', `/v1/channels/${channelId}/state`), 200);
    }

    const outputTokenOn = async (node: ClusterNode, channelId: string) =>
      tokenOf(expectStatus(await on(node)<Channel>('GET', `/v1/channels/${channelId}`), 200).outputUrl);

    /** Re-reads `read()` until it deep-equals `expected` or `timeoutMs` pass; the last value (for expect.soft). */
    async function settle<T>(read: () => Promise<T>, expected: unknown, timeoutMs = 15_000): Promise<T> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > end) return value;
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    const statusOf = async (res: Promise<ApiResponse<unknown>>) => (await res).status;

    /** What a problem says, without what differs between two requests (request id, instance). */
    const problemOf = (res: ApiResponse<unknown>) => {
      const p = res.body as Problem;
      return { status: res.status, code: p.code, detail: p.detail, trigger: p.trigger, closest: p.closest };
    };

    // ---- 1 ----

    it('rotates the output token on a follower: old-token renderers on every node close with 4009, the new token connects on every node, the old one is refused (401) on every node', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[0]!, 'Rotate');
      const { follower } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token);
      const controllers = Object.fromEntries(
        await Promise.all(cluster.nodes.map(async (n) => [n.id, await keySocket(n, channelId)] as const)),
      );

      const rotated = expectStatus(await on(follower)<Channel>('POST', `/v1/channels/${channelId}/output-token`), 200);
      const fresh = tokenOf(rotated.outputUrl);
      expect(fresh).not.toBe(token);

      expect(await closeCodes(outputs)).toEqual(each(4009));
      // Every node's record has the new token (each node writes its URLs with its own base URL).
      await expect
        .poll(() => perNode(cluster.nodes, (n) => outputTokenOn(n, channelId)), { timeout: 15_000, interval: 100 })
        .toEqual(each(fresh));
      await expect
        .poll(() => perNode(cluster.nodes, (n) => tokenOutcome(n, channelId, fresh)), {
          timeout: 15_000,
          interval: 200,
        })
        .toEqual(each('open'));
      await expect
        .poll(() => perNode(cluster.nodes, (n) => tokenOutcome(n, channelId, token)), {
          timeout: 15_000,
          interval: 200,
        })
        .toEqual(each(401));

      // Connections made with a key stay open (docs/api.md, POST …/output-token), and new-token renderers draw.
      expect(Object.fromEntries(Object.entries(controllers).map(([id, c]) => [id, c.readyState]))).toEqual(each(1));
      const renewed = await renderersEverywhere(channelId, fresh);
      const since = marks(renewed);
      const ack = expectStatus(
        await on(follower)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 41 }),
        200,
      );
      expect(await framesSeen(since, (f) => f.inputs?.scoreA === 41)).toEqual(each(ack.frame));
    }, 90_000);

    // ---- 2 ----

    it('deletes a channel on a follower: every connection on every node closes with 4010, every node answers 404, and the lease row is gone', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[1]!, 'Doomed');
      const { owner, follower } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token);
      const controllers = Object.fromEntries(
        await Promise.all(cluster.nodes.map(async (n) => [n.id, await keySocket(n, channelId)] as const)),
      );

      expectStatus(await on(follower)('DELETE', `/v1/channels/${channelId}`), 204);

      // "its WebSocket connections are closed with code 4010" (docs/api.md, DELETE /v1/channels/{id}).
      expect(await closeCodes(outputs)).toEqual(each(4010));
      expect(await closeCodes(controllers)).toEqual(each(4010));
      await expect
        .poll(
          () =>
            perNode(cluster.nodes, async (n) => ({
              channel: await statusOf(on(n)('GET', `/v1/channels/${channelId}`)),
              state: await statusOf(on(n)('GET', `/v1/channels/${channelId}/state`)),
            })),
          { timeout: 15_000, interval: 100 },
        )
        .toEqual(each({ channel: 404, state: 404 }));
      // An op for it is refused at once on every node, the owner included (no 5 s wait for an owner that is gone).
      expect(
        await perNode(cluster.nodes, (n) =>
          statusOf(on(n)('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 })),
        ),
      ).toEqual(each(404));
      expect(await perNode(cluster.nodes, (n) => tokenOutcome(n, channelId, token))).toEqual(each(401));

      const leaseRows = async () =>
        Number(
          (await db.query<{ n: string }>('SELECT count(*) AS n FROM channel_leases WHERE channel_id = $1', [channelId]))
            .rows[0]!.n,
        );
      await expect.poll(leaseRows, { timeout: 15_000 }).toBe(0);
      // Still gone after the owner's next beats (it renews what it holds: the row must not come back).
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await leaseRows()).toBe(0);
      expect(await cluster.ownerOf(channelId)).toBeNull();
      expect(owner.process.exitCode).toBeNull();
    }, 90_000);

    // ---- 3 ----

    it('edits an on-air scene on a follower: renderers on the owner and on the other nodes get the new definition; deleting it is refused with 409 as on the owner', async () => {
      const { channelId, token, sceneId } = await channelWithScore(cluster.nodes[2]!, 'Scenes on air');
      const { owner, follower } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token);
      const before = expectStatus(await on(follower)<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200);

      const marker = `edited on ${follower.id} ${randomUUID().slice(0, 8)}`;
      const definition = withMarker(before.definition, marker);
      const since = marks(outputs);
      expectStatus(
        await on(follower)<Scene>('PUT', `/v1/channels/${channelId}/scenes/${sceneId}`, { definition }),
        200,
      );
      const hasMarker = (f: FrameMessage) =>
        (f.scenes ?? []).some((s) => s.id === sceneId && JSON.stringify(s.definition).includes(marker));
      const seen = await framesSeen(since, hasMarker);
      expect(seen).toEqual(each(expect.any(Number) as number));
      // One owner's frame carried it, the same on every node.
      expect(new Set(Object.values(seen)).size).toBe(1);
      // Each renderer's state holds it too: at once, or, for one that met a gap in its frames under load (and asked
      // for a resync), once the resync's snapshot is in.
      await expect
        .poll(
          () =>
            Object.fromEntries(
              Object.entries(outputs).map(([id, c]) => [
                id,
                c.synced && JSON.stringify(c.mirror?.scenes[sceneId]?.definition ?? null).includes(marker),
              ]),
            ),
          { timeout: 15_000, interval: 50 },
        )
        .toEqual(each(true));
      await expect
        .poll(
          () =>
            perNode(cluster.nodes, async (n) => {
              const res = await on(n)<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`);
              return JSON.stringify(res.body.definition).includes(marker);
            }),
          { timeout: 15_000, interval: 100 },
        )
        .toEqual(each(true));

      // On air: deleting it is refused on a follower exactly as on the owner, and so is moving it to another layer.
      const onFollower = await on(follower)('DELETE', `/v1/channels/${channelId}/scenes/${sceneId}`);
      const onOwner = await on(owner)('DELETE', `/v1/channels/${channelId}/scenes/${sceneId}`);
      expect(onFollower.status).toBe(409);
      expect(problemOf(onFollower)).toEqual(problemOf(onOwner));
      const moved = await on(follower)('PUT', `/v1/channels/${channelId}/scenes/${sceneId}`, {
        definition: { ...definition, layer: 42 },
      });
      expect(moved.status).toBe(409);
      // Nothing was deleted anywhere.
      expect(
        await perNode(cluster.nodes, (n) => statusOf(on(n)('GET', `/v1/channels/${channelId}/scenes/${sceneId}`))),
      ).toEqual(each(200));
      expect(Object.fromEntries(Object.entries(outputs).map(([id, c]) => [id, c.mirror!.program.length]))).toEqual(
        each(1),
      );
    }, 90_000);

    it('edits and deletes an off-air scene on a follower: every node and every scenes=all connection sees it, and the edit is what goes to air', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[0]!, 'Scenes off air');
      const { follower, other } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token);
      const watchers = Object.fromEntries(
        await Promise.all(cluster.nodes.map(async (n) => [n.id, await keySocket(n, channelId, 'all')] as const)),
      );

      // Created on the follower, off air.
      let since = marks(watchers);
      const lower = expectStatus(
        await on(follower)<Scene>('POST', `/v1/channels/${channelId}/scenes`, {
          name: 'Lower',
          template: 'lower-third',
        }),
        201,
      );
      const created = await framesSeen(since, (f) => (f.scenes ?? []).some((s) => s.id === lower.id));
      expect(created).toEqual(each(expect.any(Number) as number));

      // Edited on the follower, still off air: the scenes=all connections see the edit on every node.
      const marker = `off-air edit ${randomUUID().slice(0, 8)}`;
      since = marks(watchers);
      expectStatus(
        await on(follower)('PUT', `/v1/channels/${channelId}/scenes/${lower.id}`, {
          definition: withMarker(lower.definition, marker),
        }),
        200,
      );
      const hasMarker = (f: FrameMessage) =>
        (f.scenes ?? []).some((s) => s.id === lower.id && JSON.stringify(s.definition).includes(marker));
      const edited = await framesSeen(since, hasMarker);
      expect(edited).toEqual(each(expect.any(Number) as number));

      // Cut to air from the third node: every renderer draws the edited definition.
      since = marks(outputs);
      const cut = expectStatus(
        await on(other)<State>('POST', `/v1/channels/${channelId}/program`, { sceneId: lower.id }),
        200,
      );
      expect(await framesSeen(since, hasMarker)).toEqual(each(cut.frame));

      // Cleared on the third node, then deleted on the follower right after the clear was answered.
      expectStatus(await on(other)('POST', `/v1/channels/${channelId}/clear`, { sceneId: lower.id }), 200);
      since = marks(watchers);
      const deleted = await on(follower)('DELETE', `/v1/channels/${channelId}/scenes/${lower.id}`);
      expect(deleted.status === 204 ? 204 : problemOf(deleted)).toBe(204);
      const removed = await framesSeen(since, (f) => (f.removedScenes ?? []).includes(lower.id));
      expect(removed).toEqual(each(expect.any(Number) as number));
      await expect
        .poll(
          () => perNode(cluster.nodes, (n) => statusOf(on(n)('GET', `/v1/channels/${channelId}/scenes/${lower.id}`))),
          { timeout: 15_000, interval: 100 },
        )
        .toEqual(each(404));
      expect(Object.fromEntries(Object.entries(watchers).map(([id, c]) => [id, lower.id in c.mirror!.scenes]))).toEqual(
        each(false),
      );
    }, 90_000);

    // ---- 4 ----

    it('acks WebSocket ops sent with a key to a follower with the owner frame, which renderers on the other nodes draw', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[1]!, 'Socket ops');
      const lower = expectStatus(
        await on(cluster.nodes[1]!)<Scene>('POST', `/v1/channels/${channelId}/scenes`, {
          name: 'Lower',
          template: 'lower-third',
        }),
        201,
      );
      const { owner, follower, other } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token, [owner, other]);
      const ws = await keySocket(follower, channelId);
      let n = 0;
      const send = async (op: Record<string, unknown>) => {
        const id = `op${++n}`;
        ws.send({ ...op, id });
        return ws.reply(id, FRAME_WAIT_MS);
      };
      const elsewhere = [owner, other];

      let since = marks(outputs);
      const patched = ackedFrame(await send({ op: 'patch', inputs: { scoreA: 7 } }));
      expect(await framesSeen(since, (f) => f.inputs?.scoreA === 7)).toEqual(each(patched, elsewhere));
      // The follower answered once its own copy had that frame.
      expect((await stateOn(follower, channelId)).inputs.scoreA).toBe(7);

      ackedFrame(await send({ op: 'preview', sceneId: lower.id }));
      since = marks(outputs);
      const taken = ackedFrame(await send({ op: 'take' }));
      expect(await framesSeen(since, (f) => (f.program ?? []).some((p) => p.sceneId === lower.id))).toEqual(
        each(taken, elsewhere),
      );

      since = marks(outputs);
      const fired = ackedFrame(await send({ op: 'trigger', name: 'flashScoreA' }));
      expect(await framesSeen(since, (f) => (f.triggers ?? []).some((t) => t.name === 'flashScoreA'))).toEqual(
        each(fired, elsewhere),
      );

      since = marks(outputs);
      const clockReply = await send({ op: 'clock', name: 'gameClock', action: 'start' });
      const clocked = ackedFrame(clockReply);
      expect((clockReply as AckMessage).clock?.running).toBe(true);
      expect(await framesSeen(since, (f) => f.clocks?.gameClock?.running === true)).toEqual(each(clocked, elsewhere));
      for (const node of cluster.nodes) {
        const state = await stateOn(node, channelId);
        expect({ node: node.id, running: state.clocks.gameClock?.running }).toEqual({ node: node.id, running: true });
      }
    }, 90_000);

    it('answers WebSocket ops refused on a follower with the same code and detail as the REST route, on the follower and on the owner', async () => {
      const { channelId } = await channelWithScore(cluster.nodes[2]!, 'Socket errors');
      const { owner, follower } = await roles(channelId);
      const ws = await keySocket(follower, channelId);
      let n = 0;
      const refusal = async (op: Record<string, unknown>) => {
        const id = `bad${++n}`;
        ws.send({ ...op, id });
        const reply = await ws.reply(id, FRAME_WAIT_MS);
        return reply.type === 'error' ? { code: reply.code, detail: reply.detail } : { ack: reply };
      };
      const rest = async (node: ClusterNode, method: string, path: string, body?: unknown) => {
        const p = problemOf(await on(node)(method, `/v1/channels/${channelId}${path}`, body));
        return { code: p.code, detail: p.detail };
      };

      const cases: [Record<string, unknown>, string, string, unknown, string][] = [
        [{ op: 'patch', inputs: { nope: 1 } }, 'PATCH', '/inputs', { nope: 1 }, 'unknown_input'],
        [{ op: 'trigger', name: 'nope' }, 'POST', '/triggers/nope', undefined, 'unknown_trigger'],
        [{ op: 'clock', name: 'nope', action: 'start' }, 'POST', '/clocks/nope', { action: 'start' }, 'not_found'],
        // Refused in the owner's tick, not by the follower's own checks.
        [{ op: 'take' }, 'POST', '/take', undefined, 'preview_empty'],
      ];
      for (const [op, method, path, body, code] of cases) {
        const viaSocket = await refusal(op);
        const viaFollower = await rest(follower, method, path, body);
        const viaOwner = await rest(owner, method, path, body);
        expect({ op: op.op, viaSocket, viaFollower }).toEqual({
          op: op.op,
          viaSocket: viaOwner,
          viaFollower: viaOwner,
        });
        expect(viaOwner.code).toBe(code);
      }
      // The trigger's problem body names the trigger and the closest one, on the follower as on the owner.
      const followerTrigger = problemOf(await on(follower)('POST', `/v1/channels/${channelId}/triggers/flashScoreX`));
      const ownerTrigger = problemOf(await on(owner)('POST', `/v1/channels/${channelId}/triggers/flashScoreX`));
      expect(followerTrigger).toEqual(ownerTrigger);
      expect(ownerTrigger).toMatchObject({ status: 404, code: 'unknown_trigger', trigger: 'flashScoreX' });
    }, 60_000);

    // ---- 5 ----

    it('applies an incoming-hook post made to a follower, and every node sees it', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[0]!, 'Hooked');
      const hook = expectStatus(
        await on(cluster.nodes[0]!)<{ url: string }>('POST', `/v1/channels/${channelId}/incoming-hooks`, {
          name: 'Scorekeeper',
          mapping: { home_score: 'scoreA' },
        }),
        201,
      );
      const { follower } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token);
      const since = marks(outputs);
      const res = await postHook(follower, hook.url, { home_score: '5', venue: 'Arena' });
      const answer = expectStatus(res, 200) as { frame: number; applied: Record<string, unknown>; ignored: string[] };
      expect(answer.applied).toEqual({ scoreA: 5 });
      expect(answer.ignored).toEqual(['venue']);
      expect(await framesSeen(since, (f) => f.inputs?.scoreA === 5)).toEqual(each(answer.frame));
      expect(await perNode(cluster.nodes, async (n) => (await stateOn(n, channelId)).inputs.scoreA)).toEqual(each(5));
      const events = await eventsOf(cluster.nodes[2]!, channelId, 'channel.bind_updated');
      expect(events.find((e) => e.data.frame === answer.frame)?.data.source).toBe('incoming_webhook');
    }, 60_000);

    it("lands an incoming-hook post's values and clock actions in one frame when it is posted to a follower", async () => {
      // docs/incoming-hooks.md, "Mapping": "A post's values and clock actions land in one frame." A scene with a
      // few clocks: one post sets a value and every clock.
      const { channelId, token } = await channelWithScore(cluster.nodes[1]!, 'Hooked clocks');
      const clockNames = Array.from({ length: 16 }, (_, k) => `clock${k}`);
      expectStatus(
        await on(cluster.nodes[1]!)('POST', `/v1/channels/${channelId}/scenes`, {
          name: 'Clocks',
          definition: {
            layer: 40,
            inputs: clockNames.map((name) => ({ name, type: 'clock' })),
            elements: [{ type: 'box', x: 0, y: 0, width: 16, height: 16, fill: '#000000' }],
          },
        }),
        201,
      );
      const hook = expectStatus(
        await on(cluster.nodes[1]!)<{ url: string }>('POST', `/v1/channels/${channelId}/incoming-hooks`, {
          name: 'Scorekeeper',
        }),
        201,
      );
      const { owner, follower } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token, [owner]);
      const watcher = outputs[owner.id]!;
      // Posted to the owner first (where a post's ops are queued in one turn), then to a follower.
      const split: { post: number; via: string; answered: number; framesUsed: number[] }[] = [];
      const vias = [...Array<ClusterNode>(10).fill(owner), ...Array<ClusterNode>(30).fill(follower)];
      for (const [k, via] of vias.entries()) {
        const i = k + 1;
        const mark = watcher.mark();
        const ms = 60_000 + i * 1_000;
        const post = { scoreA: i, ...Object.fromEntries(clockNames.map((name) => [name, ms])) };
        const answer = expectStatus(await postHook(via, hook.url, post), 200) as { frame: number };
        const seen = async (pred: (f: FrameMessage) => boolean) =>
          (await watcher.next<FrameMessage>((m) => isFrame(m) && pred(m), { since: mark, timeoutMs: FRAME_WAIT_MS }))
            .frame;
        const frames = [await seen((f) => f.inputs?.scoreA === i)];
        for (const name of clockNames) frames.push(await seen((f) => f.clocks?.[name]?.ms === ms));
        const framesUsed = [...new Set([answer.frame, ...frames])].sort();
        if (framesUsed.length > 1) split.push({ post: i, via: via.id, answered: answer.frame, framesUsed });
        // Well under the channel's 30 updates a second.
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(split).toEqual([]);
    }, 90_000);

    it('refuses a signed hook post replayed to another node with 409: the replay keys are shared', async () => {
      // docs/incoming-hooks.md, "Replays": "every node of a cluster refuses a replay the others have seen".
      const { channelId } = await channelWithScore(cluster.nodes[0]!, 'Replayed');
      const hook = expectStatus(
        await on(cluster.nodes[0]!)<{ url: string; secret: string }>(
          'POST',
          `/v1/channels/${channelId}/incoming-hooks`,
          { name: 'Signed', mapping: { home_score: 'scoreA' }, requireSignature: true },
        ),
        201,
      );
      const signed = (node: ClusterNode, raw: string, ts: string) => {
        const mac = createHmac('sha256', hook.secret).update(`${ts}.${raw}`).digest('hex');
        const headers = { 'x-service-timestamp': ts, 'x-service-signature': `v1=${mac}` };
        return api(node.url, '')('POST', new URL(hook.url).pathname, undefined, { raw, headers, noAuth: true });
      };
      const ts = String(Math.floor(Date.now() / 1000));
      expectStatus(await signed(cluster.nodes[0]!, '{"home_score":3}', ts), 200);
      expectStatus(await signed(cluster.nodes[1]!, '{"home_score":4}', ts), 200);
      for (const node of cluster.nodes) {
        const replay = await signed(node, '{"home_score":3}', ts);
        expect({ node: node.id, status: replay.status }).toEqual({ node: node.id, status: 409 });
      }
      expect(await perNode(cluster.nodes, async (n) => (await stateOn(n, channelId)).inputs.scoreA)).toEqual(each(4));
    }, 60_000);

    // ---- 6 ----

    it('replays an Idempotency-Key across nodes: the same POST on node A then B then C creates once and answers the same', async () => {
      const [a, b, c] = cluster.nodes;
      const key = `paths-${randomUUID()}`;
      const name = `Idempotent ${key.slice(-8)}`;
      const post = (node: ClusterNode) =>
        on(node)<Channel>('POST', '/v1/channels', { name }, { headers: { 'idempotency-key': key } });
      const first = await post(a!);
      expect(first.status).toBe(201);
      for (const node of [b!, c!]) {
        const again = await post(node);
        expect({ node: node.id, status: again.status, replayed: again.headers.get('idempotent-replayed') }).toEqual({
          node: node.id,
          status: 201,
          replayed: 'true',
        });
        expect(again.body).toEqual(first.body);
      }
      const named = async (node: ClusterNode) => {
        const list = expectStatus(await on(node)<{ data: Channel[] }>('GET', '/v1/channels?limit=100'), 200);
        return list.data.filter((ch) => ch.name === name).map((ch) => ch.id);
      };
      expect(await perNode(cluster.nodes, named)).toEqual(each([first.body.id]));

      // A rotation is not made twice either: a renderer with the first answer's token stays connected on every node.
      const channelId = first.body.id;
      await addScoreboard(on(a!), channelId);
      const { follower, other } = await roles(channelId);
      const rotateKey = `rotate-${randomUUID()}`;
      const rotate = (node: ClusterNode) =>
        on(node)<Channel>('POST', `/v1/channels/${channelId}/output-token`, undefined, {
          headers: { 'idempotency-key': rotateKey },
        });
      const rotated = expectStatus(await rotate(follower), 200);
      const fresh = tokenOf(rotated.outputUrl);
      await expect
        .poll(() => perNode(cluster.nodes, (n) => tokenOutcome(n, channelId, fresh)), {
          timeout: 15_000,
          interval: 200,
        })
        .toEqual(each('open'));
      const outputs = await renderersEverywhere(channelId, fresh);
      const replay = await rotate(other);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(rotated);
      expect(await closeCodes(outputs, 1_500)).toEqual(each('still open'));
      expect(await perNode(cluster.nodes, (n) => outputTokenOn(n, channelId))).toEqual(each(fresh));

      // An op: a trigger posted to a follower, repeated on the owner with the same key, fires once.
      const { owner } = await roles(channelId);
      const sceneId = (await on(a!)<{ data: Scene[] }>('GET', `/v1/channels/${channelId}/scenes`)).body.data[0]!.id;
      expectStatus(await on(a!)('POST', `/v1/channels/${channelId}/program`, { sceneId }), 200);
      const watchers = await renderersEverywhere(channelId, fresh);
      const triggerKey = `trigger-${randomUUID()}`;
      const fire = (node: ClusterNode) =>
        on(node)<{ frame: number }>('POST', `/v1/channels/${channelId}/triggers/flashScoreA`, undefined, {
          headers: { 'idempotency-key': triggerKey },
        });
      const fired = expectStatus(await fire(follower), 200);
      const refired = await fire(owner);
      expect({
        status: refired.status,
        body: refired.body,
        replayed: refired.headers.get('idempotent-replayed'),
      }).toEqual({ status: 200, body: fired, replayed: 'true' });
      const firedOn = () =>
        Object.fromEntries(Object.entries(watchers).map(([id, w]) => [id, w.fired.map((f) => f.name)]));
      await expect.poll(firedOn, { timeout: FRAME_WAIT_MS }).toEqual(each(['flashScoreA']));
      // A second firing (the key admitted twice) would have come in the next frames.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(firedOn()).toEqual(each(['flashScoreA']));
    }, 60_000);

    it('admits the same Idempotency-Key sent to two nodes at once only once', async () => {
      const [a, b] = cluster.nodes;
      const key = `race-${randomUUID()}`;
      const name = `Raced ${key.slice(-8)}`;
      const post = (node: ClusterNode) =>
        on(node)<Channel>('POST', '/v1/channels', { name }, { headers: { 'idempotency-key': key } });
      const [onA, onB] = await Promise.all([post(a!), post(b!)]);
      // One runs; the other is the replay or 409 "still running" (docs/api.md, "Idempotent requests").
      const statuses = [onA.status, onB.status].sort();
      expect([
        [201, 201],
        [201, 409],
      ]).toContainEqual(statuses);
      const list = expectStatus(await on(b!)<{ data: Channel[] }>('GET', '/v1/channels?limit=100'), 200);
      expect(list.data.filter((ch) => ch.name === name)).toHaveLength(1);
    }, 30_000);

    // ---- 7 ----

    it('a channel created on one node is known on the others within a second (sooner, 404 is the documented limit), and is then usable there', async ({
      annotate,
    }) => {
      const [a, b, c] = cluster.nodes;
      const created = expectStatus(await on(a!)<Channel>('POST', '/v1/channels', { name: 'Fresh' }), 201);
      const channelId = created.id;
      // Right away: either it is known already, or the documented 404 ("Known limits").
      const rightAway = await perNode([b!, c!], (n) => statusOf(on(n)('GET', `/v1/channels/${channelId}`)));
      for (const status of Object.values(rightAway)) expect([200, 404]).toContain(status);
      await annotate(`GET on the other nodes right after the create answered: ${JSON.stringify(rightAway)}`);
      // The second is what this test asserts, not a wait to lengthen for a busy machine.
      await expect
        .poll(() => perNode([b!, c!], (n) => statusOf(on(n)('GET', `/v1/channels/${channelId}`))), {
          timeout: 1_000,
          interval: 25,
        })
        .toEqual(each(200, [b!, c!]));

      // Then used there: a scene made on B, cut on C, patched on B, drawn by a renderer on A.
      const scene = await addScoreboard(on(b!), channelId);
      expectStatus(await on(c!)('POST', `/v1/channels/${channelId}/program`, { sceneId: scene.id }), 200);
      const onA = await renderer(a!, channelId, tokenOf(created.outputUrl));
      const mark = onA.mark();
      const ack = expectStatus(
        await on(b!)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreB: 3 }),
        200,
      );
      const frame = await onA.next<FrameMessage>((m) => isFrame(m) && m.inputs?.scoreB === 3, {
        since: mark,
        timeoutMs: FRAME_WAIT_MS,
      });
      expect(frame.frame).toBe(ack.frame);
      expect(onA.mirror!.program.map((p) => p.sceneId)).toEqual([scene.id]);
    }, 60_000);

    // ---- 8 ----

    it("forwards and acks the dashboard's ops over a session-cookie WebSocket on a follower", async () => {
      const setupToken = await issueSetupToken(cluster);
      const [a] = cluster.nodes;
      const setup = await api(a!.url, '')(
        'POST',
        '/v1/auth/setup',
        {
          token: setupToken,
          email: 'owner@example.com',
          password: 'correct horse battery staple',
          workspaceName: 'Studio',
        },
        { noAuth: true },
      );
      expect(setup.status).toBe(201);
      const cookie = /(?:^|,\s*)(onair_session=[^;]*)/.exec(setup.headers.get('set-cookie') ?? '')?.[1];
      expect(cookie).toBeDefined();

      const { channelId, token } = await channelWithScore(a!, 'Dashboard');
      const { owner, follower, other } = await roles(channelId);
      const outputs = await renderersEverywhere(channelId, token, [owner, other]);
      // The dashboard's live view: scenes=all, the session cookie and the page's own Origin.
      const live = await connected(
        await RenderClient.connect(follower.url, channelId, {
          headers: { cookie: cookie!, origin: follower.url },
          scenes: 'all',
        }),
      );
      let since = marks(outputs);
      live.send({ op: 'patch', id: 'd1', inputs: { scoreA: 12 } });
      const patched = ackedFrame(await live.reply('d1', FRAME_WAIT_MS));
      expect(await framesSeen(since, (f) => f.inputs?.scoreA === 12)).toEqual(each(patched, [owner, other]));

      since = marks(outputs);
      live.send({ op: 'clock', id: 'd2', name: 'gameClock', action: 'set', ms: 90_000 });
      const clocked = ackedFrame(await live.reply('d2', FRAME_WAIT_MS));
      expect(await framesSeen(since, (f) => f.clocks?.gameClock?.ms === 90_000)).toEqual(each(clocked, [owner, other]));

      // The session's own connection sees its change too, and the change is recorded as the dashboard's.
      await live.next((m: ServerMessage) => isFrame(m) && m.frame === clocked, { timeoutMs: FRAME_WAIT_MS });
      const events = await eventsOf(other, channelId, 'channel.bind_updated');
      const sources = events
        .filter((e) => [patched, clocked].includes(e.data.frame as number))
        .map((e) => e.data.source);
      expect(sources).toEqual(['dashboard', 'dashboard']);
    }, 60_000);

    // ---- beyond the eight: the same entry points in the situations that stress them ----

    it('changes the frame rate on a follower: every node keeps following the channel (reads, snapshots and on-air checks on every node see later changes)', async () => {
      const { channelId, token } = await channelWithScore(cluster.nodes[2]!, 'Frame rate');
      const lower = expectStatus(
        await on(cluster.nodes[2]!)<Scene>('POST', `/v1/channels/${channelId}/scenes`, {
          name: 'Lower',
          template: 'lower-third',
        }),
        201,
      );
      const { owner, follower, other } = await roles(channelId);
      // 60 → 25 fps: frame numbers change scale (docs/api.md, "Ordering and resync"), here downwards.
      const renamed = { name: 'Frame rate 25', fps: 25 };
      expectStatus(await on(follower)<Channel>('PATCH', `/v1/channels/${channelId}`, renamed), 200);
      await expect
        .poll(
          () =>
            perNode(cluster.nodes, async (n) => {
              const { name, fps } = expectStatus(await on(n)<Channel>('GET', `/v1/channels/${channelId}`), 200);
              return { name, fps };
            }),
          { timeout: 15_000, interval: 100 },
        )
        .toEqual(each(renamed));
      expectStatus(
        await on(follower)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 55 }),
        200,
      );
      // "the receiving node answers once its own copy has reached that frame": a read after the answer sees it.
      expect
        .soft(await perNode([follower], async (n) => (await stateOn(n, channelId)).inputs.scoreA))
        .toEqual(each(55, [follower]));
      expect
        .soft(
          await settle(
            () => perNode(cluster.nodes, async (n) => (await stateOn(n, channelId)).inputs.scoreA),
            each(55),
          ),
        )
        .toEqual(each(55));
      // A renderer that connects now, on any node, starts from a snapshot that has the change.
      const snapshotScore = async (n: ClusterNode) => {
        const client = await RenderClient.connect(n.url, channelId, { token });
        try {
          const snap = await client.next((m) => m.type === 'snapshot', { timeoutMs: FRAME_WAIT_MS });
          return (snap as { inputs: Record<string, unknown> }).inputs.scoreA;
        } finally {
          client.close();
        }
      };
      expect.soft(await perNode(cluster.nodes, snapshotScore)).toEqual(each(55));
      // A scene cut to air afterwards is on air for every node's checks: deleting it is refused everywhere.
      expectStatus(await on(owner)('POST', `/v1/channels/${channelId}/program`, { sceneId: lower.id }), 200);
      const deleteOn = async (n: ClusterNode) =>
        (await on(n)('DELETE', `/v1/channels/${channelId}/scenes/${lower.id}`)).status;
      const refused: Record<string, number> = {};
      for (const n of [other, follower, owner]) refused[n.id] = await deleteOn(n);
      expect.soft(refused).toEqual(each(409, [other, follower, owner]));
    }, 60_000);

    it('answers an op in flight through a follower with 404 when the channel is deleted before it is applied, as the owner does', async () => {
      // docs/api.md, DELETE /v1/channels/{id}: "Operations still queued on it are answered 404 not_found".
      const { channelId } = await channelWithScore(cluster.nodes[0]!, 'Deleted in flight');
      const { owner, follower, other } = await roles(channelId);
      // The owner is paused for well under its lease (no failover) and under the 1.5 s a forwarded op waits for it,
      // so that the op sent through `other` is on its way to the owner when the deletion is made on `follower`.
      owner.process.kill('SIGSTOP');
      let inFlight: Promise<{ status: number; code: string; detail: string; ms: number }>[] = [];
      try {
        const started = Date.now();
        const send = (node: ClusterNode) =>
          on(node)<Problem>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 9 }).then((r) => ({
            status: r.status,
            code: r.body.code,
            detail: r.body.detail,
            ms: Date.now() - started,
          }));
        inFlight = [send(other), send(owner)];
        await new Promise((r) => setTimeout(r, 150));
        expectStatus(await on(follower)('DELETE', `/v1/channels/${channelId}`), 204);
      } finally {
        owner.process.kill('SIGCONT');
      }
      const [viaOther, viaOwner] = await Promise.all(inFlight);
      expect(viaOwner).toMatchObject({ status: 404, code: 'not_found' });
      expect({ status: viaOther!.status, code: viaOther!.code, detail: viaOther!.detail }).toEqual({
        status: 404,
        code: 'not_found',
        detail: expect.any(String) as string,
      });
    }, 60_000);

    it('rotates the token and edits the on-air scene on a follower while the owner is dead: after the takeover, old-token renderers are closed (4009) and connected renderers draw the edit', async () => {
      const { channelId, token, sceneId } = await channelWithScore(cluster.nodes[1]!, 'Owner dead');
      const { owner, follower, other } = await roles(channelId);
      const survivors = [follower, other];
      const outputs = await renderersEverywhere(channelId, token, survivors);
      const controllers = Object.fromEntries(
        await Promise.all(survivors.map(async (n) => [n.id, await keySocket(n, channelId)] as const)),
      );
      await owner.kill('SIGKILL');
      try {
        const rotated = expectStatus(
          await on(follower)<Channel>('POST', `/v1/channels/${channelId}/output-token`),
          200,
        );
        const before = expectStatus(
          await on(follower)<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`),
          200,
        );
        const marker = `edited while ${owner.id} was dead`;
        expectStatus(
          await on(follower)('PUT', `/v1/channels/${channelId}/scenes/${sceneId}`, {
            definition: withMarker(before.definition, marker),
          }),
          200,
        );
        // A survivor takes the channel over (≤ 5 s); then a change goes to air through the other survivor.
        const end = Date.now() + 15_000;
        while ([null, owner.id].includes(await cluster.ownerOf(channelId)) && Date.now() < end)
          await new Promise((r) => setTimeout(r, 100));
        expect([follower.id, other.id]).toContain(await cluster.ownerOf(channelId));
        const ack = expectStatus(
          await on(other)<{ frame: number }>('PATCH', `/v1/channels/${channelId}/inputs`, { scoreB: 8 }),
          200,
        );
        expect(ack.frame).toBeGreaterThan(0);

        // The old URL stops working: its renderers are closed, not left drawing the channel's new frames.
        expect.soft(await closeCodes(outputs, 15_000)).toEqual(each(4009, survivors));
        // The edit saved meanwhile reaches what the connected controllers draw.
        const drawn = () =>
          Object.fromEntries(
            Object.entries(controllers).map(([id, c]) => [
              id,
              JSON.stringify(c.mirror!.scenes[sceneId]?.definition ?? null).includes(marker),
            ]),
          );
        const deadline = Date.now() + 15_000;
        while (Object.values(drawn()).includes(false) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 200));
        expect.soft(drawn()).toEqual(each(true, survivors));
        // Reads and new connections have both (from Postgres): the part that works.
        expect(await perNode(survivors, (n) => tokenOutcome(n, channelId, tokenOf(rotated.outputUrl)))).toEqual(
          each('open', survivors),
        );
      } finally {
        collectErrors(await cluster.start(owner.id));
      }
    }, 90_000);

    // ---- helpers needing the cluster ----

    /** Posts JSON to a hook's URL, sent to `node` (the URL names the node that created the hook). */
    async function postHook(node: ClusterNode, url: string, body: unknown): Promise<ApiResponse<unknown>> {
      return api(node.url, '')('POST', new URL(url).pathname, body, { noAuth: true });
    }

    async function eventsOf(node: ClusterNode, channelId: string, type: string) {
      const out: { data: Record<string, unknown> }[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/v1/events?channelId=${channelId}&type=${type}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const page = expectStatus(
          await on(node)<{ data: { data: Record<string, unknown> }[]; nextCursor: string | null }>('GET', query),
          200,
        );
        out.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    }
  },
);

/** The definition with one more text element carrying `marker` (same layer, same inputs). */
function withMarker(definition: unknown, marker: string): Record<string, unknown> {
  const copy = structuredClone(definition) as Record<string, unknown> & { elements: unknown[] };
  copy.elements = [
    ...copy.elements,
    {
      type: 'text',
      x: 100,
      y: 100,
      width: 800,
      height: 80,
      text: marker,
      fontSize: 48,
      fontFamily: 'Inter',
      color: '#ffffff',
    },
  ];
  return copy;
}
