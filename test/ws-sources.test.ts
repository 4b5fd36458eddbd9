/**
 * A channel's data sources on the real-time WebSocket (docs/api.md, "Real-time WebSocket"; docs/data-sources.md):
 * key and session connections get the `sources` message when they connect and whenever a source is created, edited,
 * deleted or its state or row changes; output pages never get it. The `source.refresh` and `source.row` ops do what
 * the REST routes do, with the same permission (inputs:write).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type ScoreboardChannel,
} from './helpers/api.js';
import { createKey } from './helpers/access-fixtures.js';
import { addSource, csv, json, liveFeed, sourcesPath, type Source } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, type ServerMessage } from './helpers/ws-client.js';

/** The message as docs/api.md describes it. */
interface SourcesMessage {
  type: 'sources';
  channelId: string;
  sources: {
    id: string;
    name: string;
    type: string;
    paused: boolean;
    state: string;
    lastError: string | null;
    lastChangeAt: string | null;
    cursor: number | null;
  }[];
}

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
let feed: FeedServer;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
  feed = await startFeedServer();
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
  await feed.close();
});

async function connect(channelId: string, auth: { token?: string; key?: string; channels?: string }) {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

const isSources = (m: ServerMessage): m is ServerMessage & SourcesMessage => (m.type as string) === 'sources';

/** The next `sources` message (from index `since`) that `pred` accepts. */
const sourcesMessage = (client: RenderClient, pred: (m: SourcesMessage) => boolean = () => true, since = 0) =>
  client.next<ServerMessage & SourcesMessage>((m) => isSources(m) && pred(m), { since, timeoutMs: 20_000 });

const jsonSource = (path: string, intervalMs = 1_000) =>
  addSource(call, ch.channelId, {
    type: 'json_url',
    url: `${feed.origin}${path}`,
    name: 'League feed',
    intervalMs,
    mapping: { 'home.score': 'scoreA' },
  });

const RESULTS = ['Game,Home Score', 'Semi 1,3', 'Semi 2,0', 'Final,2'].join('\r\n');
const csvSource = () =>
  addSource(call, ch.channelId, {
    type: 'csv_url',
    url: `${feed.origin}/results.csv`,
    name: 'Results',
    intervalMs: 60_000,
    mapping: { Home_Score: 'scoreA' },
    row: { by: 'cursor' },
  });

describe('the sources message', () => {
  it('comes on connect with each source’s state, and only when the channel has sources', async () => {
    const empty = await connect(ch.channelId, { key: server.key });
    expect((await empty.collectFor(700)).filter(isSources)).toEqual([]);

    feed.route('/game.json', liveFeed(json({ home: { score: 3 } })).handler);
    const source = await jsonSource('/game.json', 60_000);
    await expect
      .poll(async () => (await call<Source>('GET', `${sourcesPath(ch.channelId)}/${source.id}`)).body.status.state, {
        timeout: 20_000,
      })
      .toBe('ok');
    const operator = await connect(ch.channelId, { key: server.key });
    const message = await sourcesMessage(operator);
    expect(message).toEqual({
      type: 'sources',
      channelId: ch.channelId,
      sources: [
        {
          id: source.id,
          name: 'League feed',
          type: 'json_url',
          paused: false,
          state: 'ok',
          lastError: null,
          lastChangeAt: expect.any(String) as string,
          cursor: null,
        },
      ],
    });
  });

  it('follows a source that starts failing and recovers, pushed with its error', async () => {
    const game = liveFeed(json({ home: { score: 1 } }));
    feed.route('/game.json', game.handler);
    const operator = await connect(ch.channelId, { key: server.key });
    const source = await jsonSource('/game.json');
    await sourcesMessage(operator, (m) => m.sources[0]?.state === 'ok');

    Object.assign(game.answer, { status: 500, body: 'down' });
    const failing = await sourcesMessage(operator, (m) => m.sources[0]?.state === 'failing');
    expect(failing.sources[0]).toMatchObject({ id: source.id, lastError: expect.stringContaining('500') as string });

    Object.assign(game.answer, json({ home: { score: 2 } }));
    const since = operator.mark();
    const back = await sourcesMessage(operator, (m) => m.sources[0]?.state === 'ok', since);
    expect(back.sources[0]).toMatchObject({ lastError: null });
  });

  it('follows creates, edits, pauses and deletes, at most twice a second, the last change always sent', async () => {
    feed.route('/game.json', liveFeed(json({ home: { score: 1 } })).handler);
    const operator = await connect(ch.channelId, { key: server.key });
    const source = await jsonSource('/game.json', 60_000);
    await sourcesMessage(operator, (m) => m.sources.some((s) => s.id === source.id));

    const path = `${sourcesPath(ch.channelId)}/${source.id}`;
    const since = operator.mark();
    const startedAt = Date.now();
    for (let n = 1; n <= 8; n++) expectStatus(await call('PATCH', path, { name: `Name ${n}` }), 200);
    expectStatus(await call('PATCH', path, { paused: true }), 200);
    const paused = await sourcesMessage(operator, (m) => m.sources[0]?.name === 'Name 8' && m.sources[0].paused, since);
    expect(paused.sources[0]).toMatchObject({ state: 'paused' });
    const sent = operator.messages.slice(since).filter(isSources).length;
    // Nine changes: one message at most per 500 ms they took, plus the one that opens the window.
    expect(sent).toBeLessThanOrEqual(Math.floor((Date.now() - startedAt) / 500) + 1);

    expectStatus(await call('DELETE', path), 204);
    await sourcesMessage(operator, (m) => m.sources.length === 0, since);
  });

  it('names its channel on a connection following several channels', async () => {
    const other = await createChannelWithScoreboard(call, 'Other');
    const client = await RenderClient.connect(server.url, '', {
      key: server.key,
      channels: `${ch.channelId},${other.channelId}`,
    });
    clients.push(client);
    await client.next((m) => m.type === 'snapshot' && m.channelId === other.channelId);
    feed.route('/game.json', liveFeed(json({ home: { score: 1 } })).handler);
    const source = await jsonSource('/game.json', 60_000);
    const message = await sourcesMessage(client, (m) => m.sources.length === 1);
    expect(message).toMatchObject({ channelId: ch.channelId, sources: [{ id: source.id }] });
    expect(client.messages.filter(isSources).every((m) => m.channelId === ch.channelId)).toBe(true);
  });

  it('never goes to an output page', async () => {
    const game = liveFeed(json({ home: { score: 1 } }));
    feed.route('/game.json', game.handler);
    const source = await jsonSource('/game.json');
    const page = await connect(ch.channelId, { token: ch.token });
    const operator = await connect(ch.channelId, { key: server.key });
    await sourcesMessage(operator, (m) => m.sources[0]?.state === 'ok');
    Object.assign(game.answer, { status: 500, body: 'down' });
    await sourcesMessage(operator, (m) => m.sources[0]?.state === 'failing');
    expectStatus(await call('DELETE', `${sourcesPath(ch.channelId)}/${source.id}`), 204);
    await sourcesMessage(operator, (m) => m.sources.length === 0);
    expect(page.messages.filter(isSources)).toEqual([]);
  });
});

describe('the source ops', () => {
  it('source.row moves the cursor as REST does, acked with the source; source.refresh fetches now', async () => {
    feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
    const source = await csvSource();
    await expect.poll(async () => (await getState(call, ch.channelId)).inputs.scoreA, { timeout: 20_000 }).toBe(3);
    const operator = await connect(ch.channelId, { key: server.key });

    operator.send({ op: 'source.row', id: 'r1', sourceId: source.id, move: 'next' });
    expect(await operator.reply('r1')).toMatchObject({ type: 'ack', source: { id: source.id, cursor: 2 } });
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(0);
    operator.send({ op: 'source.row', id: 'r2', sourceId: source.id, number: 3 });
    expect(await operator.reply('r2')).toMatchObject({ type: 'ack', source: { cursor: 3 } });
    const rest = expectStatus(await call<Source>('GET', `${sourcesPath(ch.channelId)}/${source.id}`), 200);
    expect(rest.status.cursor).toBe(3);
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(2);
    await sourcesMessage(operator, (m) => m.sources[0]?.cursor === 3);

    const before = feed.requests.length;
    operator.send({ op: 'source.refresh', id: 'f1', sourceId: source.id });
    expect(await operator.reply('f1')).toMatchObject({ type: 'ack', source: { id: source.id, state: 'ok' } });
    expect(feed.requests.length).toBeGreaterThan(before);

    operator.send({ op: 'source.row', id: 'r3', sourceId: source.id, number: 9 });
    expect(await operator.reply('r3')).toMatchObject({ type: 'error', code: 'invalid_request' });
  });

  it('are refused without inputs:write, as on REST, and answer a paused source as REST does', async () => {
    feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
    const source = await csvSource();
    const reader = await createKey(call, ['channels:read']);
    const client = await connect(ch.channelId, { key: reader.secret });
    await sourcesMessage(client);
    client.send({ op: 'source.refresh', id: 'f1', sourceId: source.id });
    client.send({ op: 'source.row', id: 'r1', sourceId: source.id, move: 'next' });
    expect(await client.reply('f1')).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await client.reply('r1')).toMatchObject({ type: 'error', code: 'forbidden' });
    const rest = api(server.url, reader.secret);
    expect((await rest('POST', `${sourcesPath(ch.channelId)}/${source.id}/refresh`)).status).toBe(403);

    expectStatus(await call('PATCH', `${sourcesPath(ch.channelId)}/${source.id}`, { paused: true }), 200);
    const operator = await connect(ch.channelId, { key: server.key });
    operator.send({ op: 'source.refresh', id: 'f2', sourceId: source.id });
    expect(await operator.reply('f2')).toMatchObject({ type: 'error', code: 'conflict' });
    expect((await call('POST', `${sourcesPath(ch.channelId)}/${source.id}/refresh`)).status).toBe(409);
  });
});
