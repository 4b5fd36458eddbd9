/**
 * Conventions every endpoint shares (docs/api.md, "Conventions" and "Authentication" and "Operations"): request ids,
 * authentication, 404s, unknown fields, the health check and the OpenAPI document.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  type Api,
  type ApiResponse,
  type Channel,
  type List,
} from './helpers/api.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let channelId: string;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ({ channelId } = await createChannelWithScoreboard(call));
});

afterEach(async () => {
  await server.dispose();
});

describe('X-Request-Id', () => {
  /** One request of each kind of answer: success, validation, auth, not found, media type, size, system. */
  const requests = (): [string, () => Promise<ApiResponse<unknown>>][] => [
    ['200 GET state', () => call('GET', `/v1/channels/${channelId}/state`)],
    ['201 POST channel', () => call('POST', '/v1/channels', { name: 'Second' })],
    ['200 PATCH inputs', () => call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 })],
    ['400 unknown input', () => call('PATCH', `/v1/channels/${channelId}/inputs`, { nope: 1 })],
    ['400 malformed JSON', () => call('PATCH', `/v1/channels/${channelId}/inputs`, undefined, { raw: '{' })],
    ['401 no key', () => call('GET', '/v1/channels', undefined, { noAuth: true })],
    ['404 unknown channel', () => call('GET', '/v1/channels/ch_missing/state')],
    ['404 unknown path', () => call('GET', '/v1/nowhere')],
    [
      '415 text body',
      () => call('POST', '/v1/channels', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } }),
    ],
    [
      '413 oversized body',
      () => call('PATCH', `/v1/channels/${channelId}/inputs`, undefined, { raw: 'x'.repeat(70_000) }),
    ],
    ['200 healthz', () => call('GET', '/healthz', undefined, { noAuth: true })],
    ['200 openapi', () => call('GET', '/v1/openapi.json', undefined, { noAuth: true })],
  ];

  it('is on every response', async () => {
    const missing: string[] = [];
    for (const [name, send] of requests()) {
      const res = await send();
      if (!/^\S{8,}$/.test(res.headers.get('x-request-id') ?? '')) missing.push(`${name} (HTTP ${res.status})`);
    }
    expect(missing).toEqual([]);
  });

  it('echoes the id the client sent, on success and on error', async () => {
    const headers = { 'x-request-id': 'client-req-42' };
    const ok = await call('GET', `/v1/channels/${channelId}/state`, undefined, { headers });
    const bad = await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreX: 1 }, { headers });
    const unauthorized = await call('GET', '/v1/channels', undefined, { headers, noAuth: true });
    for (const res of [ok, bad, unauthorized]) expect(res.headers.get('x-request-id')).toBe('client-req-42');
  });

  it('is generated fresh for each request when the client sent none', async () => {
    const a = await call('GET', '/healthz', undefined, { noAuth: true });
    const b = await call('GET', '/healthz', undefined, { noAuth: true });
    expect(a.headers.get('x-request-id')).toBeTruthy();
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', {}],
    ['an unknown key', { authorization: 'Bearer onair_sk_ThisKeyDoesNotExist0123456789abc' }],
    ['another scheme', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 unauthorized to %s, and changes nothing', async (_name, headers) => {
    const before = stableState(await getState(call, channelId));
    const res = await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 9 }, { noAuth: true, headers });
    expectProblem(res, 401, 'unauthorized');
    expectProblem(await call('GET', '/v1/channels', undefined, { noAuth: true, headers }), 401, 'unauthorized');
    expect(stableState(await getState(call, channelId))).toEqual(before);
  });
});

describe('unknown resources', () => {
  it('answers 404 not_found for a channel that does not exist, on every kind of route', async () => {
    const id = 'ch_0000000000000000000000000000dead';
    expectProblem(await call('GET', `/v1/channels/${id}`), 404, 'not_found');
    expectProblem(await call('GET', `/v1/channels/${id}/state`), 404, 'not_found');
    expectProblem(await call('PATCH', `/v1/channels/${id}/inputs`, { scoreA: 1 }), 404, 'not_found');
    expectProblem(await call('POST', `/v1/channels/${id}/take`), 404, 'not_found');
    expectProblem(await call('DELETE', `/v1/channels/${id}`), 404, 'not_found');
  });

  it('answers 404 not_found for an unknown scene', async () => {
    const res = await call('GET', `/v1/channels/${channelId}/scenes/sc_0000000000000000000000000000dead`);
    expectProblem(res, 404, 'not_found');
  });
});

describe('POST /v1/channels', () => {
  it('refuses unknown fields with 400 invalid_request naming them, and creates nothing', async () => {
    const res = await call('POST', '/v1/channels', { name: 'Typo', framerate: 50, colour: 'red' });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(expect.arrayContaining(['framerate', 'colour']));
    const list = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200);
    expect(list.data.map((c) => c.id)).toEqual([channelId]);
  });

  it('refuses an fps outside the broadcast rates with 400 invalid_request', async () => {
    const problem = expectProblem(await call('POST', '/v1/channels', { name: 'Odd', fps: 24 }), 400, 'invalid_request');
    expect(errorPaths(problem)).toContain('fps');
  });
});

describe('operations endpoints', () => {
  it('GET /healthz answers {ok:true} without a key', async () => {
    const res = await call('GET', '/healthz', undefined, { noAuth: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 'ready', storage: 'ok' });
  });

  it('GET /v1/openapi.json is OpenAPI 3.1 and every operation declares its permission', async () => {
    type Doc = { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    const res = await call<Doc>('GET', '/v1/openapi.json', undefined, { noAuth: true });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');

    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
    const permissionOf = new Map(
      Object.entries(res.body.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => methods.has(method))
          // The document may list paths relative to its `/v1` server or in full.
          .map(([method, op]) => [
            `${method.toUpperCase()} ${path.replace(/^\/v1(?=\/)/, '')}`,
            op['x-onair-permission'],
          ]),
      ),
    );
    const lacking = [...permissionOf].filter(([, permission]) => typeof permission !== 'string' || !permission);
    expect(lacking).toEqual([]);
    // The ones docs/api.md, "Authentication" spells out.
    expect(Object.fromEntries(permissionOf)).toMatchObject({
      'POST /channels': 'channels:write',
      'GET /channels': 'channels:read',
      'GET /channels/{id}/state': 'channels:read',
      'PATCH /channels/{id}/inputs': 'inputs:write',
      'POST /channels/{id}/output-token': 'channels:write',
      'POST /channels/{id}/take': 'playout:write',
      'POST /channels/{id}/program': 'playout:write',
      'DELETE /channels/{id}/scenes/{sceneId}': 'channels:write',
    });
  });
});
