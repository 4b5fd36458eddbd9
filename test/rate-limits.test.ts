/**
 * Rate limits over HTTP and the WebSocket (docs/api.md, "Rate limits"): exact counts for bursts in each bucket, per
 * scope, shared between REST and WebSocket ops, with RateLimit-* headers and 429 rate_limited + Retry-After. The
 * rolling-window exactness itself is proven with a manual clock in src/limits/rate-limiter.contract.ts and over HTTP
 * in rate-limits-window.test.ts. Here the rate limiter's clock stands still, so a burst counts in one window however
 * long the machine takes to send it: the counts are exact, never a matter of speed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addScoreboard,
  api,
  expectStatus,
  type Api,
  type ApiResponse,
  type Channel,
  type List,
} from './helpers/api.js';
import { createKey, newWorkspace, setupOwner } from './helpers/access-fixtures.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
const clients: RenderClient[] = [];

beforeEach(async () => {
  const frozen = Date.now();
  server = await startTestServer({ limiterClock: () => frozen });
  call = api(server.url, server.key);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

/** A channel with a scoreboard scene, made without spending any of its updates. */
async function quietChannel(name = 'Main') {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name }), 201);
  const scene = await addScoreboard(call, channel.id);
  return { channelId: channel.id, sceneId: scene.id };
}

/** Sends all at once, in `batch`-sized waves. */
async function burst(count: number, send: (i: number) => Promise<ApiResponse<unknown>>, batch = count) {
  const out: ApiResponse<unknown>[] = [];
  for (let start = 0; start < count; start += batch) {
    const wave = Array.from({ length: Math.min(batch, count - start) }, (_, k) => send(start + k));
    out.push(...(await Promise.all(wave)));
  }
  return out;
}

const ok = (rs: ApiResponse<unknown>[]) => rs.filter((r) => r.status < 300);
const refused = (rs: ApiResponse<unknown>[]) => rs.filter((r) => r.status === 429);

function expectRefusals(rs: ApiResponse<unknown>[], limit: number, windowS: number, bucket: string) {
  for (const r of rs) {
    expect(expectProblem(r, 429, 'rate_limited').bucket).toBe(bucket);
    const retry = Number(r.headers.get('retry-after'));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= windowS, `Retry-After ${retry}`).toBe(true);
    expect(r.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
  }
}

function expectCountedHeaders(rs: ApiResponse<unknown>[], limit: number, windowS: number) {
  for (const r of rs) {
    expect(r.headers.get('ratelimit-limit')).toBe(String(limit));
    const reset = Number(r.headers.get('ratelimit-reset'));
    expect(reset >= 1 && reset <= windowS, `RateLimit-Reset ${reset}`).toBe(true);
  }
  return rs.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
}

describe('updates: 30 per second per channel', () => {
  it('accepts exactly 30 of a burst of 40 to one channel; another channel is unaffected', async () => {
    const one = await quietChannel('One');
    const two = await quietChannel('Two');
    const rs = await burst(40, (i) => call('PATCH', `/v1/channels/${one.channelId}/inputs`, { scoreA: i }));
    expect(ok(rs)).toHaveLength(30);
    expect(refused(rs)).toHaveLength(10);
    expect(expectCountedHeaders(ok(rs), 30, 1)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expectRefusals(refused(rs), 30, 1, 'updates');
    const other = await burst(30, (i) => call('PATCH', `/v1/channels/${two.channelId}/inputs`, { scoreB: i }));
    expect(ok(other)).toHaveLength(30);
  });

  it('counts every update route and WebSocket ops in the same per-channel bucket', async () => {
    const { channelId, sceneId } = await quietChannel();
    const key = await createKey(call, ['*']);
    const ws = await RenderClient.connect(server.url, channelId, { key: key.secret });
    clients.push(ws);
    await ws.next((m) => m.type === 'snapshot');
    const routes: [string, unknown][] = [
      ['inputs', { scoreA: 1 }],
      ['preview', { sceneId }],
      ['program', { sceneId }],
      ['clear', undefined],
    ];
    const rs = await burst(20, (i) => {
      const [path, body] = routes[i % routes.length]!;
      return call(path === 'inputs' ? 'PATCH' : 'POST', `/v1/channels/${channelId}/${path}`, body);
    });
    expect(ok(rs)).toHaveLength(20);
    for (let i = 0; i < 20; i++)
      ws.send(i % 2 ? { op: 'patch', id: `op${i}`, inputs: { scoreB: i } } : { op: 'clear', id: `op${i}` });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => ws.reply(`op${i}`)));
    expect(replies.filter((r) => r.type === 'ack')).toHaveLength(10);
    const errors = replies.filter((r) => r.type === 'error');
    expect(errors.map((e) => (e.type === 'error' ? e.code : ''))).toEqual(Array<string>(10).fill('rate_limited'));
    expectProblem(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 2 }), 429, 'rate_limited');
  });

  it('puts RateLimit-* headers on counted answers that are errors', async () => {
    const { channelId } = await quietChannel();
    const bad = await call('PATCH', `/v1/channels/${channelId}/inputs`, { noSuchInput: 1 });
    expectProblem(bad, 400, 'unknown_input');
    const empty = await call('POST', `/v1/channels/${channelId}/take`);
    expectProblem(empty, 409, 'preview_empty');
    expect(expectCountedHeaders([bad, empty], 30, 1)).toEqual([28, 29]);
  });
});

describe('reads: 600 per minute per workspace', () => {
  it('accepts exactly 600 reads across routes and credentials of a workspace; others are unaffected', async () => {
    const owner = await setupOwner(server);
    const b = await newWorkspace(server.url, owner);
    const { channelId } = await quietChannel();
    const paths = ['/v1/channels', `/v1/channels/${channelId}/state`, '/v1/templates', '/v1/keys', '/v1/me'];
    const started = Date.now();
    const rs = await burst(610, (i) => (i % 7 ? call : owner.call)('GET', paths[i % paths.length]!), 61);
    expect(ok(rs)).toHaveLength(600);
    expect(refused(rs)).toHaveLength(10);
    expect(expectCountedHeaders(ok(rs), 600, 60)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    expectRefusals(refused(rs), 600, 60, 'reads');
    // Every counted read came after `started`, so none leaves the window before started + 60 s.
    const shortest = Math.min(...refused(rs).map((r) => Number(r.headers.get('retry-after'))));
    expect(shortest * 1000).toBeGreaterThanOrEqual(started + 60_000 - Date.now());
    expectStatus(await b.call('GET', '/v1/channels'), 200);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    expectStatus(await call('POST', '/v1/channels', { name: 'Still creating' }), 201);
  });
});

describe('creates: 60 per minute per workspace', () => {
  it('accepts exactly 60 creates, changes and deletes in a workspace; refused ones create nothing', async () => {
    const owner = await setupOwner(server);
    const b = await newWorkspace(server.url, owner); // one create in A (the workspace), one in B (its key)
    const target = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Target' }), 201);
    const usedInA = 2; // POST /workspaces and the Target channel
    const kinds = [
      () => call('POST', '/v1/channels', { name: 'Burst' }),
      () => call('PATCH', `/v1/channels/${target.id}`, { name: 'Renamed' }),
      () => call('POST', '/v1/keys', { name: 'Burst', permissions: ['channels:read'] }),
    ];
    const rs = await burst(66, (i) => kinds[i % 3]!(), 22);
    expect(ok(rs)).toHaveLength(60 - usedInA);
    expectRefusals(refused(rs), 60, 60, 'creates');
    const channels = expectStatus(await call<List<Channel>>('GET', '/v1/channels?limit=100'), 200).data;
    const created = ok(rs).filter(
      (r) => (r.body as { outputUrl?: string }).outputUrl !== undefined && r.status === 201,
    );
    expect(channels.filter((c) => c.name === 'Burst')).toHaveLength(created.length);
    expectProblem(await call('DELETE', `/v1/channels/${target.id}`), 429, 'rate_limited');
    expect(ok(await burst(10, () => b.call('POST', '/v1/channels', { name: 'In B' })))).toHaveLength(10);
  });
});
