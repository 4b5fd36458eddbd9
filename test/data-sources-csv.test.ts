/**
 * CSV data sources (docs/data-sources.md, "CSV"): a row by number, by a key column's value, or by a cursor an operator
 * steps through the sheet (next, previous, first, a number), and a whole sheet into a `list` input, served over HTTPS
 * by a real local server with a self-signed certificate the server under test is told to trust.
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
import { addSource, csv, liveFeed, sourceEvents, sourcesPath, type Source } from './helpers/data-sources.js';
import { startFeedServer, type FeedServer } from './helpers/feed-server.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testCertificate } from './helpers/webhook-receiver.js';

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
let feed: FeedServer;

beforeEach(async () => {
  const { cert } = await testCertificate();
  server = await startTestServer({ webhookCa: cert }, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
  feed = await startFeedServer({ tls: true });
});

afterEach(async () => {
  await server.dispose();
  await feed.close();
});

const WAIT = { timeout: 20_000, interval: 50 };
const RESULTS = [
  'Game, Home Team ,Home Score,Away Team,Away Score',
  'Semi 1,Lions,3,Tigers,1',
  'Semi 2,"Bears, North",0,Wolves,2',
  'Final,Lions,2,Wolves,2',
].join('\r\n');
const MAPPING = { Home_Team: 'home', Home_Score: 'scoreA', Away_Team: 'away', Away_Score: 'scoreB' };
const inputs = async () => (await getState(call, ch.channelId)).inputs;
const row = (source: Source, body: unknown) =>
  call<Source>('POST', `${sourcesPath(source.channelId)}/${source.id}/row`, body);

describe('a CSV row', () => {
  it('by number and by a key column, over HTTPS, with headers normalised', async () => {
    feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
    await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/results.csv`,
      intervalMs: 1_000,
      row: { by: 'number', number: 2 },
      mapping: { Home_Team: 'home', Home_Score: 'scoreA' },
    });
    await vi.waitFor(async () => expect(await inputs()).toMatchObject({ home: 'Bears, North', scoreA: 0 }), WAIT);
    await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/results.csv`,
      intervalMs: 1_000,
      row: { by: 'match', column: 'Game', value: ' Final ' },
      mapping: { Away_Team: 'away', Away_Score: 'scoreB' },
    });
    await vi.waitFor(async () => expect(await inputs()).toMatchObject({ away: 'Wolves', scoreB: 2 }), WAIT);
  });

  it('by cursor: next, previous, first and a number each apply the row they land on', async () => {
    const results = liveFeed(csv(RESULTS));
    feed.route('/results.csv', results.handler);
    const source = await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/results.csv`,
      intervalMs: 3_600_000,
      row: { by: 'cursor' },
      mapping: MAPPING,
    });
    await vi.waitFor(async () => expect(await inputs()).toMatchObject({ home: 'Lions', scoreA: 3 }), WAIT);

    const next = expectStatus(await row(source, { move: 'next' }), 200);
    expect(next.status.cursor).toBe(2);
    expect(await inputs()).toMatchObject({ home: 'Bears, North', scoreA: 0, away: 'Wolves', scoreB: 2 });
    expect(expectStatus(await row(source, { number: 3 }), 200).status.cursor).toBe(3);
    expect(await inputs()).toMatchObject({ home: 'Lions', scoreA: 2, away: 'Wolves', scoreB: 2 });
    // The last row holds: next stays there.
    expect(expectStatus(await row(source, { move: 'next' }), 200).status.cursor).toBe(3);
    expect(expectStatus(await row(source, { move: 'previous' }), 200).status.cursor).toBe(2);
    expect(await inputs()).toMatchObject({ home: 'Bears, North', scoreA: 0 });
    expect(expectStatus(await row(source, { move: 'first' }), 200).status.cursor).toBe(1);
    expect(await inputs()).toMatchObject({ home: 'Lions', scoreA: 3, away: 'Tigers', scoreB: 1 });

    expectProblem(await row(source, { number: 9 }), 400, 'invalid_request');
    expectProblem(await row(source, { move: 'sideways' }), 400, 'invalid_request');
    expect((await call<Source>('GET', `${sourcesPath(ch.channelId)}/${source.id}`)).body.status.cursor).toBe(1);
    // Only the values that changed were applied at each step.
    const applied = (await sourceEvents(call, ch.channelId)).map((e) => Object.keys(e.data.inputs as object).sort());
    expect(applied[2]).toEqual(['home', 'scoreA']);
  });

  it('refuses a cursor move on a source that does not pick its row by cursor', async () => {
    feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
    const source = await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/results.csv`,
      row: { by: 'number', number: 1 },
      paused: true,
    });
    expectProblem(await row(source, { move: 'next' }), 409, 'conflict');
  });
});

describe('a CSV table', () => {
  it('feeds every row into a list input, numbers as numbers', async () => {
    const standings = expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${ch.channelId}/scenes`, {
        name: 'Table',
        template: 'standings-table',
      }),
      201,
    );
    expect(standings.id).toMatch(/^sc_/);
    feed.route('/table.csv', liveFeed(csv('pos,team\r\n1,Lions\r\n2,Wolves\r\n')).handler);
    await addSource(call, ch.channelId, {
      type: 'csv_url',
      url: `${feed.origin}/table.csv`,
      intervalMs: 1_000,
      table: { input: 'standings' },
    });
    await vi.waitFor(
      async () =>
        expect((await inputs()).standings).toEqual([
          { pos: 1, team: 'Lions' },
          { pos: 2, team: 'Wolves' },
        ]),
      WAIT,
    );
  });
});
