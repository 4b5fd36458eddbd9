/**
 * The NUL character (U+0000) in text a client sends (docs/api.md, "JSON"): Postgres cannot store it and SQLite can, so
 * every door refuses it the same way on both stores — REST bodies and URLs, WebSocket ops, incoming-hook posts,
 * uploaded OGraf manifests — and a data source's answer holding one is that fetch's error (docs/data-sources.md).
 * Run against SQLite here; test/nul-characters-postgres.test.ts runs the same doors on Postgres.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type Channel,
  type List,
  type ScoreboardChannel,
} from './helpers/api.js';
import { solidPng } from './helpers/asset-files.js';
import { addSource, fetchesOf, getSource, json, liveFeed } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import type { Delivery, HookCreated } from './helpers/incoming-hooks.js';
import { manifest, ografZip, uploadZip } from './helpers/ograf-packages.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

const RULE = 'must not contain the NUL character (U+0000)';
const WAIT = { timeout: 20_000, interval: 50 };

describe('REST bodies', () => {
  it('refuses a channel name holding U+0000 with 400 naming the field, and stores nothing', async () => {
    const before = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.length;
    const problem = expectProblem(await call('POST', '/v1/channels', { name: 'Main\u0000' }), 400, 'invalid_request');
    expect(problem.detail).toBe(`name: ${RULE}`);
    expect(errorPaths(problem)).toEqual(['name']);
    expect(expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data).toHaveLength(before);
  });

  it('refuses an input value holding U+0000 (the fast PATCH path too), and the channel goes on', async () => {
    const path = `/v1/channels/${ch.channelId}/inputs`;
    const problem = expectProblem(await call('PATCH', path, { home: 'Li\u0000ons' }), 400, 'invalid_request');
    expect(problem.detail).toBe(`home: ${RULE}`);
    expect((await getState(call, ch.channelId)).inputs.home).toBe('HOME');
    expectStatus(await call('PATCH', path, { home: 'Lions' }), 200);
    expect((await getState(call, ch.channelId)).inputs.home).toBe('Lions');
  });

  it('refuses U+0000 in a key, deep in a body, and however the JSON text spells it', async () => {
    const scenes = `/v1/channels/${ch.channelId}/scenes`;
    const deep = expectProblem(
      await call('POST', scenes, { name: 'Card', definition: { elements: [{ type: 'text', text: 'a\u0000' }] } }),
      400,
      'invalid_request',
    );
    expect(errorPaths(deep)).toEqual(['definition.elements.0.text']);
    const key = expectProblem(
      await call('PATCH', `/v1/channels/${ch.channelId}/inputs`, { ['ho\u0000me']: 'x' }),
      400,
      'invalid_request',
    );
    expect(key.detail).toBe(`ho\\u0000me: ${RULE}`);
    // An escaped backslash followed by "u0000" is six characters of text, not U+0000.
    const literal = await call<Channel>('POST', '/v1/channels', undefined, { raw: '{"name":"a\\\\u0000"}' });
    expect(expectStatus(literal, 201).name).toBe('a\\u0000');
  });

  it('refuses %00 in a URL path or query with 400', async () => {
    expectProblem(await call('GET', '/v1/channels/ch_%00'), 400, 'invalid_request');
    expectProblem(await call('GET', '/v1/events?channelId=%00'), 400, 'invalid_request');
  });
});

describe('asset uploads', () => {
  it("refuses an asset name holding U+0000, from a form's field or the query", async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(solidPng(2, 2, [255, 0, 0, 255]))]), 'red.png');
    form.append('name', 'Re\u0000d');
    const res = await fetch(`${server.url}/v1/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}` },
      body: form,
    });
    const problem = expectProblem(
      { status: res.status, headers: res.headers, body: await res.json() },
      400,
      'invalid_request',
    );
    expect(problem.detail).toBe(`name: ${RULE}`);
    const raw = { raw: new Uint8Array(solidPng(2, 2, [0, 0, 255, 255])), headers: { 'content-type': 'image/png' } };
    expectProblem(await call('POST', '/v1/assets?name=Bl%00ue', undefined, raw), 400, 'invalid_request');
    expect(expectStatus(await call<List<unknown>>('GET', '/v1/assets'), 200).data).toHaveLength(0);
  });
});

describe('WebSocket ops', () => {
  it('answers an op holding U+0000 with an error naming the field, and applies nothing', async () => {
    const client = await RenderClient.connect(server.url, ch.channelId, { key: server.key });
    clients.push(client);
    client.send({ op: 'patch', id: 'p1', inputs: { home: 'Li\u0000ons' } });
    expect(await client.reply('p1')).toMatchObject({
      type: 'error',
      id: 'p1',
      code: 'invalid_request',
      detail: `inputs.home: ${RULE}`,
    });
    client.send({ op: 'rundown.create', id: 'r1', name: 'Show\u0000' });
    expect(await client.reply('r1')).toMatchObject({ type: 'error', code: 'invalid_request' });
    client.send({ op: 'patch', id: 'p2', inputs: { home: 'Lions' } });
    expect(await client.reply('p2')).toMatchObject({ type: 'ack' });
    expect((await getState(call, ch.channelId)).inputs.home).toBe('Lions');
  });

  it('refuses an upgrade whose query spells U+0000 (%00) with 400, one channel or several', async () => {
    for (const named of [{ channel: `${ch.channelId}\u0000` }, { channel: '', channels: `${ch.channelId},x\u0000` }]) {
      const err: unknown = await RenderClient.connect(server.url, named.channel, {
        key: server.key,
        ...(named.channels ? { channels: named.channels } : {}),
      }).then(
        (c) => {
          clients.push(c);
          return new Error('the upgrade was accepted');
        },
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UpgradeRefused);
      const refused = err as UpgradeRefused;
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'invalid_request' });
    }
  });
});

describe('incoming-hook posts', () => {
  it('refuses a post holding U+0000 with 400, logs it, and applies nothing', async () => {
    const hooks = `/v1/channels/${ch.channelId}/incoming-hooks`;
    const hook = expectStatus(await call<HookCreated>('POST', hooks, { name: 'Scorer' }), 201);
    const post = (raw: string) =>
      api(hook.url, '')('POST', '', undefined, { raw, noAuth: true, headers: { 'content-type': 'application/json' } });
    const problem = expectProblem(await post('{"home":"Li\\u0000ons","scoreA":3}'), 400, 'invalid_request');
    expect(problem.detail).toBe(`home: ${RULE}`);
    // A raw NUL byte is not JSON at all; its answer and its log line hold no NUL either.
    expectProblem(await post('{"home":"Li\u0000ons"}'), 400, 'invalid_request');
    expect((await getState(call, ch.channelId)).inputs).toMatchObject({ home: 'HOME', scoreA: 0 });
    const log = expectStatus(await call<List<Delivery>>('GET', `${hooks}/${hook.id}/deliveries`), 200).data;
    expect(log.map((d) => d.status)).toEqual([400, 400]);
    expect(log[1]!.error).toBe(`invalid_request: home: ${RULE}`);
    for (const d of log) expect(`${d.error}${d.payload}`).not.toContain('\u0000');
  });
});

describe('OGraf manifests', () => {
  it('refuses a manifest holding U+0000 with 422 invalid_graphic naming the file and the field', async () => {
    const res = await uploadZip(
      server.url,
      server.key,
      ografZip({ 'lower-third.ograf.json': manifest({ name: 'L\u0000' }) }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'invalid_graphic',
      detail: `lower-third.ograf.json#name: ${RULE}`,
    });
    expect(expectStatus(await call<List<unknown>>('GET', '/v1/graphics'), 200).data).toHaveLength(0);
  });
});

describe('data sources', () => {
  let feed: FeedServer;
  beforeEach(async () => {
    feed = await startFeedServer();
  });
  afterEach(async () => {
    await feed.close();
  });

  it('makes an answer holding U+0000 the fetch error, applying nothing of it, until the feed is clean', async () => {
    const game = liveFeed(json({ home: 'Li\u0000ons', score: 2 }));
    feed.route('/game.json', game.handler);
    const source = await addSource(call, ch.channelId, {
      type: 'json_url',
      url: `${feed.origin}/game.json`,
      name: 'League feed',
      intervalMs: 1_000,
      mapping: { home: 'home', score: 'scoreA' },
    });
    await vi.waitFor(async () => expect((await getSource(call, source)).status.state).toBe('failing'), WAIT);
    const failing = await getSource(call, source);
    expect(failing.status.lastError).toContain(`Field "home" sets input "home" (text), which ${RULE}`);
    expect((await fetchesOf(call, source))[0]!.error).toContain(RULE);
    expect((await getState(call, ch.channelId)).inputs).toMatchObject({ home: 'HOME', scoreA: 0 });

    Object.assign(game.answer, json({ home: 'Lions', score: 2 }));
    await vi.waitFor(
      async () => expect((await getState(call, ch.channelId)).inputs).toMatchObject({ home: 'Lions', scoreA: 2 }),
      WAIT,
    );
  });

  it('refuses a CSV cell holding U+0000 the same way', async () => {
    feed.route(
      '/table.csv',
      liveFeed({ status: 200, headers: { 'content-type': 'text/csv' }, body: 'home,score\nLi\u0000ons,2\n' }).handler,
    );
    const source = await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/table.csv`,
      name: 'Sheet',
      intervalMs: 1_000,
      mapping: { home: 'home', score: 'scoreA' },
      row: { by: 'number', number: 1 },
    });
    await vi.waitFor(async () => expect((await getSource(call, source)).status.lastError).toContain(RULE), WAIT);
    expect((await getState(call, ch.channelId)).inputs).toMatchObject({ home: 'HOME', scoreA: 0 });
  });
});
