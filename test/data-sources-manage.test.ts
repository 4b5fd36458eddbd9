/**
 * Managing data sources (docs/data-sources.md): create, list, read, edit, pause and resume, delete, the dry run,
 * and the refusals at save, each naming its field, against a real server and a real local feed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  type Api,
  type List,
  type ScoreboardChannel,
} from './helpers/api.js';
import {
  addSource,
  json,
  liveFeed,
  sourceEvents,
  sourcesPath,
  type DryRun,
  type Source,
} from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
let feed: FeedServer;

const ALLOW_PRIVATE = { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1', ONAIR_LIMIT_SOURCES_PER_CHANNEL: '3' };

beforeEach(async () => {
  server = await startTestServer({}, ALLOW_PRIVATE);
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
  feed = await startFeedServer();
});

afterEach(async () => {
  await server.dispose();
  await feed.close();
});

const WAIT = { timeout: 20_000, interval: 50 };
const one = (s: Source) => `${sourcesPath(s.channelId)}/${s.id}`;
const jsonSource = (path: string, more: Record<string, unknown> = {}) => ({
  type: 'json_url',
  url: `${feed.origin}${path}`,
  intervalMs: 1_000,
  mapping: { home_score: 'scoreA' },
  ...more,
});

describe('managing sources', () => {
  it('creates, lists, reads, edits and deletes a source; deleting it stops its polling', async () => {
    const polled = liveFeed(json({ home_score: 1 }));
    const clock = liveFeed(json({ away_score: 1 }));
    feed.route('/a.json', polled.handler);
    feed.route('/clock.json', clock.handler);
    const a = await addSource(call, ch.channelId, jsonSource('/a.json', { name: 'A' }));
    expect(a).toMatchObject({ type: 'json_url', name: 'A', intervalMs: 1_000, row: null, table: null, paused: false });
    const b = await addSource(call, ch.channelId, { type: 'json_url', url: `${feed.origin}/clock.json` });
    expect(b).toMatchObject({ name: '127.0.0.1', intervalMs: 10_000, mapping: {} });
    const list = expectStatus(await call<List<Source>>('GET', sourcesPath(ch.channelId)), 200);
    expect(list.data.map((s) => s.id)).toEqual([a.id, b.id]);
    expect(expectStatus(await call<Source>('GET', one(a)), 200).id).toBe(a.id);

    const edited = expectStatus(
      await call<Source>('PATCH', one(b), { intervalMs: 1_000, mapping: { away_score: 'scoreB' } }),
      200,
    );
    expect(edited).toMatchObject({ intervalMs: 1_000, mapping: { away_score: 'scoreB' } });
    await vi.waitFor(async () => expect((await getState(call, ch.channelId)).inputs.scoreB).toBe(1), WAIT);

    expect((await call('DELETE', one(a))).status).toBe(204);
    expectProblem(await call('GET', one(a)), 404, 'not_found');
    // Polling the other source is the clock: three of its fetches later, the deleted one had none.
    const [before, clockBefore] = [polled.seen.length, clock.seen.length];
    await vi.waitFor(() => expect(clock.seen.length).toBeGreaterThanOrEqual(clockBefore + 3), WAIT);
    expect(polled.seen.length).toBe(before);
  });

  it('pauses (no fetch, refresh refused) and resumes (fetched at once)', async () => {
    const paused = liveFeed(json({ home_score: 2 }));
    const clock = liveFeed(json({}));
    feed.route('/p.json', paused.handler);
    feed.route('/clock.json', clock.handler);
    const s = await addSource(call, ch.channelId, jsonSource('/p.json'));
    await addSource(call, ch.channelId, jsonSource('/clock.json', { mapping: {} }));
    await vi.waitFor(() => expect(paused.seen.length).toBeGreaterThanOrEqual(1), WAIT);
    const off = expectStatus(await call<Source>('PATCH', one(s), { paused: true }), 200);
    expect(off).toMatchObject({ paused: true, status: { state: 'paused' } });
    const [before, clockBefore] = [paused.seen.length, clock.seen.length];
    expectProblem(await call('POST', `${one(s)}/refresh`), 409, 'conflict');
    await vi.waitFor(() => expect(clock.seen.length).toBeGreaterThanOrEqual(clockBefore + 3), WAIT);
    expect(paused.seen.length).toBe(before);

    Object.assign(paused.answer, json({ home_score: 3 }));
    const on = expectStatus(await call<Source>('PATCH', one(s), { paused: false }), 200);
    expect(on.paused).toBe(false);
    await vi.waitFor(async () => expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(3), WAIT);
  });

  it('refreshes at once, between polls an hour apart', async () => {
    const game = liveFeed(json({ home_score: 1 }));
    feed.route('/slow.json', game.handler);
    const s = await addSource(call, ch.channelId, jsonSource('/slow.json', { intervalMs: 3_600_000 }));
    await vi.waitFor(async () => expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(1), WAIT);
    Object.assign(game.answer, json({ home_score: 8 }));
    const after = expectStatus(await call<Source>('POST', `${one(s)}/refresh`), 200);
    expect(after.status).toMatchObject({ state: 'ok', lastError: null });
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(8);
    expect(game.seen).toHaveLength(2);
  });

  it('a dry run fetches once and answers what would be applied, changing nothing', async () => {
    const game = liveFeed(json({ home_score: 9, away_score: 4, venue: 'Arena' }));
    feed.route('/dry.json', game.handler);
    const before = stableState(await getState(call, ch.channelId));
    const dry = expectStatus(
      await call<DryRun>(
        'POST',
        `${sourcesPath(ch.channelId)}/test`,
        jsonSource('/dry.json', { mapping: { home_score: 'scoreA' } }),
      ),
      200,
    );
    expect(dry).toMatchObject({ values: { scoreA: 9 }, error: null, fetch: { status: 200 } });
    expect(dry.unmapped.sort()).toEqual(['away_score', 'venue']);
    expect(dry.fetch.bytes).toBeGreaterThan(0);
    expect(game.seen).toHaveLength(1);
    expect(stableState(await getState(call, ch.channelId))).toEqual(before);
    expect(expectStatus(await call<List<Source>>('GET', sourcesPath(ch.channelId)), 200).data).toEqual([]);
    expect(await sourceEvents(call, ch.channelId)).toEqual([]);

    Object.assign(game.answer, { status: 200, headers: { 'content-type': 'text/html' }, body: '<html></html>' });
    const html = expectStatus(
      await call<DryRun>('POST', `${sourcesPath(ch.channelId)}/test`, jsonSource('/dry.json')),
      200,
    );
    expect(html).toMatchObject({ values: {}, error: expect.stringMatching(/HTML/) as string });
  });
});

describe('refusals at save, naming the field', () => {
  const refused = async (body: Record<string, unknown>, status: number, code: string, path: string) => {
    const res = await call('POST', sourcesPath(ch.channelId), body);
    expect(errorPaths(expectProblem(res, status, code))).toContain(path);
  };

  it('refuses a bad URL, an interval out of range, a CSV without row or table, and a bad mapping', async () => {
    await refused(jsonSource('', { url: 'ftp://example.com/feed.json' }), 422, 'endpoint_refused', 'url');
    await refused(jsonSource('', { url: 'not a url' }), 422, 'endpoint_refused', 'url');
    await refused(jsonSource('/x.json', { intervalMs: 999 }), 400, 'invalid_request', 'intervalMs');
    await refused(jsonSource('/x.json', { intervalMs: 3_600_001 }), 400, 'invalid_request', 'intervalMs');
    const sheet = 'https://docs.google.com/spreadsheets/d/e/2PACX-1vQabc/pub?output=csv';
    await refused(
      { type: 'csv_url', url: sheet, intervalMs: 10_000, row: { by: 'number', number: 1 } },
      400,
      'invalid_request',
      'intervalMs',
    );
    await refused({ type: 'csv_url', url: `${feed.origin}/x.csv` }, 400, 'invalid_request', 'row');
    await refused(jsonSource('/x.json', { row: { by: 'cursor' } }), 400, 'invalid_request', 'row');
    await refused(
      jsonSource('/x.json', { mapping: { home_score: 'nope' } }),
      400,
      'unknown_input',
      'mapping.home_score',
    );
    await refused(jsonSource('/x.json', { mapping: { 'a..b': 'scoreA' } }), 400, 'invalid_request', 'mapping.a..b');
    await refused(
      jsonSource('/x.json', { mapping: {}, table: { input: 'scoreA' } }),
      400,
      'invalid_request',
      'table.input',
    );
    // Two writers of one input: the table and the mapping.
    await refused(jsonSource('/x.json', { table: { input: 'scoreA' } }), 400, 'invalid_request', 'mapping.home_score');
    await refused(jsonSource('/x.json', { tyop: 1 }), 400, 'invalid_request', 'tyop');
    expect(expectStatus(await call<List<Source>>('GET', sourcesPath(ch.channelId)), 200).data).toEqual([]);
    // A published sheet gets its own interval: 60 s by default.
    const made = await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: sheet,
      row: { by: 'cursor' },
      paused: true,
    });
    expect(made.intervalMs).toBe(60_000);
  });

  it('refuses an edit the same way, and keeps the source as it was', async () => {
    const s = await addSource(call, ch.channelId, jsonSource('/x.json', { paused: true }));
    expectProblem(await call('PATCH', one(s), { intervalMs: 10 }), 400, 'invalid_request');
    expectProblem(await call('PATCH', one(s), { url: 'ftp://example.com/' }), 422, 'endpoint_refused');
    expectProblem(await call('PATCH', one(s), { type: 'csv_url' }), 400, 'invalid_request');
    expect(expectStatus(await call<Source>('GET', one(s)), 200)).toEqual(s);
  });

  it('refuses more sources than ONAIR_LIMIT_SOURCES_PER_CHANNEL, naming the setting', async () => {
    for (let i = 0; i < 3; i++) await addSource(call, ch.channelId, jsonSource(`/${i}.json`, { paused: true }));
    const problem = expectProblem(
      await call('POST', sourcesPath(ch.channelId), jsonSource('/4.json')),
      422,
      'limit_reached',
    );
    expect(problem).toMatchObject({ limit: 3, setting: 'ONAIR_LIMIT_SOURCES_PER_CHANNEL' });
  });

  it('refuses a private address where private targets are not allowed, at save', async () => {
    const strict = await startTestServer({ webhookResolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      const strictCall = api(strict.url, strict.key);
      const channel = await createChannelWithScoreboard(strictCall);
      for (const url of [`${feed.origin}/x.json`, 'https://feed.test/x.json', 'https://10.0.0.7/x.json']) {
        const res = await strictCall('POST', sourcesPath(channel.channelId), { type: 'json_url', url });
        expect(errorPaths(expectProblem(res, 422, 'endpoint_refused')), url).toEqual(['url']);
      }
    } finally {
      await strict.dispose();
    }
  });
});
