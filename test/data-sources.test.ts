/**
 * Data sources (docs/data-sources.md) end to end: a real server polling real local HTTP and HTTPS feeds, what it puts
 * on air (the channel's state), the events it causes (the events API), and what it does when a feed stops changing,
 * answers 304 or fails.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type ScoreboardChannel,
} from './helpers/api.js';
import {
  addSource,
  fetchesOf,
  getSource,
  json,
  liveFeed,
  sourceEvents,
  sourcesPath,
  type Source,
} from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
let feed: FeedServer;

beforeEach(async () => {
  server = await startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
  feed = await startFeedServer();
});

afterEach(async () => {
  await server.dispose();
  await feed.close();
});

const inputs = async () => (await getState(call, ch.channelId)).inputs;

/** onair_source_fetches_total by outcome, from /metrics. */
async function fetchCounts(): Promise<Record<string, number>> {
  const text = expectStatus(await call<string>('GET', '/metrics'), 200);
  const series = parsePrometheusText(text).get('onair_source_fetches_total')?.samples ?? [];
  const counts: Record<string, number> = {};
  for (const s of series) counts[s.labels.outcome ?? ''] = s.value;
  return counts;
}

const WAIT = { timeout: 20_000, interval: 50 };

describe('polling a JSON feed', () => {
  it('puts a value on air within one interval (plus a frame) of the feed changing, as the source', async () => {
    const game = liveFeed(json({ home: { score: 1 }, venue: 'Arena' }));
    feed.route('/game.json', game.handler);
    const source = await addSource(call, ch.channelId, {
      type: 'json_url',
      url: `${feed.origin}/game.json`,
      name: 'League feed',
      intervalMs: 1_000,
      mapping: { 'home.score': 'scoreA' },
    });
    expect(source.status).toMatchObject({ state: 'pending', lastFetchAt: null, cursor: 1 });
    await vi.waitFor(async () => expect((await inputs()).scoreA).toBe(1), WAIT);

    Object.assign(game.answer, json({ home: { score: 2 }, venue: 'Arena' }));
    const changedAt = Date.now();
    await vi.waitFor(async () => expect((await inputs()).scoreA).toBe(2), WAIT);
    // One interval with its 10 % of jitter, one frame, and room for a busy machine.
    expect(Date.now() - changedAt).toBeLessThan(1_100 + 17 + 1_500);

    const events = await sourceEvents(call, ch.channelId);
    expect(events.map((e) => e.data.inputs)).toEqual([{ scoreA: 1 }, { scoreA: 2 }]);
    for (const e of events) {
      expect(e.data.actor).toEqual({ type: 'source', id: source.id, name: 'League feed' });
    }
    expect(await getSource(call, source)).toMatchObject({
      status: { state: 'ok', lastError: null, lastChangeAt: expect.any(String) as string },
    });
  });

  it('applies nothing and fires no event for an unchanged body or a 304, and sends the ETag back', async () => {
    const body = JSON.stringify({ home_score: 4 });
    const seen: (string | undefined)[] = [];
    feed.route('/etag.json', (req, res) => {
      seen.push(req.headers['if-none-match']);
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { etag: '"v1"' }).end();
      else res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(body);
    });
    const same = liveFeed(json({ away_score: 7 }));
    feed.route('/same.json', same.handler);
    const tagged = await addSource(call, ch.channelId, {
      type: 'json_url',
      url: `${feed.origin}/etag.json`,
      intervalMs: 1_000,
      mapping: { home_score: 'scoreA' },
    });
    const plain = await addSource(call, ch.channelId, {
      type: 'json_url',
      url: `${feed.origin}/same.json`,
      intervalMs: 1_000,
      mapping: { away_score: 'scoreB' },
    });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(3), WAIT);
    await vi.waitFor(() => expect(same.seen.length).toBeGreaterThanOrEqual(3), WAIT);

    expect(seen[0]).toBeUndefined();
    expect(seen.slice(1)).toEqual(seen.slice(1).map(() => '"v1"'));
    expect((await inputs()).scoreA).toBe(4);
    expect((await inputs()).scoreB).toBe(7);
    const events = await sourceEvents(call, ch.channelId);
    expect(events.map((e) => e.data.inputs)).toEqual(
      expect.arrayContaining([{ scoreA: 4 }, { scoreB: 7 }]) as unknown[],
    );
    expect(events).toHaveLength(2);
    const log = await fetchesOf(call, tagged);
    expect(log.at(-1)).toMatchObject({ status: 200, changed: true, error: null });
    expect(log.slice(0, -1).every((l) => l.status === 304 && !l.changed)).toBe(true);
    expect((await fetchesOf(call, plain)).slice(0, -1).every((l) => l.status === 200 && !l.changed)).toBe(true);
    expect((await getSource(call, tagged)).status.etag).toBe('"v1"');

    // /metrics counts each fetch by how it ended: the two first bodies applied, then 304s and unchanged bodies.
    const counted = await fetchCounts();
    expect(counted.changed).toBe(2);
    expect(counted.not_modified).toBeGreaterThanOrEqual(2);
    expect(counted.unchanged).toBeGreaterThanOrEqual(2);
    expect(counted.failed).toBe(0);
  });

  it('keeps the last values on air when the feed fails, shows the error, and backs off', async () => {
    const game = liveFeed(json({ home_score: 5 }));
    feed.route('/flaky.json', game.handler);
    const source = await addSource(call, ch.channelId, {
      type: 'json_url',
      url: `${feed.origin}/flaky.json`,
      intervalMs: 1_000,
      mapping: { home_score: 'scoreA' },
    });
    await vi.waitFor(async () => expect((await inputs()).scoreA).toBe(5), WAIT);
    Object.assign(game.answer, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'down' });
    const failedFrom = game.seen.length;
    // Three failures in a row: waits of about 2 s, then 4 s (the interval doubled per failure).
    await vi.waitFor(() => expect(game.seen.length).toBeGreaterThanOrEqual(failedFrom + 3), {
      ...WAIT,
      timeout: 30_000,
    });
    const times = game.seen.slice(failedFrom).map((s) => s.at);
    const gaps = [times[1]! - times[0]!, times[2]! - times[1]!];
    expect(gaps[0]).toBeGreaterThan(1_700);
    expect(gaps[1]).toBeGreaterThan(gaps[0]! * 1.5);

    expect((await inputs()).scoreA).toBe(5);
    expect((await getSource(call, source)).status).toMatchObject({ state: 'failing', lastError: 'HTTP 500' });
    expect((await fetchesOf(call, source))[0]).toMatchObject({ status: 500, changed: false, error: 'HTTP 500' });
    expect(await sourceEvents(call, ch.channelId)).toHaveLength(1);
    expect((await fetchCounts()).failed).toBeGreaterThanOrEqual(3);

    // A refresh fetches at once and, the feed well again, clears the error.
    Object.assign(game.answer, json({ home_score: 6 }));
    const refreshed = expectStatus(
      await call<Source>('POST', `${sourcesPath(ch.channelId)}/${source.id}/refresh`),
      200,
    );
    expect(refreshed.status).toMatchObject({ state: 'ok', lastError: null });
    expect((await inputs()).scoreA).toBe(6);
  });
});
