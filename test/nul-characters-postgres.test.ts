/**
 * The NUL character (U+0000) on Postgres, whose `text` cannot hold it (docs/api.md, "JSON"): every door refuses it as
 * on SQLite (test/nul-characters.test.ts) — a 400, never a 500 — the hook's logs and a source's fetch log are written,
 * and the channel goes on drawing and storing clean values. One real node on Postgres and Redis.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, expectStatus, type Api, type Channel, type List, type Scene, type State } from './helpers/api.js';
import { CLUSTER_KEY, startCluster, type ClusterNode, type TestCluster } from './helpers/cluster.js';
import { addSource, getSource, json, liveFeed } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import type { Delivery, HookCreated } from './helpers/incoming-hooks.js';
import { manifest, ografZip, uploadZip } from './helpers/ograf-packages.js';
import { expectProblem } from './helpers/problem.js';
import { serviceGate } from './helpers/services.js';
import { RenderClient } from './helpers/ws-client.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');
const RULE = 'must not contain the NUL character (U+0000)';
const WAIT = { timeout: 20_000, interval: 100 };

describe.skipIf(postgres.skip || redis.skip)(`U+0000 on Postgres${postgres.label || redis.label}`, () => {
  let cluster: TestCluster;
  let node: ClusterNode;
  let call: Api;
  let feed: FeedServer;
  let channelId: string;
  const clients: RenderClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster(['node-a'], { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
    node = cluster.node('node-a');
    call = api(node.url, CLUSTER_KEY);
    feed = await startFeedServer();
    channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201).id;
    const path = `/v1/channels/${channelId}/scenes`;
    const scene = expectStatus(await call<Scene>('POST', path, { name: 'Score', template: 'scoreboard' }), 201);
    expectStatus(await call('POST', `/v1/channels/${channelId}/program`, { sceneId: scene.id }), 200);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await feed?.close();
    await cluster?.stop();
  });

  const inputs = async () => expectStatus(await call<State>('GET', `/v1/channels/${channelId}/state`), 200).inputs;

  it('refuses a channel name and an input value holding U+0000 with 400; clean values are stored after', async () => {
    expectProblem(await call('POST', '/v1/channels', { name: 'Main\u0000' }), 400, 'invalid_request');
    expect(expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data).toHaveLength(1);
    const patch = `/v1/channels/${channelId}/inputs`;
    expectProblem(await call('PATCH', patch, { home: 'Li\u0000ons' }), 400, 'invalid_request');
    expectProblem(await call('GET', `/v1/events?channelId=%00`), 400, 'invalid_request');
    expectStatus(await call('PATCH', patch, { home: 'Lions' }), 200);
    expect((await inputs()).home).toBe('Lions');
  });

  it('answers a WebSocket op holding U+0000 with an error, and the next op is acked', async () => {
    const client = await RenderClient.connect(node.url, channelId, { key: CLUSTER_KEY });
    clients.push(client);
    client.send({ op: 'patch', id: 'p1', inputs: { away: 'Be\u0000ars' } });
    expect(await client.reply('p1')).toMatchObject({ type: 'error', code: 'invalid_request' });
    client.send({ op: 'patch', id: 'p2', inputs: { away: 'Bears' } });
    expect(await client.reply('p2')).toMatchObject({ type: 'ack' });
    expect((await inputs()).away).toBe('Bears');
  });

  it('refuses a hook post holding U+0000, escaped or raw, and logs both', async () => {
    const hooks = `/v1/channels/${channelId}/incoming-hooks`;
    const hook = expectStatus(await call<HookCreated>('POST', hooks, { name: 'Scorer' }), 201);
    const post = (raw: string) =>
      api(hook.url, '')('POST', '', undefined, { raw, noAuth: true, headers: { 'content-type': 'application/json' } });
    expectProblem(await post('{"home":"Li\\u0000ons"}'), 400, 'invalid_request');
    expectProblem(await post('{"home":"Li\u0000ons"}'), 400, 'invalid_request');
    const log = expectStatus(await call<List<Delivery>>('GET', `${hooks}/${hook.id}/deliveries`), 200).data;
    expect(log.map((d) => d.status)).toEqual([400, 400]);
  });

  it('refuses an OGraf manifest holding U+0000 with 422', async () => {
    const zip = ografZip({ 'lower-third.ograf.json': manifest({ version: '1.0\u0000' }) });
    const res = await uploadZip(node.url, CLUSTER_KEY, zip);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'invalid_graphic', detail: `lower-third.ograf.json#version: ${RULE}` });
  });

  it('makes a data source answer holding U+0000 its fetch error, applying nothing of it', async () => {
    feed.route('/game.json', liveFeed(json({ home: 'Ti\u0000gers', score: 5 })).handler);
    const source = await addSource(call, channelId, {
      type: 'json_url',
      url: `${feed.origin}/game.json`,
      name: 'League feed',
      intervalMs: 1_000,
      mapping: { home: 'home', score: 'scoreA' },
    });
    await vi.waitFor(async () => expect((await getSource(call, source)).status.lastError).toContain(RULE), WAIT);
    expect(await inputs()).toMatchObject({ home: 'Lions', scoreA: 0 });
  });
});
