/**
 * Data sources on several nodes (docs/data-sources.md, "Several nodes"), two real nodes on one Postgres and one Redis
 * polling a real local feed: only the channel's owner fetches (never two fetches at once, never twice the rate), a
 * source created on the other node is polled by the owner, and when the owner is killed the node that takes the
 * channel over goes on polling it, from where the store says it stood; a socket on the node that does not poll hears the
 * source's state all the same.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, addScoreboard, expectStatus, getState, type Api, type Channel } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { addSource } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { serviceGate } from './helpers/services.js';
import { RenderClient, type ServerMessage } from './helpers/ws-client.js';

interface SourcesMessage {
  type: 'sources';
  sources: { id: string; state: string }[];
}

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

/** How long the feed takes to answer: long enough that two nodes polling would overlap. */
const ANSWER_MS = 400;

describe.skipIf(postgres.skip || redis.skip)(`data sources on two nodes${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;
  let feed: FeedServer;
  let score = 1;
  let open = 0;
  let maxOpen = 0;
  const starts: number[] = [];

  beforeAll(async () => {
    cluster = await startCluster(['node-a', 'node-b'], { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
    feed = await startFeedServer();
    feed.route('/game.json', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      starts.push(Date.now());
      maxOpen = Math.max(maxOpen, ++open);
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ home_score: score }));
      }, ANSWER_MS);
    });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await feed?.close();
  });

  const on = (node: ClusterNode): Api => api(node.url, CLUSTER_KEY);

  async function ownerOf(channelId: string): Promise<ClusterNode> {
    let owner: string | null = null;
    await vi.waitFor(async () => expect((owner = await cluster.ownerOf(channelId))).not.toBeNull(), {
      timeout: 15_000,
      interval: 25,
    });
    return cluster.node(owner!);
  }

  it('pushes the state a source has on the owner to a socket on the other node', async () => {
    const first = cluster.nodes[0]!;
    const channel = expectStatus(await on(first)<Channel>('POST', '/v1/channels', { name: 'Watched' }), 201);
    await addScoreboard(on(first), channel.id);
    const owner = await ownerOf(channel.id);
    const other = cluster.nodes.find((n) => n !== owner)!;
    const watcher = await RenderClient.connect(other.url, channel.id, { key: CLUSTER_KEY });
    try {
      const ok = { status: 200, body: JSON.stringify({ home_score: 5 }) };
      feed.route('/watched.json', (_req, res) => res.writeHead(ok.status).end(ok.body));
      const source = await addSource(on(other), channel.id, {
        type: 'json_url',
        url: `${feed.origin}/watched.json`,
        intervalMs: 1_000,
        mapping: { home_score: 'scoreA' },
      });
      const stateOf = (m: ServerMessage) =>
        (m.type as string) === 'sources' ? (m as unknown as SourcesMessage).sources[0]?.state : undefined;
      // Only the owner fetches it: the socket on the other node hears what the owner recorded.
      await watcher.next((m) => stateOf(m) === 'ok', { timeoutMs: 20_000 });
      Object.assign(ok, { status: 500, body: 'down' });
      await watcher.next((m) => stateOf(m) === 'failing', { timeoutMs: 20_000 });
      expectStatus(await on(other)('DELETE', `/v1/channels/${channel.id}/sources/${source.id}`), 204);
    } finally {
      watcher.close();
    }
  }, 60_000);

  it('is polled by the owner only, and by the node that takes the channel over when the owner dies', async () => {
    const first = cluster.nodes[0]!;
    const channel = expectStatus(await on(first)<Channel>('POST', '/v1/channels', { name: 'Fed' }), 201);
    await addScoreboard(on(first), channel.id);
    const owner = await ownerOf(channel.id);
    const other = cluster.nodes.find((n) => n !== owner)!;
    // Made on the node that does not poll it: the owner reads it from the store.
    await addSource(on(other), channel.id, {
      type: 'json_url',
      url: `${feed.origin}/game.json`,
      intervalMs: 1_000,
      mapping: { home_score: 'scoreA' },
    });
    await vi.waitFor(() => expect(starts.length).toBeGreaterThanOrEqual(6), { timeout: 30_000, interval: 50 });
    expect(maxOpen).toBe(1);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // One node: a fetch, then one interval less its 10 % of jitter. Two would meet well inside that.
    expect(Math.min(...gaps)).toBeGreaterThan(ANSWER_MS + 800);
    expect((await getState(on(other), channel.id)).inputs.scoreA).toBe(1);

    await owner.kill('SIGKILL');
    const killedAt = Date.now();
    score = 2;
    await vi.waitFor(async () => expect((await getState(on(other), channel.id)).inputs.scoreA).toBe(2), {
      timeout: 30_000,
      interval: 100,
    });
    // The lease lasts 3 s; then the next beat takes the channel over and the poller starts within a second.
    expect(Date.now() - killedAt).toBeLessThan(3_000 + 1_000 + 1_100 + ANSWER_MS + 3_000);
    expect(maxOpen).toBe(1);
  }, 120_000);
});
