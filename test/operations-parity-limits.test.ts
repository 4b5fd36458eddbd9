/**
 * The rate limit is part of the guard, before validation (docs/api.md, "The order of checks"): a request with an
 * invalid body still counts against its channel's updates, and once the bucket is full the next one answers 429
 * whatever its body, through every entry point, with the same detail. What comes before the bucket (the body's
 * media type and JSON syntax, the channel, the permission) still answers first, and a body refused for its media
 * type or syntax takes nothing from the bucket, on the fast route as on every other. The limiter's clock stands
 * still, so a burst counts in one window however long the machine takes to send it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addScoreboard, api, expectStatus, type Api, type Channel } from './helpers/api.js';
import { addMember, createKey, setupOwner } from './helpers/access-fixtures.js';
import { incomingHookOf } from './helpers/access-openapi.js';
import {
  hookPost,
  Raw,
  Sockets,
  viaHono,
  viaPort,
  type Answer,
  type Credential,
  type Send,
} from './helpers/parity-entries.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const LIMIT = 30;
const FULL = { status: 429, code: 'rate_limited', detail: 'Too many updates: at most 30 per 1 s. Retry in 1 s.' };
const INVALID = { status: 400, code: 'invalid_request' };

let server: TestServer;
let root: Api;
let star: Credential;
let narrow: Credential;
let viewer: Credential;
let port: Send;
let hono: Send;
let sockets: Sockets;

beforeAll(async () => {
  const frozen = Date.now();
  server = await startTestServer({ limiterClock: () => frozen });
  root = api(server.url, server.key);
  const owner = await setupOwner(server);
  star = { key: server.key };
  narrow = { key: (await createKey(root, ['channels:read'])).secret };
  viewer = { cookie: (await addMember(server.url, owner.call, 'viewer@example.com', 'viewer')).cookie };
  port = viaPort(server);
  hono = viaHono(server);
  sockets = new Sockets(server);
});

afterEach(() => sockets.closeAll());
afterAll(async () => {
  await server.dispose();
});

/** A channel with a scoreboard and an incoming hook, made without spending any of its updates. */
async function quietChannel(name: string) {
  const channel = expectStatus(await root<Channel>('POST', '/v1/channels', { name }), 201);
  const scene = await addScoreboard(root, channel.id);
  const { token } = await incomingHookOf(root, channel.id);
  return { id: channel.id, sceneId: scene.id, token };
}

/** Sends one after the other and returns what came back (what a caller learns: status, code). */
async function sendAll(count: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < count; i++) {
    const { status, code } = await send();
    out.push({ status, code });
  }
  return out;
}

describe('a full updates bucket answers 429 before the body is validated', () => {
  it('after 30 bad-bodied playout posts, through the port, Hono, the WebSocket, the fast route and a hook', async () => {
    const ch = await quietChannel('REST');
    const preview = `/v1/channels/${ch.id}/preview`;
    expect(await sendAll(LIMIT, () => port(star, 'POST', preview, {}))).toEqual(Array(LIMIT).fill(INVALID));

    const refused = await root('POST', preview, {});
    expect(expectProblem(refused, 429, 'rate_limited')).toMatchObject({ detail: FULL.detail, bucket: 'updates' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await hono(star, 'POST', preview, { sceneId: 1 })).toEqual(FULL);
    expect(await sockets.op(star, ch.id, { op: 'preview' })).toEqual(FULL);
    expect(await port(star, 'PATCH', `/v1/channels/${ch.id}/inputs`, {})).toEqual(FULL);
    expect(await port(star, 'POST', `/v1/channels/${ch.id}/clocks/gameClock`, { action: 'rewind' })).toEqual(FULL);
    expect(await hookPost(server, ch.token, { scoreA: 'x' })).toEqual(FULL);
  });

  it('after 30 bad-bodied preview ops on the WebSocket, on the socket and over REST', async () => {
    const ch = await quietChannel('Socket');
    const ops = await sendAll(LIMIT, () => sockets.op(star, ch.id, { op: 'preview', layer: 1 }));
    expect(ops).toEqual(Array(LIMIT).fill(INVALID));
    expect(await sockets.op(star, ch.id, { op: 'preview', layer: 1 })).toEqual(FULL);
    expect(await sockets.op(star, ch.id, { op: 'patch', inputs: [] })).toEqual(FULL);
    expect(await port(star, 'POST', `/v1/channels/${ch.id}/take`, { layer: 100 })).toEqual(FULL);
  });

  it('counts every entry point in the one bucket of the channel', async () => {
    const ch = await quietChannel('Shared');
    const base = `/v1/channels/${ch.id}`;
    const bad = [
      ...(await sendAll(8, () => port(star, 'POST', `${base}/take`, { layer: 100 }))),
      ...(await sendAll(8, () => port(star, 'PATCH', `${base}/inputs`, {}))),
      ...(await sendAll(7, () => sockets.op(star, ch.id, { op: 'clock', name: 'gameClock', action: 'set' }))),
      ...(await sendAll(7, () => hookPost(server, ch.token, { scoreA: 'x' }))),
    ];
    expect(bad).toEqual(Array(LIMIT).fill(INVALID));
    expect(await port(star, 'POST', `${base}/take`, { layer: 100 })).toEqual(FULL);
    expect(await hono(star, 'PATCH', `${base}/inputs`, {})).toEqual(FULL);
    expect(await port(star, 'PATCH', `${base}/inputs`, { scoreA: 1 })).toEqual(FULL);
    expect(await sockets.op(star, ch.id, { op: 'trigger', name: 'flashScoreA' })).toEqual(FULL);
    expect(await hookPost(server, ch.token, { scoreA: 1 })).toEqual(FULL);
  });

  it('still answers what comes before the bucket first: the body, the channel, the permission', async () => {
    const ch = await quietChannel('Order');
    const base = `/v1/channels/${ch.id}`;
    await sendAll(LIMIT, () => port(star, 'POST', `${base}/clear`, { layer: -1 }));
    const long = `/v1/channels/ch_${'a'.repeat(98)}`;
    for (const send of [port, hono]) {
      for (const path of [`${base}/clear`, `${base}/inputs`]) {
        const method = path.endsWith('/inputs') ? 'PATCH' : 'POST';
        // The body's media type and syntax come before the guard, on the fast route too.
        expect(await send(star, method, path, new Raw('{"layer":'))).toMatchObject(INVALID);
        expect(await send(star, method, path, new Raw('layer=1', 'text/plain'))).toMatchObject({
          status: 415,
          code: 'unsupported_media_type',
        });
        expect(await send(narrow, method, path, [1])).toMatchObject({ status: 403, code: 'forbidden' });
        expect(await send(viewer, method, path, [1])).toMatchObject({ status: 403, code: 'forbidden' });
        expect(await send(star, method, path.replace(base, long), [1])).toMatchObject({ status: 404 });
        expect(await send(star, method, path, [1])).toEqual(FULL);
      }
    }
    expect(await sockets.op(narrow, ch.id, { op: 'clear', layer: -1 })).toMatchObject({ status: 403 });
    expect(await sockets.op(viewer, ch.id, { op: 'patch', inputs: [] })).toMatchObject({ status: 403 });
    expect(await sockets.op(star, ch.id, { op: 'clear', layer: -1 })).toEqual(FULL);
  });

  it('takes nothing from the bucket for a body refused before the guard, on the fast route too', async () => {
    const ch = await quietChannel('Body');
    const inputs = `/v1/channels/${ch.id}/inputs`;
    const malformed = [
      ...(await sendAll(LIMIT + 5, () => port(star, 'PATCH', inputs, new Raw('{"scoreA":')))),
      ...(await sendAll(LIMIT + 5, () => hono(star, 'PATCH', inputs, new Raw('{"scoreA":')))),
    ];
    expect(malformed).toEqual(Array(2 * (LIMIT + 5)).fill(INVALID));
    const text = await sendAll(LIMIT + 5, () => port(star, 'PATCH', inputs, new Raw('scoreA=1', 'text/plain')));
    expect(text).toEqual(Array(LIMIT + 5).fill({ status: 415, code: 'unsupported_media_type' }));
    // The bucket is still empty: 30 bad-bodied patches are validated, the 31st is refused.
    expect(await sendAll(LIMIT, () => port(star, 'PATCH', inputs, {}))).toEqual(Array(LIMIT).fill(INVALID));
    expect(await port(star, 'PATCH', inputs, {})).toEqual(FULL);
  });
});
