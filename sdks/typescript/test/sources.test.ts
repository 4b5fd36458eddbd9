/**
 * Data sources through the SDK against a real server polling a real local feed: create, list, read, update, pause
 * and resume, the dry run, refresh, cursor moves, the fetch log, delete.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnairClient } from '../src/index.js';
import { clientFor, eventually, scoreboardChannel, startServer, type SdkServer } from './helpers.js';

let sdk: SdkServer;
let client: OnairClient;
let feed: http.Server;
let origin: string;
let homeScore = 1;

const RESULTS = 'Game,Home Score\r\nSemi,3\r\nFinal,5\r\n';

beforeAll(async () => {
  sdk = await startServer();
  client = clientFor(sdk);
  feed = http.createServer((req, res) => {
    if (req.url === '/results.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(RESULTS);
    else
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ home: homeScore, venue: 'X' }));
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
});

afterAll(async () => {
  feed?.closeAllConnections();
  await new Promise<void>((resolve) => (feed ? feed.close(() => resolve()) : resolve()));
  await sdk?.dispose();
});

describe('data sources', () => {
  it('creates, tests, refreshes, pauses, resumes, lists, reads and deletes a JSON source', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK sources');
    const dry = await client.sources.test(channel.id, {
      type: 'json_url',
      url: `${origin}/game.json`,
      mapping: { home: 'scoreA' },
    });
    expect(dry).toMatchObject({ values: { scoreA: 1 }, unmapped: ['venue'], error: null, fetch: { status: 200 } });
    expect((await client.sources.list(channel.id)).data).toEqual([]);

    const source = await client.sources.create(channel.id, {
      type: 'json_url',
      url: `${origin}/game.json`,
      name: 'Feed',
      intervalMs: 3_600_000,
      mapping: { home: 'scoreA' },
    });
    expect(source).toMatchObject({ name: 'Feed', status: { state: 'pending' } });
    await eventually(async () => (await client.channels.getState(channel.id)).inputs.scoreA === 1);
    homeScore = 4;
    const refreshed = await client.sources.refresh(channel.id, source.id);
    expect(refreshed.status).toMatchObject({ state: 'ok', lastError: null });
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(4);
    const log = await client.sources.fetches(channel.id, source.id);
    expect(log.data.map((f) => f.changed)).toEqual([true, true]);

    expect((await client.sources.pause(channel.id, source.id)).status.state).toBe('paused');
    await expect(client.sources.refresh(channel.id, source.id)).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect((await client.sources.resume(channel.id, source.id)).paused).toBe(false);
    const renamed = await client.sources.update(channel.id, source.id, { name: 'Renamed' });
    expect(renamed.name).toBe('Renamed');
    expect((await client.sources.get(channel.id, source.id)).name).toBe('Renamed');
    expect((await client.sources.list(channel.id)).data.map((s) => s.id)).toEqual([source.id]);
    await client.sources.delete(channel.id, source.id);
    await expect(client.sources.get(channel.id, source.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it("moves a CSV source's cursor and refuses a bad interval naming it", async () => {
    const { channel } = await scoreboardChannel(client, 'SDK CSV');
    const source = await client.sources.create(channel.id, {
      type: 'csv_url',
      url: `${origin}/results.csv`,
      intervalMs: 3_600_000,
      row: { by: 'cursor' },
      mapping: { Home_Score: 'scoreA' },
    });
    await eventually(async () => (await client.channels.getState(channel.id)).inputs.scoreA === 3);
    expect((await client.sources.row(channel.id, source.id, { move: 'next' })).status.cursor).toBe(2);
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(5);
    expect((await client.sources.row(channel.id, source.id, { number: 1 })).status.cursor).toBe(1);
    const bad = client.sources.create(channel.id, { type: 'json_url', url: `${origin}/x.json`, intervalMs: 10 });
    await expect(bad).rejects.toMatchObject({ status: 400, errors: [{ path: 'intervalMs' }] });
  });
});
